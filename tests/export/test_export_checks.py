"""What an export says about the documents it leaves out when something changed after the
scan, and what a rerun takes as already there: through a real scan, real files."""

from __future__ import annotations

import csv
import hashlib
import json
import os

import pytest
from export_support import doc_id

from ndd_desktop.export import (
    DestinationRefused,
    ExportOptions,
    plan_export,
    run_export,
)
from ndd_desktop.export.report_data import NOT_COVERED


def read_csv(path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def sha(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _a_group(store, tmp_path):
    """The keeper of the group {a, a-copy, a-again} of an exact export, and its left-out members."""
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "probe"), method="exact"))
    ids = [doc_id(store, n) for n in ("letters/a.txt", "a-copy.txt", "a-again.txt")]
    keeper = [i for i in ids if plan.row(i).role == "keeper"]
    left = [i for i in ids if plan.row(i).role == "duplicate"]
    assert len(keeper) == 1 and len(left) == 2
    return plan, keeper[0], left


@pytest.mark.parametrize("change", ["new text", "touched", "removed"])
def test_a_left_out_file_that_changed_since_the_scan_fails_the_export(scanned, tmp_path, change):
    """Its new text would be in no exported file, and left_out.csv would still call it a
    duplicate: a deletion workflow would lose it (the export said: complete, exit 0)."""
    store, _ = scanned
    plan, _keeper, left = _a_group(store, tmp_path)
    source = plan.row(left[0]).source
    if change == "new text":
        with open(source, "a", encoding="utf-8") as fh:
            fh.write("a paragraph written after the scan, found in no other file\n")
    elif change == "touched":  # same bytes, same size: the time alone tells
        st = os.stat(source)
        os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    else:
        os.remove(source)
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert not result.ok and result.left_out_changed == 1 and result.copy_failures == 0
    (failure,) = result.failed
    assert failure.source == source and "rescan first" in failure.reason
    assert "left out as a duplicate, but" in failure.reason
    assert "rescan (ndd scan), then export to a new folder" in result.advice
    shown = plan.row(left[0]).path
    row = next(r for r in read_csv(dest / "_ndd_reports" / "left_out.csv") if r["path"] == shown)
    assert row["note"].startswith("left out as a duplicate, but") and "rescan first" in row["note"]
    doc = next(r for r in read_csv(dest / "_ndd_reports" / "documents.csv") if r["path"] == shown)
    assert doc["export_status"].startswith("failed: left out as a duplicate, but")
    other = next(r for r in read_csv(dest / "_ndd_reports" / "documents.csv") if r["path"] == plan.row(left[1]).path)
    assert other["export_status"] == "left out"  # the unchanged one is as it was
    summary = json.loads((dest / "_ndd_reports" / "documents.json").read_text(encoding="utf-8"))["summary"]
    assert summary["left_out_changed"] == 1
    html = (dest / "_ndd_reports" / "report.html").read_text(encoding="utf-8")
    assert "failed: left out as a duplicate, but" in html


def test_an_unchanged_collection_checks_its_left_out_files_and_succeeds(scanned, tmp_path):
    store, _ = scanned
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
    assert result.ok and result.left_out_changed == 0 and not result.advice
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "o2"), method="exact"))
    assert sorted(i for s in plan.left_out_sources for i in s.doc_ids) == sorted(plan.left_out)


