"""The ``ndd`` command: driven through main() and once as a real subprocess."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import ndd_desktop
from ndd_desktop.core.methods import DEFAULT_METHOD
from ndd_desktop.store import Store
from cli_run import run

BASE = "the council met on tuesday to discuss the new bridge over the river and the budget for the harbour works"


@pytest.fixture
def corpus(tmp_path):
    """Folders with near-duplicates: a/one ~ a/two, a/one == ref/old; a/other is unrelated."""
    a, ref = tmp_path / "a", tmp_path / "ref"
    (a / "sub").mkdir(parents=True)
    ref.mkdir()
    (a / "one.txt").write_text(BASE + " in the spring.")
    (a / "sub" / "two.txt").write_text(BASE + " in the autumn.")
    (a / "other.txt").write_text("a recipe for apple pie with cinnamon, butter and a crisp lattice crust on top")
    (ref / "old.txt").write_text(BASE + " in the spring.")
    return tmp_path


def scanned(capsys, corpus, *extra):
    db = corpus / "c.ndd"
    status, out, err = run(capsys, "scan", corpus / "a", "--reference", corpus / "ref", "--db", db, *extra)
    assert status == 0, err
    return db


def test_version_and_help(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.strip() == f"ndd {ndd_desktop.__version__}"
    for cmd in ([], ["scan"], ["pairs"], ["clusters"], ["errors"], ["methods"], ["export"]):
        status, out, _ = run(capsys, *cmd, "--help")
        assert status == 0 and "usage: ndd" in out


def test_scan_is_quiet_when_piped_and_summarises(capsys, corpus):
    status, out, err = run(capsys, "scan", corpus / "a", "--db", corpus / "c.ndd")
    assert status == 0 and out == ""
    assert "\r" not in err  # no progress bar: stderr is not a terminal
    assert f"[{DEFAULT_METHOD}] in " in err
    assert "3 documents and 0 skipped or failed (3 new" in err


def test_pairs_csv_with_relative_paths_and_reference(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "qgram")
    status, out, _ = run(capsys, "pairs", "--db", db, "--threshold", "0.5")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[:3] == ["a", "b", "score"]
    pairs = {frozenset((r["a"], r["b"])): float(r["score"]) for r in rows}
    assert pairs[frozenset(("one.txt", "old.txt"))] == 1.0
    assert 0.5 <= pairs[frozenset(("one.txt", "sub/two.txt"))] < 1.0
    assert all("other.txt" not in p for p in pairs)
    assert {r["verdict"] for r in rows} == {""}
    # every score column to the same 6 decimals (containments used to print 17 digits)
    for r in rows:
        for column in ("score", "containment_ab", "containment_ba"):
            assert len(r[column].partition(".")[2]) <= 6, (column, r[column])


def test_pairs_json_default_method_and_threshold(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "exact")
    status, out, _ = run(capsys, "pairs", "--db", db, "--format", "json")
    assert status == 0
    data = json.loads(out)
    # which side is "a" follows document ids, which follow extraction order: compare as a set
    assert [({d["a"], d["b"]}, d["score"]) for d in data] == [({"one.txt", "old.txt"}, 1.0)]
    # the verified shares: each copy is wholly inside the other
    assert (data[0]["containment_ab"], data[0]["containment_ba"]) == (1.0, 1.0)


def test_method_alone_names_the_pairs_of_its_last_scan(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "qgram")
    scanned(capsys, corpus, "--method", "qgram", "--set", "q=3")
    scanned(capsys, corpus, "--method", "qgram")  # unchanged: its pair set is not renewed
    scanned(capsys, corpus, "--method", "exact")
    with Store.open(db) as s:
        q4 = next(ps for ps in s.pairs.sets() if ps.method == "qgram" and ps.params.get("q", 4) == 4)
        q3 = next(ps for ps in s.pairs.sets() if ps.method == "qgram" and ps.params.get("q") == 3)
        # the verified scores do not depend on q; the method's own estimates do
        expected = sorted(round(r.estimate, 6) for r in s.pairs.iter_rows("qgram", q4.pairs_key, 0.3))
        other = sorted(round(r.estimate, 6) for r in s.pairs.iter_rows("qgram", q3.pairs_key, 0.3))
        assert other != expected  # the two sets can be told apart
    _, out, _ = run(capsys, "pairs", "--db", db, "--method", "qgram", "--threshold", "0.3")
    assert sorted(float(r["estimate"]) for r in csv.DictReader(io.StringIO(out))) == expected


def test_pairs_are_read_in_pages(capsys, corpus, monkeypatch):
    from ndd_desktop.cli import commands

    db = scanned(capsys, corpus, "--method", "qgram")
    _, whole, _ = run(capsys, "pairs", "--db", db, "--threshold", "0.3")
    monkeypatch.setattr(commands, "PAGE", 1)
    _, paged, _ = run(capsys, "pairs", "--db", db, "--threshold", "0.3", "--format", "csv")
    assert paged == whole and whole.count("\n") >= 3


def test_pairs_show_decisions(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "exact")
    with Store.open(db) as s:
        (p,) = s.pairs.rows("exact", s.pairs.sets()[0].pairs_key, 0.0)
        s.review.set_verdict(p.a.id, p.b.id, "duplicate")
    _, out, _ = run(capsys, "pairs", "--db", db)
    assert list(csv.DictReader(io.StringIO(out)))[0]["verdict"] == "duplicate"


def test_clusters_csv_and_json(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "qgram")
    status, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.5")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["path"] for r in rows} == {"one.txt", "sub/two.txt", "old.txt"}
    assert [r["path"] for r in rows if r["keeper"] == "yes"] == ["old.txt"]  # reference first
    assert {r["group"] for r in rows} == {"1"}
    status, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.5", "--keeper-rule", "longest", "--format", "json")
    (group,) = json.loads(out)
    assert group["group"] == 1 and len(group["members"]) == 3
    assert sum(m["keeper"] for m in group["members"]) == 1


def test_clusters_give_dates_as_iso_8601_utc(capsys, corpus):
    stamp = 1_700_000_000  # 2023-11-14T22:13:20Z
    for path in (corpus / "a" / "one.txt", corpus / "a" / "sub" / "two.txt", corpus / "ref" / "old.txt"):
        os.utime(path, (stamp, stamp))
    db = scanned(capsys, corpus, "--method", "qgram")
    _, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.5")
    assert {r["date"] for r in csv.DictReader(io.StringIO(out))} == {"2023-11-14T22:13:20Z"}
    _, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.5", "--format", "json")
    (group,) = json.loads(out)
    assert {m["date"] for m in group["members"]} == {"2023-11-14T22:13:20Z"}
    assert {m["size"] for m in group["members"]} == {len(BASE) + len(" in the spring.")} | {len(BASE) + len(" in the autumn.")}


def test_clusters_show_a_chain_and_can_split_it(capsys, tmp_path):
    # Four documents made of distinct passages: A = P1 P2, S1 = P1 P2 P3, S2 = P2 P3 P4,
    # B = P3 P4. Neighbours share two of three passages (qgram ~0.67), A and B share nothing.
    import random

    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(400)]
    p = [" ".join(words[k * 100 : (k + 1) * 100]) for k in range(4)]
    folder = tmp_path / "chain"
    folder.mkdir()
    for name, parts in {"a.txt": (0, 1), "s1.txt": (0, 1, 2), "s2.txt": (1, 2, 3), "b.txt": (2, 3)}.items():
        (folder / name).write_text(" ".join(p[k] for k in parts))
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--method", "qgram")[0] == 0
    _, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.6")
    rows = list(csv.DictReader(io.StringIO(out)))
    roles = {r["path"]: r["role"] for r in rows}
    # one group around s1 or s2 (both have two neighbours); the far end is linked only through the other
    assert sorted(roles.values()) == ["chained", "member", "member", "principal"]
    far = "b.txt" if roles["s1.txt"] == "principal" else "a.txt"
    assert roles[far] == "chained" and {roles["s1.txt"], roles["s2.txt"]} == {"principal", "member"}
    _, out, _ = run(capsys, "clusters", "--db", db, "--threshold", "0.6", "--grouping", "principal", "--format", "json")
    (group,) = json.loads(out)  # the longest and its two neighbours; the far end stays alone
    assert len(group["members"]) == 3 and all(m["direct"] for m in group["members"])


def test_errors_lists_failed_files(capsys, corpus, monkeypatch):
    import ndd_desktop.ingest.pool as pool

    real = pool.extract_many

    def failing(entries, limits, **kw):
        for batch in real(entries, limits, **kw):
            for d in batch:
                if d.relpath == "other.txt":
                    d.status, d.reason, d.text = "skipped", "encrypted: no password", None
            yield batch

    monkeypatch.setattr(pool, "extract_many", failing)
    db = corpus / "c.ndd"
    status, _, err = run(capsys, "scan", corpus / "a", "--db", db)
    assert status == 0 and "skipped: other.txt: encrypted: no password" in err
    status, out, _ = run(capsys, "errors", "--db", db, "--all")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["path"], r["status"], r["reason"]) for r in rows] == [("other.txt", "skipped", "encrypted: no password")]
    status, out, _ = run(capsys, "errors", "--db", db, "--format", "json")
    assert json.loads(out)[0]["reason"] == "encrypted: no password"


def test_methods_lists_parameters(capsys):
    status, out, _ = run(capsys, "methods")
    assert status == 0
    assert f"{DEFAULT_METHOD} (default):" in out and "exact:" in out and "--set q=4" in out
    status, out, _ = run(capsys, "methods", "--format", "json")
    data = {m["name"]: m for m in json.loads(out)}
    assert data[DEFAULT_METHOD]["default"] is True
    q = next(p for p in data["qgram"]["parameters"] if p["name"] == "q")
    assert (q["default"], q["minimum"], q["maximum"]) == (4, 2, 8)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["scan", "{tmp}/missing", "--db", "{tmp}/c.ndd"], "no such folder"),
        (["scan", "{tmp}/a"], "required: --db"),
        (["scan", "{tmp}/a", "--db", "{tmp}/c.ndd", "--method", "nope"], "unknown method"),
        (["scan", "{tmp}/a", "--db", "{tmp}/c.ndd", "--set", "q=99"], "q"),
        (["scan", "{tmp}/a", "--db", "{tmp}/c.ndd", "--set", "q"], "KEY=VALUE"),
        (["scan", "{tmp}/a", "--db", "{tmp}/c.ndd", "--floor", "2"], "floor"),
        (["pairs", "--db", "{tmp}/nothing.ndd"], "no collection file"),
        (["pairs", "--db", "{tmp}/c.ndd", "--format", "xml"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
        ([], None),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, corpus, argv, message):
    status, out, err = run(capsys, *[a.format(tmp=corpus) for a in argv])
    assert status == 2
    if message is not None:
        assert err.startswith("ndd: error: ") and message in err and err.count("\n") == 1


def test_runtime_errors_exit_1(capsys, corpus):
    bad = corpus / "bad.ndd"
    bad.write_text("not a database")
    status, _, err = run(capsys, "pairs", "--db", bad)
    assert status == 1 and err.startswith("ndd: error: ") and "not an ndd-desktop collection" in err
    db = scanned(capsys, corpus)
    con = sqlite3.connect(db)
    con.execute("UPDATE alembic_version SET version_num = '0042'")
    con.commit()
    con.close()
    status, _, err = run(capsys, "pairs", "--db", db)
    assert status == 1 and "newer or another ndd-desktop (schema '0042'" in err and err.count("\n") == 1
    empty = corpus / "empty.ndd"
    Store.open(empty).close()
    status, _, err = run(capsys, "pairs", "--db", empty)
    assert status == 1 and "not been scanned" in err


def test_export_is_wired_to_the_export_package(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "exact")
    dest = corpus / "out"
    status, _, err = run(capsys, "export", "--db", db, "--to", dest, "--report", "csv")
    assert status == 0, err
    exported = sorted(str(p.relative_to(dest)) for p in dest.rglob("*.txt"))
    assert len(exported) == 3  # one.txt and old.txt are one document: one copy
    assert "; 1 document left out (_ndd_reports/left_out.csv)" in err  # the summary says so
    assert any(p.suffix == ".csv" for p in dest.rglob("*.csv"))
    status, _, err = run(capsys, "export", "--db", db, "--to", corpus / "out2", "--report", "pdf")
    assert status == 2 and "pdf" in err


def test_a_destination_the_export_cannot_use_is_refused_as_a_usage_error(capsys, corpus):
    """Refused before any file is copied, as the exit table says for such refusals (it exited 1)."""
    db = scanned(capsys, corpus, "--method", "exact")
    status, _, err = run(capsys, "export", "--db", db, "--to", corpus / "a" / "out")
    assert status == 2 and "lies inside the source folder" in err, err
    (corpus / "full").mkdir()
    (corpus / "full" / "x.txt").write_text("something else")
    status, _, err = run(capsys, "export", "--db", db, "--to", corpus / "full")
    assert status == 2 and "is not empty" in err, err


def test_an_export_below_the_stored_floor_is_a_usage_error(capsys, corpus):
    """A threshold no stored pair can answer is a bad argument, as for the other refusals
    (it exited 1, a failure at run time); nothing is written."""
    db = scanned(capsys, corpus)
    status, _, err = run(capsys, "export", "--db", db, "--to", corpus / "low", "--threshold", "0.05")
    assert status == 2 and "below the stored floor" in err, err
    assert not (corpus / "low").exists()


def test_a_finished_bag_exported_again_says_so(capsys, corpus):
    db = scanned(capsys, corpus, "--method", "exact")
    dest = corpus / "bag"
    status, _, err = run(capsys, "export", "--db", db, "--to", dest, "--bagit")
    assert status == 0 and "exported 3 of 3 files" in err, err
    status, _, err = run(capsys, "export", "--db", db, "--to", dest, "--bagit")
    assert status == 0 and "was already complete (3 files); validated again: valid" in err
    assert "exported 0 of" not in err


def test_real_subprocess(corpus):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(ndd_desktop.__file__).parents[1]), env.get("PYTHONPATH", "")])
    db = corpus / "c.ndd"
    cmd = [sys.executable, "-m", "ndd_desktop.cli"]
    r = subprocess.run([*cmd, "scan", str(corpus / "a"), "--db", str(db), "--method", "exact"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*cmd, "pairs", "--db", str(db), "--format", "json"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and json.loads(r.stdout) == []
    r = subprocess.run([*cmd, "pairs", "--db", str(corpus / "nope.ndd")], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 2 and r.stderr.startswith("ndd: error:")


def test_scan_and_pairs_say_when_low_scores_are_incomplete(capsys, corpus, request):
    db = scanned(capsys, corpus, "--method", "qgram")  # small: an exact join, no note
    status, _, err = run(capsys, "pairs", "--db", db, "--threshold", "0.4")
    assert status == 0 and "note" not in err
    # as on a large collection: exact joins too costly, qgram's bands designed for its default;
    # the word search completes them from the share 0.44 (pipeline.completion)
    request.getfixturevalue("banded_search")
    status, _, err = run(capsys, "scan", corpus / "a", "--db", corpus / "big.ndd", "--method", "qgram")
    assert status == 0 and "happened to find" not in err  # nothing missing at the default 0.5
    with Store.open(corpus / "big.ndd") as store:
        assert [ps.complete_from for ps in store.pairs.sets()] == [0.44]
    status, _, err = run(capsys, "pairs", "--db", corpus / "big.ndd", "--threshold", "0.4")
    assert status == 0 and "pairs below 0.44 are only those it happened to find" in err
    status, _, err = run(capsys, "pairs", "--db", corpus / "big.ndd", "--threshold", "0.8")
    assert status == 0 and "note" not in err


def test_scan_says_how_many_of_its_pairs_ndd_pairs_lists(capsys, tmp_path):
    """The scan keeps pairs down to the floor; its summary says how many of them reach the
    threshold that ``ndd pairs`` lists from, and down to which floor the others are kept."""
    import random

    rng = random.Random(4)
    vocab = [f"w{k:03d}" for k in range(600)]
    x = rng.sample(vocab, 60)
    y = x[:24] + rng.sample([w for w in vocab if w not in x], 36)  # 24 of 60 words in one run: 0.4
    z = x[:30] + ["changed"] + x[31:]  # one word of 60 changed: about 0.9
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, words in (("x.txt", x), ("y.txt", y), ("z.txt", z)):
        (folder / name).write_text(" ".join(words), encoding="utf-8")
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--method", "qgram", "--floor", "0.3")
    assert status == 0, err
    assert "3 pairs [qgram]" in err
    # x~z (one word changed) reaches 0.5; x~y and y~z share the same 24 words of 60 (0.4)
    assert "ndd: note: 1 of the 3 pairs score 0.5 or more" in err and "down to the floor 0.3 " in err
