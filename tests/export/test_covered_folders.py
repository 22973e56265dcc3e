"""Export with --leave-out-covered-folders: a folder covered by another goes out whole."""

from __future__ import annotations

import os
import random

from export_support import scan

from ndd_desktop.export import ExportOptions
from ndd_desktop.export.plan import plan_export
from ndd_desktop.store import Store


def text(seed: int) -> str:
    rng = random.Random(seed)
    return " ".join("".join(rng.choice("abcdefghijklmnop") for _ in range(5)) for _ in range(200)) + "\n"


def put(path, body: str, mtime: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    os.utime(path, (mtime, mtime))


def make(tmp_path):
    """orig/{1,2,3} and copy/{1,2,3} (near copies; the oldest of each pair alternates,
    so the keepers are split between the folders), part/ holds a copy of 1 and a unique
    file, other/ is unrelated."""
    root = tmp_path / "src"
    for k in (1, 2, 3):
        old, new = (1_000_000, 2_000_000) if k % 2 else (2_000_000, 1_000_000)
        put(root / "orig" / f"{k}.txt", text(k), old)
        put(root / "copy" / f"{k}.txt", text(k).replace(" ", "  ", 1), new)
    put(root / "part" / "1.txt", text(1), 3_000_000)
    put(root / "part" / "y.txt", text(50), 3_000_000)
    put(root / "other" / "x.txt", text(99), 3_000_000)
    store = Store.open(str(tmp_path / "c.sqlite"))
    scan(store, [str(root)], "qgram")
    return store, root


def exported_paths(plan) -> set[str]:
    return {f.target.split("/", 1)[1] for f in plan.files}


def test_off_by_default_keeps_split_keepers(tmp_path):
    store, root = make(tmp_path)
    with store:
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), keeper_rule="oldest"))
    got = exported_paths(plan)
    assert {"orig/1.txt", "copy/2.txt", "orig/3.txt"} <= got  # the oldest of each group
    assert "copy/1.txt" not in got and "orig/2.txt" not in got


def test_covered_folder_left_out_whole_with_reason(tmp_path):
    store, root = make(tmp_path)
    with store:
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), keeper_rule="oldest",
                                                leave_out_covered_folders=True))
    got = exported_paths(plan)
    # one of orig/copy goes out whole, the other is exported whole: the content of 1, 2, 3 once
    kept = "copy" if any(p.startswith("copy/") for p in got if p != "copy") else "orig"
    gone = "orig" if kept == "copy" else "copy"
    assert {f"{kept}/1.txt", f"{kept}/2.txt", f"{kept}/3.txt"} <= got
    assert not any(p.startswith(gone + "/") for p in got)
    assert {"part/y.txt", "other/x.txt"} <= got  # part is not covered: y.txt is unique
    rows = {r.relpath: r for r in plan.rows}
    for k in (1, 2, 3):
        assert f"{gone} is covered by" in rows[f"{gone}/{k}.txt"].note
    from ndd_desktop.export.report_data import ReportContext

    ctx = ReportContext(plan, {})
    notes = {r["path"].split("/", 1)[1]: r["note"] for r in (ctx.left_out_record(x) for x in plan.left_out_rows)}
    assert all(f"{gone} is covered by" in notes[f"{gone}/{k}.txt"] for k in (1, 2, 3))  # left_out.csv says why
    put_back = [r for r in plan.rows if r.note.startswith("exported in place")]
    assert put_back and all(r.relpath.startswith(kept + "/") for r in put_back)
    assert all(r.target for r in put_back)
    # every content once: each group has exactly one exported member
    for g in plan.groups:
        exported = [m for m in g.members if plan.row(m).target and m not in plan.left_out]
        assert len(exported) >= 1, g