def test_the_duplicates_of_a_kept_document_that_failed_say_so(scanned, tmp_path):
    """Its duplicates were reported as covered by it, with an empty note, while no
    exported file held their text."""
    store, _ = scanned
    plan, keeper, left = _a_group(store, tmp_path)
    source = plan.row(keeper).source
    with open(source, encoding="utf-8") as fh:
        text = fh.read()
    with open(source, "w", encoding="utf-8") as fh:  # its copy fails: changed since the scan
        fh.write(text.replace("a", "o"))
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert not result.ok and result.copy_failures == 1 and result.not_covered == 2
    kept = plan.row(keeper).path
    rows = {r["path"]: r for r in read_csv(dest / "_ndd_reports" / "left_out.csv")}
    docs = {r["path"]: r for r in read_csv(dest / "_ndd_reports" / "documents.csv")}
    for i in left:
        path = plan.row(i).path
        assert rows[path]["duplicate_of"] == kept
        assert rows[path]["note"].startswith(f"check before deleting the original: the document it duplicates, "
                                             f"{kept}, was not exported (changed since the scan")
        assert docs[path]["export_status"] == NOT_COVERED
    body = json.loads((dest / "_ndd_reports" / "documents.json").read_text(encoding="utf-8"))
    assert body["summary"]["left_out_not_covered"] == 2
    html = (dest / "_ndd_reports" / "report.html").read_text(encoding="utf-8")
    assert f"{NOT_COVERED}; changed since the scan" in html
    assert "Left out, but the document they duplicate was not exported</th><td>2<" in html


def test_a_rerun_copies_again_a_copy_damaged_in_place(scanned, tmp_path):
    """Same size, other bytes: the rerun took it as already there, and the reports' SHA-256
    no longer matched the file in DEST."""
    store, coll = scanned
    dest = tmp_path / "out"
    opts = ExportOptions(dest=str(dest), method="exact")
    assert run_export(store, opts).ok
    copy = dest / "archive" / "notes" / "c.txt"
    data = bytearray(copy.read_bytes())
    data[:5] = b"XXXXX"
    copy.write_bytes(bytes(data))
    result = run_export(store, opts)
    assert result.ok and result.copied == 1 and result.skipped == 4
    assert sha(copy) == sha(coll.root1 / "notes" / "c.txt")
    assert os.stat(copy).st_mtime_ns == os.stat(coll.root1 / "notes" / "c.txt").st_mtime_ns


def test_a_reviewers_duplicate_on_unrelated_texts_says_how_little_is_kept(scanned, tmp_path):
    """The share was known (worked out from the texts for the join) yet the column was
    empty; the groups still decide (docs/export.md), the row warns."""
    store, _ = scanned
    c, e = doc_id(store, "notes/c.txt"), doc_id(store, "e.txt")
    store.review.set_verdict(c, e, "duplicate", reviewer="ann")
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", threshold=0.8))
    (gone,) = [i for i in (c, e) if plan.row(i).role == "duplicate"]
    row = plan.row(gone)
    assert row.found_in_duplicate_of is not None and row.found_in_duplicate_of < 0.1
    assert row.note.startswith("check before deleting the original: only ")
    assert f"of its text is found in {row.duplicate_of}, the document it is left out for" in row.note
    near = [r for r in plan.rows if r.role == "duplicate" and r.doc_id != gone]
    assert near and not any("only" in r.note for r in near)  # true near duplicates: no warning


def test_a_destination_that_cannot_be_created_is_refused_clearly(scanned, tmp_path):
    """It said only "[Errno 2] No such file or directory" (``--to /proc/x``)."""
    store, _ = scanned
    (tmp_path / "afile").write_text("x")
    dest = tmp_path / "afile" / "out"
    with pytest.raises(DestinationRefused, match="cannot create the destination folder .*choose a folder"):
        run_export(store, ExportOptions(dest=str(dest), method="exact"))


def test_a_destination_left_by_an_export_killed_while_bagging_is_named_so(scanned, tmp_path):
    # bagit moves the payload into data/ after the journal is set aside: a kill then left
    # data/ alone, and the rerun said "not empty and holds no unfinished export"
    store, _ = scanned
    dest = tmp_path / "out"
    (dest / "data" / "c1").mkdir(parents=True)
    (dest / "data" / "c1" / "a.txt").write_text("a copy")
    with pytest.raises(DestinationRefused, match="interrupted while it was being bagged, which left its files "
                                                 "in data/.*the originals are never in it"):
        run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True))


def test_a_hash_mismatch_says_to_rescan(scanned, tmp_path):
    store, coll = scanned
    c = coll.root1 / "notes" / "c.txt"
    c.write_text(c.read_text().replace("a", "o"))  # same size, other bytes
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
    (failure,) = result.failed
    assert "SHA-256 differs" in failure.reason and failure.reason.endswith("rescan first")
