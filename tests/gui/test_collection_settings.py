"""The reviewer's threshold, keeper rule and grouping travel with the collection file:
they come back after close and reopen and with "Save as", each pair set keeps its own
threshold, and restoring them neither writes them again nor regroups twice."""

from __future__ import annotations

import pytest
from gui_helpers import scan, wait_idle

import ndd_desktop.app.session as session_module
from ndd_desktop.core.methods import default_threshold
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.pipeline.reading import HTML_READER, READERS, READING_KEY, TEXT_READER
from ndd_desktop.store import Settings
from ndd_desktop.store.settings import GROUPING_KEY, KEEPER_RULE_KEY, threshold_key


def settle(qtbot, w, t: float) -> None:
    """Move the threshold as a reviewer would and wait for the groups at it."""
    with qtbot.waitSignal(w.threshold.thresholdSettled, timeout=5000):
        w.threshold.set_threshold(t)
    qtbot.waitUntil(lambda: not w.collection.regrouping() and abs(w.collection.threshold - t) < 1e-9, timeout=10000)
    wait_idle(qtbot, w)


def choose(qtbot, w, rule: str, mode: str) -> None:
    """Pick a keeper rule and a grouping in the Groups tab."""
    w.clusters.rule.setCurrentIndex(w.clusters.rule.findData(rule))
    w.clusters.mode.setCurrentIndex(w.clusters.mode.findData(mode))
    qtbot.waitUntil(lambda: not w.collection.busy(), timeout=10000)
    assert (w.collection.keeper_rule, w.collection.grouping_mode) == (rule, mode)


def reopen(qtbot, w: MainWindow, path: str) -> MainWindow:
    """Close the window (and its store) and open ``path`` in a new one with the same settings."""
    settings, data_dir = w.settings, w.data_dir
    w.close()
    again = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(again)
    again.show()
    assert again.open_store(path)
    wait_idle(qtbot, again)
    return again


def shown(w: MainWindow) -> tuple:
    return (w.threshold.threshold(), w.collection.threshold, w.clusters.rule.currentData(),
            w.clusters.mode.currentData(), w.collection.keeper_rule, w.collection.grouping_mode)


def test_threshold_rule_and_grouping_come_back_with_the_collection(qtbot, scanned, monkeypatch):
    w = scanned
    data = w.collection.data
    assert w.collection.threshold == default_threshold(data.method, data.params) == 0.5
    assert shown(w)[2:] == ("reference-oldest", "components", "reference-oldest", "components")
    # opening and scanning saved nothing but how the scan read the documents
    assert w.collection.store.settings.all() == {READING_KEY: {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}}
    settle(qtbot, w, 0.62)
    choose(qtbot, w, "oldest", "principal")
    path = w.collection.path
    assert w.collection.store.settings.all() == {
        threshold_key(data.method, data.pairs_key): 0.62, KEEPER_RULE_KEY: "oldest", GROUPING_KEY: "principal",
        READING_KEY: {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}}

    writes: list = []
    real_set = Settings.put
    monkeypatch.setattr(Settings, "put", lambda self, k, v: writes.append((k, v)) or real_set(self, k, v))
    groupings: list = []
    real_groups_at = session_module.groups_at
    monkeypatch.setattr(session_module, "groups_at",
                        lambda *a, **k: groupings.append(k) or real_groups_at(*a, **k))

    w = reopen(qtbot, w, path)
    assert shown(w) == (0.62, 0.62, "oldest", "principal", "oldest", "principal")
    assert w.pairs.model.total_rows() == int((w.collection.data.arrays.score >= 0.62).sum())
    assert f"<b>{w.pairs.model.total_rows():,}</b> pairs" in w.threshold.counts_label.text()
    # restoring wrote nothing and grouped once, with the restored values
    assert writes == []
    assert [(g["keeper_rule"], g["grouping"]) for g in groupings] == [("oldest", "principal")]
    qtbot.wait(300)  # past the threshold's settle time: nothing follows
    assert writes == [] and len(groupings) == 1
    # the export dialog gets what the Groups tab shows
    dialog = w.open_export()
    base = dialog._base
    assert (base["threshold"], base["keeper_rule"], base["grouping"]) == (0.62, "oldest", "principal")
    dialog.done(0)
    # they are in the collection file, not in the application's settings
    q = w.settings._q
    assert not [k for k in q.allKeys() if any(w_ in k.lower() for w_ in ("threshold", "keeper", "grouping"))]
    assert not [k for k in q.allKeys() if str(q.value(k)) in ("0.62", "oldest", "principal")]


