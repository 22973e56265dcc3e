"""The one rule for which pair set, threshold, keeper rule and grouping are shown: the app
layer's answer is the export's answer too."""

from __future__ import annotations

import pytest

from ndd_desktop.app.selection import SelectionError, choose_grouping, default_selection, select
from ndd_desktop.cli import main
from ndd_desktop.core.text_share import DEFAULT_SHARE
from ndd_desktop.export.options import ExportOptions, resolve_options
from ndd_desktop.store import Store
from ndd_desktop.store.settings import GROUPING_KEY, KEEPER_RULE_KEY, threshold_key

BASE = "the council met on tuesday to discuss the new bridge over the river and the budget for the harbour works"


@pytest.fixture
def db(tmp_path, capsys):
    """Scanned with qgram (default), then qgram q=3, then qgram (default) again: the last
    finished scan is the default one, although the q=3 pair set is the newer one."""
    a = tmp_path / "a"
    a.mkdir()
    (a / "one.txt").write_text(BASE + " in the spring.")
    (a / "two.txt").write_text(BASE + " in the spring, again.")
    (a / "pie.txt").write_text("a recipe for apple pie with cinnamon, butter and a crisp lattice crust on top")
    path = tmp_path / "c.ndd"
    for extra in ([], ["--set", "q=3"], []):
        assert main(["scan", str(a), "--db", str(path), "--method", "qgram", "-q", *extra]) == 0
    capsys.readouterr()
    return path


def keys(store: Store) -> tuple[str, str]:
    """(pairs key of the default qgram scan, of the q=3 scan)."""
    by_q = {ps.params.get("q"): ps.pairs_key for ps in store.pairs.sets()}
    assert len(by_q) == 2
    q3 = by_q.pop(3)
    (default,) = by_q.values()
    return default, q3


def test_a_method_name_alone_means_its_last_finished_scan_for_window_cli_and_export(db, tmp_path):
    with Store.open(db) as store:
        default_key, q3_key = keys(store)
        assert store.pairs.sets()[0].pairs_key == q3_key  # the newest pair set is not the answer
        assert select(store).pairs_key == default_key
        assert select(store, "qgram").pairs_key == default_key
        assert default_selection(store).pairs_key == default_key
        resolved, pset = resolve_options(store, ExportOptions(dest=str(tmp_path / "out")))
        assert (resolved.method, resolved.pairs_key, pset.pairs_key) == ("qgram", default_key, default_key)
        assert select(store, "qgram", {"q": "3"}).pairs_key == q3_key


def test_the_threshold_is_the_option_else_the_saved_one_else_the_default(db, tmp_path):
    with Store.open(db) as store:
        default_key, q3_key = keys(store)
        assert (select(store).threshold, select(store).threshold_source) == (DEFAULT_SHARE, "default")
        store.settings.put(threshold_key("qgram", default_key), 0.8)
        sel = select(store)
        assert (sel.threshold, sel.threshold_source) == (0.8, "saved")
        assert "threshold 0.8 saved with the collection (--threshold overrides it)" in sel.notes()
        assert select(store, threshold=0.6).threshold == 0.6
        assert select(store, "qgram", {"q": "3"}).threshold == DEFAULT_SHARE  # saved for the other pair set only
        # the export follows the same rule
        resolved, _ = resolve_options(store, ExportOptions(dest=str(tmp_path / "out")))
        assert resolved.threshold == 0.8
        resolved, _ = resolve_options(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.65))
        assert resolved.threshold == 0.65
        with pytest.raises(SelectionError) as info:
            select(store, threshold=1.5)
        assert info.value.usage


def test_keeper_rule_and_grouping_given_else_saved_else_first(db):
    with Store.open(db) as store:
        first = choose_grouping(store)
        assert (first.keeper_rule, first.grouping, first.saved) == ("reference-oldest", "components", ())
        store.settings.put(KEEPER_RULE_KEY, "newest")
        store.settings.put(GROUPING_KEY, "no-such-grouping")  # not a known one: ignored
        saved = choose_grouping(store)
        assert (saved.keeper_rule, saved.grouping, saved.saved) == ("newest", "components", ("keeper rule newest",))
        assert choose_grouping(store, keeper_rule="oldest").keeper_rule == "oldest"
        roots = tuple(r.path for r in store.documents.roots())
        assert choose_grouping(store, keeper_rule="folder-priority").folder_priority == roots
        with pytest.raises(SelectionError) as info:
            choose_grouping(store, keeper_rule="tallest")
        assert info.value.usage


def test_an_unscanned_collection_selects_nothing(tmp_path):
    with Store.open(tmp_path / "empty.ndd", create=True) as store:
        assert default_selection(store) is None
        with pytest.raises(SelectionError) as info:
            select(store)
        assert not info.value.usage and "not been scanned" in str(info.value)
        with pytest.raises(SelectionError) as info:
            select(store, "no-such-method")
        assert info.value.usage
