"""``ndd folders`` and the pipeline's folder analysis on a real scanned tree."""

from __future__ import annotations

import csv
import io
import json

import pytest

from ndd_desktop.cli import main
from ndd_desktop.pipeline.folders import analyse_folders
from ndd_desktop.store import Store
from cli_run import run

WORDS = ("archive letter record council minutes river harbour school church parish budget meeting report "
         "survey census treaty estate garden railway station museum library charter deed merchant voyage").split()


def text(seed: int) -> str:
    import random

    rng = random.Random(seed)  # words of random letters: texts of other seeds share nothing
    return " ".join(rng.choice(WORDS) + "".join(rng.choice("abcdefgh") for _ in range(4))
                    for _ in range(150)) + "."


@pytest.fixture
def tree(tmp_path):
    """col/orig/{1,2,3}.txt (+ orig/sub/4.txt); col/copy holds near copies of all four;
    col/part holds a copy of 1 and 2 only; col/other is unrelated."""
    col = tmp_path / "col"
    for name in ("orig/sub", "copy/sub", "part", "other"):
        (col / name).mkdir(parents=True)
    for k in range(1, 4):
        (col / "orig" / f"{k}.txt").write_text(text(k))
        (col / "copy" / f"{k}.txt").write_text(text(k).replace("river", "RIVER", 1))
    (col / "orig" / "sub" / "4.txt").write_text(text(4))
    (col / "copy" / "sub" / "4.txt").write_text(text(4))  # exact copy
    (col / "part" / "1.txt").write_text(text(1))
    (col / "part" / "2.txt").write_text(text(2))
    (col / "other" / "x.txt").write_text(text(99))
    db = tmp_path / "c.ndd"
    assert main(["scan", str(col), "--db", str(db), "--workers", "0", "-q"]) == 0
    return col, db


def test_folders_csv_lists_copies_and_subsets(capsys, tree):
    col, db = tree
    status, out, err = run(capsys, "folders", "--db", db)
    assert status == 0, err
    rows = {(r["a"], r["b"]): r for r in csv.DictReader(io.StringIO(out))}
    orig, copy, part = str(col / "orig"), str(col / "copy"), str(col / "part")
    key = (orig, copy) if (orig, copy) in rows else (copy, orig)
    r = rows[key]
    assert (r["relation"], r["n_a"], r["n_b"], r["matched_a"], r["matched_b"]) == ("same", "4", "4", "4", "4")
    assert float(r["share_a"]) == 1.0
    # part (2 docs) lies wholly in orig (4 docs): a subset, and 2 of orig's 4 are in part
    key = (orig, part) if (orig, part) in rows else (part, orig)
    r = rows[key]
    shares = {key[0]: float(r["share_a"]), key[1]: float(r["share_b"])}
    assert shares == {orig: 0.5, part: 1.0}
    assert r["relation"] == ("b in a" if key[0] == orig else "a in b")
    # sub folders match at their own depth; no folder is paired with its own parent
    assert any(a.endswith("sub") and b.endswith("sub") for a, b in rows)
    assert not any(a == str(col) or b == str(col) for a, b in rows)
    assert not any(str(col / "other") in (a, b) for a, b in rows)


def test_folders_json_and_min_share(capsys, tree):
    col, db = tree
    status, out, _ = run(capsys, "folders", "--db", db, "--format", "json", "--min-share", "1")
    assert status == 0
    rows = json.loads(out)
    assert rows and all(max(r["share_a"], r["share_b"]) == 1.0 for r in rows)
    status, out, err = run(capsys, "folders", "--db", db, "--min-share", "2")
    assert status == 2 and "min-share" in err


def test_folders_needs_a_scan(capsys, tmp_path):
    status, _, err = run(capsys, "folders", "--db", tmp_path / "none.ndd")
    assert status == 2 and "no collection" in err


def test_alignment_side_by_side(tree):
    col, db = tree
    with Store.open(db) as store:
        method, params = store.scans.last_method()
        from ndd_desktop.core.methods import get_method

        m = get_method(method)
        key = m.pairs_key(m.params(params))
        analysis = analyse_folders(store, method, key, 0.5, 0.8)
    idx = {f.abspath: k for k, f in enumerate(analysis.folders)}
    rows = analysis.align(idx[str(col / "orig")], idx[str(col / "part")])
    pairs = {(a.relpath if a else None, b.relpath if b else None) for a, b, _ in rows}
    assert pairs == {("orig/1.txt", "part/1.txt"), ("orig/2.txt", "part/2.txt"), ("orig/3.txt", None),
                     ("orig/sub/4.txt", None)}
