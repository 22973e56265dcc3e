"""``ndd decisions import`` refuses a review whose decisions hold values it does not know:
they were stored ("imported 4 decisions") and then ignored by every grouping and export."""

from __future__ import annotations

import json

import pytest

from ndd_desktop.store import Store
from cli_run import run

TEXT = "the harbour board agreed to repair the north pier before the winter storms arrive in the bay"
HEADER = "kind,a_root,a_path,a_xxh128,b_root,b_path,b_xxh128,value,reviewer,note,time\n"


@pytest.fixture
def db(tmp_path, capsys):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEXT + " (a)")
    (docs / "b.txt").write_text(TEXT + " (b)")
    (docs / "c.txt").write_text(TEXT + " (c)")
    path = tmp_path / "c.ndd"
    assert run(capsys, "scan", docs, "--db", path, "-q")[0] == 0
    return path


def decisions(db) -> list:
    with Store.open(str(db)) as s:
        return s.review.history()


def test_a_csv_review_with_unknown_values_is_refused_whole(capsys, db, tmp_path):
    review = tmp_path / "review.csv"
    review.write_text(HEADER + "verdict,,a.txt,,,b.txt,,duplicate,t,,1000\n"  # a good one: not imported either
                      "verdict,,a.txt,,,c.txt,,Duplicate,t,,1000\n"
                      "verdict,,b.txt,,,c.txt,,not duplicate,t,,1000\n"
                      "keeper,,a.txt,,,,,yes,t,,1000\n"
                      "Keeper,,b.txt,,,,,keep,t,,1000\n")
    status, _, err = run(capsys, "decisions", "import", review, "--db", db)
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"ndd: error: {review}: 4 decisions of this review cannot be applied, so nothing was "
                          "imported: line 3: verdict value 'Duplicate'; line 4: verdict value 'not duplicate'; "
                          "line 5: keeper value 'yes'; line 6: unknown kind 'Keeper' (a verdict is duplicate or "
                          "not_duplicate, a keeper is keep"), err
    assert "correct the file and import it again" in err
    assert decisions(db) == []


def test_a_json_review_with_unknown_values_is_refused_whole(capsys, db, tmp_path):
    side = {"root": None, "xxh128": None}
    review = tmp_path / "review.json"
    review.write_text(json.dumps({"format": "ndd-desktop review", "version": 1, "settings": {}, "decisions": [
        {"kind": "keeper", "a": {**side, "path": "a.txt"}, "b": None, "value": "keep", "time": 1000},
        {"kind": "verdict", "a": {**side, "path": "a.txt"}, "b": {**side, "path": "b.txt"}, "value": True,
         "time": 1000}]}))
    status, _, err = run(capsys, "decisions", "import", review, "--db", db)
    assert status == 2
    assert "1 decision of this review cannot be applied, so nothing was imported: decision 2: verdict value True" \
        in err
    assert decisions(db) == []


def test_known_values_and_cleared_decisions_are_imported(capsys, db, tmp_path):
    review = tmp_path / "review.csv"
    review.write_text(HEADER + "verdict,,a.txt,,,b.txt,,not_duplicate,t,,1000\n"
                      "verdict,,a.txt,,,c.txt,,,t,,1000\n"
                      "keeper,,a.txt,,,,,keep,t,,1000\n")
    status, _, err = run(capsys, "decisions", "import", review, "--db", db)
    assert status == 0, err
    assert "imported 3 decisions" in err
    assert sorted(d.value for d in decisions(db)) == ["", "keep", "not_duplicate"]


def test_bad_settings_and_bad_values_are_named_together(capsys, db, tmp_path):
    """One refusal names every problem, not the settings first and the values at the next try."""
    review = tmp_path / "review.csv"
    review.write_text(HEADER + "keeper,,a.txt,,,,,yes,t,,1000\n"
                      'setting,,keeper_rule,,,,,"""bogus""",,,\n')
    status, _, err = run(capsys, "decisions", "import", review, "--db", db)
    assert status == 2 and err.count("\n") == 1
    assert "keeper_rule: 'bogus' is no keeper rule" in err and "line 2: keeper value 'yes'" in err
    with Store.open(str(db)) as s:
        assert s.settings.get("keeper_rule") is None
    assert decisions(db) == []