def test_the_reports_name_what_the_export_holds_after_a_folder_goes(tmp_path):
    """A keeper of the covered folder was still reported as a keeper "not exported", a copy
    put back as "unique" duplicating it, and duplicates named it as what they duplicate."""
    store, root = make(tmp_path)
    with store:
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), keeper_rule="oldest",
                                                leave_out_covered_folders=True))
    exported = {r.path for r in plan.rows if r.target and r.doc_id not in plan.left_out}
    rows = {r.relpath: r for r in plan.rows}
    gone = "orig" if not any(p.startswith("src/orig/") for p in exported) else "copy"
    kept = "copy" if gone == "orig" else "orig"
    for k in (1, 2, 3):
        out, back = rows[f"{gone}/{k}.txt"], rows[f"{kept}/{k}.txt"]
        assert (out.role, out.duplicate_of) == ("duplicate", f"src/{kept}/{k}.txt")
        assert out.duplicate_score == 1.0  # the match's stored score (the reports left it blank)
        assert back.role == "keeper" and back.duplicate_of == "" and back.path in exported
    for r in plan.rows:  # no report names a document the export left out as the one kept
        if r.doc_id in plan.left_out:
            assert r.duplicate_of in exported, r
        if r.keeper_path:
            assert r.keeper_path in exported, r
            if r.score_to_keeper is not None:  # the score with the keeper named, not the one gone
                kept_id = next(x.doc_id for x in plan.rows if x.path == r.keeper_path)
                assert r.score_to_keeper == _score(store, r.doc_id, kept_id), r
        if r.role == "keeper":
            assert r.path in exported, r


def _score(store, x: int, y: int) -> float | None:
    with store:
        pa = store.pairs.arrays("qgram", store.pairs.sets()[0].pairs_key)
    found = [float(s) for a, b, s in zip(pa.a, pa.b, pa.score) if {int(a), int(b)} == {x, y}]
    return found[0] if found else None


def test_a_duplicate_elsewhere_is_exported_when_its_kept_document_goes_with_its_folder(tmp_path):
    """F/k.txt (oldest: its group's keeper) covers A/k2.txt and H/m.txt, which share only
    two fifths with each other. F is covered by A (k2 and an exact f2), so F goes and k2
    takes k's place; m, which k held, is in nothing exported then and goes out itself (it
    was left out, named as k2's duplicate with no score)."""
    s = [text(200 + k) for k in range(16)]
    root = tmp_path / "src"
    put(root / "F" / "k.txt", "".join(s[0:10]), 1_000_000)
    put(root / "F" / "f2.txt", text(300), 1_000_000)
    put(root / "A" / "k2.txt", "".join(s[0:7] + s[10:13]), 2_000_000)
    put(root / "A" / "f2.txt", text(300), 2_000_000)
    put(root / "H" / "m.txt", "".join(s[3:10] + s[13:16]), 3_000_000)
    store = Store.open(str(tmp_path / "c.sqlite"))
    scan(store, [str(root)], "qgram")
    with store:
        plain = plan_export(store, ExportOptions(dest=str(tmp_path / "plain"), keeper_rule="oldest"))
        assert exported_paths(plain) == {"F/k.txt", "F/f2.txt"}  # k holds k2 and m
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), keeper_rule="oldest",
                                                leave_out_covered_folders=True))
    got = exported_paths(plan)
    assert "F/k.txt" not in got and "A/k2.txt" in got
    assert "H/m.txt" in got
    row = next(r for r in plan.rows if r.path.endswith("H/m.txt"))
    assert row.note.startswith("exported: the document it duplicates was left out (folder ")


def test_a_folder_of_letters_never_stands_in_for_the_reports_that_quote_them(tmp_path):
    """letters/ holds 3 letters, reports/ 3 reports of which each quotes one letter whole
    (a fifth of it). With containment every letter and its report match, so each folder
    "covers" the other, and the export left out the larger one, reports/: four fifths of
    every report in no exported file. A match stands in for a document of a covered folder
    only as a group's kept document would (half of it found there)."""
    root = tmp_path / "src"
    for k in (1, 2, 3):
        letter = text(10 + k)
        put(root / "letters" / f"letter{k}.txt", letter, 1_000_000)
        own = "".join(text(20 + 4 * k + j) for j in range(4))
        put(root / "reports" / f"report{k}.txt", own[: len(own) // 2] + letter + own[len(own) // 2:], 2_000_000)
    store = Store.open(str(tmp_path / "c.sqlite"))
    with store:
        scan(store, [str(root)], "qgram", params={"measure": "containment"})
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), keeper_rule="oldest",
                                                leave_out_covered_folders=True))
    got = exported_paths(plan)
    assert {"reports/report1.txt", "reports/report2.txt", "reports/report3.txt"} <= got
    assert not any(p.startswith("letters/") for p in got)  # each letter is held by its report