def test_save_as_takes_them_along(qtbot, scanned, tmp_path):
    w = scanned
    settle(qtbot, w, 0.66)
    choose(qtbot, w, "longest", "principal")
    assert w.move_store_to(str(tmp_path / "elsewhere"))
    wait_idle(qtbot, w)
    assert w.collection.path.endswith("elsewhere.ndd.sqlite")
    assert shown(w) == (0.66, 0.66, "longest", "principal", "longest", "principal")


def test_a_collection_without_saved_values_gets_the_defaults(qtbot, scanned, tmp_path):
    w = scanned
    first = w.collection.path
    settle(qtbot, w, 0.62)
    choose(qtbot, w, "newest", "principal")
    # another collection: none of the first one's choices leak into it, or into its file
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.txt").write_text("alpha beta gamma delta " * 40)
    (other / "b.txt").write_text("alpha beta gamma delta " * 40 + "epsilon")
    assert w.open_folder(str(other))
    scan(qtbot, w)
    assert shown(w) == (0.5, 0.5, "reference-oldest", "components", "reference-oldest", "components")
    assert w.collection.store.settings.all() == {READING_KEY: {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}}
    assert w.open_store(first)
    wait_idle(qtbot, w)
    assert shown(w) == (0.62, 0.62, "newest", "principal", "newest", "principal")


def test_each_pair_set_keeps_its_own_threshold(qtbot, scanned):
    w = scanned
    first = w.collection.data
    settle(qtbot, w, 0.62)
    # another method: its own default, not the 0.62 of the first
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        assert w.run_method("bottomk")
    wait_idle(qtbot, w)
    assert w.collection.data.method == "bottomk"
    assert w.collection.threshold == w.threshold.threshold() == default_threshold("bottomk", {}) == 0.5
    settle(qtbot, w, 0.8)
    # the same method with other parameters: another pair set, its default again
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        assert w.start_scan(first.method, {"q": 3})
    wait_idle(qtbot, w)
    assert w.collection.data.method == first.method and w.collection.data.pairs_key != first.pairs_key
    assert w.collection.threshold == 0.5
    # back to the first parameters: the first pair set's threshold comes back (a rescan keeps it)
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        assert w.start_scan(first.method, first.params)
    wait_idle(qtbot, w)
    assert w.collection.data.pairs_key == first.pairs_key
    assert w.collection.threshold == w.threshold.threshold() == 0.62
    store = w.collection.store
    assert store.settings.saved_threshold(first.method, first.pairs_key) == 0.62
    bottomk_key = next(ps.pairs_key for ps in store.pairs.sets() if ps.method == "bottomk")
    assert store.settings.saved_threshold("bottomk", bottomk_key) == 0.8


@pytest.mark.parametrize("saved", ["not a rule", 3, None])
def test_an_unknown_saved_rule_falls_back_to_the_default(qtbot, scanned, saved):
    w = scanned
    path = w.collection.path
    w.collection.store.settings.put(KEEPER_RULE_KEY, saved)
    w.collection.store.settings.put(GROUPING_KEY, saved)
    w = reopen(qtbot, w, path)
    assert shown(w)[2:] == ("reference-oldest", "components", "reference-oldest", "components")
