"""`ndd clusters` and `ndd export` use the threshold, keeper rule and grouping saved with the
collection (the reviewer's, from the window) unless an option says otherwise."""

from __future__ import annotations

import argparse
import csv
import io
import os

import pytest

from ndd_desktop.cli.selection import grouping_options
from ndd_desktop.store import Store
from ndd_desktop.store.settings import GROUPING_KEY, KEEPER_RULE_KEY, threshold_key
from cli_run import run

BASE = "the council met on tuesday to discuss the new bridge over the river and the budget for the harbour works"


@pytest.fixture
def db(tmp_path, capsys):
    """a/one.txt == ref/old.txt (score 1), a/sub/two.txt ~ both (23 of their 24 words in
    common: 0.958); old < one < two in date."""
    a, ref = tmp_path / "a", tmp_path / "ref"
    (a / "sub").mkdir(parents=True)
    ref.mkdir()
    files = {ref / "old.txt": BASE + " in the spring.", a / "one.txt": BASE + " in the spring.",
             a / "sub" / "two.txt": BASE + " in the autumn.",
             a / "other.txt": "a recipe for apple pie with cinnamon, butter and a crisp lattice crust on top"}
    for k, (path, text) in enumerate(files.items()):
        path.write_text(text)
        os.utime(path, (1.0e9 + k * 1.0e7, 1.0e9 + k * 1.0e7))
    path = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", a, "--reference", ref, "--db", path, "--method", "qgram")
    assert status == 0, err
    return path


def save(db, **values):
    with Store.open(db) as s:
        (ps,) = s.pairs.sets()
        for key, value in values.items():
            key = {"threshold": threshold_key(ps.method, ps.pairs_key), "rule": KEEPER_RULE_KEY,
                   "grouping": GROUPING_KEY}.get(key, key)
            s.settings.put(key, value)


def groups(out: str) -> tuple[set, set]:
    rows = list(csv.DictReader(io.StringIO(out)))
    return {r["path"] for r in rows}, {r["path"] for r in rows if r["keeper"] == "yes"}


def test_without_saved_values_the_defaults_apply(capsys, db):
    status, out, err = run(capsys, "clusters", "--db", db)
    assert status == 0 and "saved with the collection" not in err
    assert groups(out) == ({"old.txt", "one.txt", "sub/two.txt"}, {"old.txt"})  # 0.5, reference first


def test_the_saved_threshold_rule_and_grouping_are_used(capsys, db):
    save(db, threshold=0.97, rule="newest", grouping="principal")
    status, out, err = run(capsys, "clusters", "--db", db)
    assert status == 0
    assert groups(out) == ({"old.txt", "one.txt"}, {"one.txt"})  # 0.97 leaves two.txt out; newest kept
    assert "ndd: note: threshold 0.97 saved with the collection (--threshold overrides it)" in err
    assert "keeper rule newest and grouping principal saved with the collection" in err
    # pairs shows the same selection
    status, out, _ = run(capsys, "pairs", "--db", db)
    assert len(list(csv.DictReader(io.StringIO(out)))) == 1


def test_options_win_over_the_saved_values(capsys, db):
    save(db, threshold=0.97, rule="newest", grouping="principal")
    status, out, err = run(capsys, "clusters", "--db", db, "--threshold", "0.7", "--keeper-rule", "reference-oldest",
                           "--grouping", "components")
    assert status == 0 and "saved with the collection" not in err
    assert groups(out) == ({"old.txt", "one.txt", "sub/two.txt"}, {"old.txt"})
    status, out, err = run(capsys, "clusters", "--db", db, "--threshold", "0.7")
    assert groups(out) == ({"old.txt", "one.txt", "sub/two.txt"}, {"sub/two.txt"})  # the saved rule still applies
    assert "threshold" not in err and "keeper rule newest" in err


def test_a_threshold_saved_for_another_pair_set_is_not_used(capsys, db):
    with Store.open(db) as s:
        (ps,) = s.pairs.sets()
        s.settings.put(threshold_key("bottomk", ps.pairs_key), 0.97)
        s.settings.put(threshold_key("qgram", "0" * 16), 0.97)
    status, out, err = run(capsys, "clusters", "--db", db)
    assert groups(out)[0] == {"old.txt", "one.txt", "sub/two.txt"} and "saved" not in err


def test_unknown_saved_values_fall_back_to_the_defaults(capsys, db):
    save(db, threshold="high", rule="no such rule", grouping=7)
    status, out, err = run(capsys, "clusters", "--db", db)
    assert status == 0 and "saved" not in err
    assert groups(out) == ({"old.txt", "one.txt", "sub/two.txt"}, {"old.txt"})


def test_export_uses_the_saved_values(capsys, db, tmp_path):
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "plain", "--report", "csv")
    assert status == 0, err
    assert len(list((tmp_path / "plain").rglob("*.txt"))) == 2  # one of the three, and other.txt
    save(db, threshold=0.97, rule="newest")
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "reviewed", "--report", "csv")
    assert status == 0, err
    names = sorted(p.name for p in (tmp_path / "reviewed").rglob("*.txt"))
    assert names == ["one.txt", "other.txt", "two.txt"]  # old.txt left out: one.txt is the newest copy
    assert "threshold 0.97 saved with the collection" in err and "keeper rule newest" in err
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "forced", "--report", "csv",
                         "--threshold", "0.7", "--keeper-rule", "reference-oldest")
    assert status == 0, err
    assert len(list((tmp_path / "forced").rglob("*.txt"))) == 2


def test_folder_priority_follows_the_collection_folders_unless_given(db):
    with Store.open(db) as s:
        s.settings.put(KEEPER_RULE_KEY, "folder-priority")
        roots = [r.path for r in s.documents.roots()]
        ns = argparse.Namespace(keeper_rule=None, grouping=None, priority=[])
        assert grouping_options(s, ns) == ("folder-priority", "components", tuple(roots))
        ns = argparse.Namespace(keeper_rule=None, grouping="principal", priority=["/x"])
        assert grouping_options(s, ns) == ("folder-priority", "principal", ("/x",))
        ns = argparse.Namespace(keeper_rule="oldest", grouping=None)  # export has no --priority
        assert grouping_options(s, ns) == ("oldest", "components", ())


def test_help_says_which_value_wins(capsys):
    for cmd in ("clusters", "export"):
        status, out, _ = run(capsys, cmd, "--help")
        text = " ".join(out.split())
        assert status == 0 and "Which value wins: an option given here, else the value saved with the collection" in text
        assert "wins over the rule saved with the collection" in text


def test_a_review_file_with_settings_that_do_not_exist_is_refused_whole(capsys, db, tmp_path):
    """They were imported without a word, then silently ignored (the defaults applied)."""
    import json

    review = tmp_path / "review.json"
    review.write_text(json.dumps({"format": "ndd-desktop review", "version": 1, "decisions": [],
                                  "settings": {"threshold/qgram/x": 7, KEEPER_RULE_KEY: "bogus",
                                               GROUPING_KEY: "components"}}))
    status, _, err = run(capsys, "decisions", "import", review, "--db", db)
    assert status == 2
    assert "threshold/qgram/x: 7 is no threshold (a number from 0 to 1)" in err
    assert f"{KEEPER_RULE_KEY}: 'bogus' is no keeper rule (reference-oldest, oldest" in err
    with Store.open(db) as s:
        assert s.settings.get(KEEPER_RULE_KEY) is None and s.settings.get("threshold/qgram/x") is None


def test_a_review_carries_no_record_of_how_its_collection_was_read(capsys, db, tmp_path):
    """A review exported from a collection read with --html all, imported into one read
    with the main text, replaced the record of how the pages were read: the next scan read
    none of them again and kept texts of the other reading, unnoticed."""
    import json

    from ndd_desktop.pipeline.reading import READING_KEY
    from ndd_desktop.store.review_transfer import STATE_KEYS

    assert READING_KEY in STATE_KEYS
    with Store.open(db) as s:
        ours = s.settings.get(READING_KEY)
    assert ours is not None  # the scan recorded how it read the files
    out = tmp_path / "review.json"
    status, _, err = run(capsys, "decisions", "export", out, "--db", db)
    assert status == 0, err
    assert READING_KEY not in json.loads(out.read_text())["settings"]
    theirs = {"format": "ndd-desktop review", "version": 1, "decisions": [],
              "settings": {READING_KEY: {"html": "all", "html_reader": 1}, KEEPER_RULE_KEY: "newest"}}
    out.write_text(json.dumps(theirs))
    status, _, err = run(capsys, "decisions", "import", out, "--db", db)
    assert status == 0, err
    assert "imported 0 decisions and 1 settings" in err and "describe how its own collection was read" in err
    with Store.open(db) as s:
        assert s.settings.get(READING_KEY) == ours and s.settings.get(KEEPER_RULE_KEY) == "newest"
