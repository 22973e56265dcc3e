"""The scan summary and ``ndd errors`` count skipped files by reason; --all lists them."""

from __future__ import annotations

import csv
import gzip
import io
import os
import sys
from pathlib import Path

from cli_run import run

sys.path.insert(0, str(Path(__file__).parents[1] / "ingest"))  # the test file builders


def make_folder(root):
    root.mkdir()
    for i in range(12):
        (root / f"blob{i:02}.dat").write_bytes(b"\x00\x01\x02" + os.urandom(3000))
    (root / "empty1.txt").write_bytes(b"")
    (root / "empty2.md").write_bytes(b"")
    (root / "manual.1.gz").write_bytes(gzip.compress(b".TH LS 1\nls lists the contents of a folder\n"))
    (root / "note.txt").write_text("a note that is read as text")
    return root


def test_scan_summary_and_errors_are_grouped(capsys, tmp_path):
    folder = make_folder(tmp_path / "box")
    db = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert status == 0
    lines = err.splitlines()
    assert "14 files skipped or failed in this scan, by reason:" in lines
    assert "  12 skipped: binary content (not text) (.dat)" in lines
    assert "   2 skipped: empty file (.md 1, .txt 1)" in lines
    assert f"full list: ndd errors --db {db} --all" in lines
    assert not any("blob03.dat" in line for line in lines)  # no line per file

    status, out, _ = run(capsys, "errors", "--db", db)
    assert status == 0
    assert out.splitlines() == ["  12 skipped: binary content (not text) (.dat)",
                                "   2 skipped: empty file (.md 1, .txt 1)",
                                "14 files skipped or failed (every file: --all)"]
    status, out, _ = run(capsys, "errors", "--db", db, "--all")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 14 and {r["path"] for r in rows} >= {"blob00.dat", "empty2.md"}


def test_ocr_off_lists_pictures_as_skipped(capsys, tmp_path):
    from ingest_makers import image_bytes, text_image  # noqa: PLC0415

    folder = tmp_path / "scans"
    folder.mkdir()
    (folder / "page.png").write_bytes(image_bytes(text_image(["A scanned page of minutes"]), "PNG"))
    (folder / "note.txt").write_text("typed note")
    db = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0", "--ocr", "off")
    assert status == 0 and "skipped: page.png: picture: OCR is off (ndd scan --ocr auto)" in err
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "d.ndd", "--workers", "0")
    assert status == 0 and "page.png" not in err and "2 documents and 0 skipped or failed" in err


def test_a_file_that_needed_a_program_is_read_once_it_is_installed(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "minutes.doc").write_bytes((Path(__file__).parents[1] / "ingest" / "data" / "legacy.doc").read_bytes())
    db = tmp_path / "c.ndd"
    real_path = os.environ["PATH"]
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))  # antiword not installed
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert status == 0 and "error: minutes.doc: needs antiword" in err
    monkeypatch.setenv("PATH", real_path)  # ... and now it is: the unchanged file is read again
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert status == 0 and "1 document and 0 skipped or failed" in err


def test_xml_an_earlier_version_called_corrupt_is_read_again(capsys, tmp_path):
    import sqlite3

    folder = tmp_path / "sgml"
    folder.mkdir()
    (folder / "report.sgml").write_bytes(b"<!DOCTYPE report>\n<report><para>Boxes moved to the new store\n")
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--workers", "0")[0] == 0
    with sqlite3.connect(db) as con:  # the record an earlier version left
        con.execute("UPDATE documents SET status = 'error', reason = 'corrupt XML: mismatched tag'")
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert status == 0 and "1 document and 0 skipped or failed" in err


def test_documents_read_only_in_part_are_listed_apart(capsys, tmp_path):
    """A text cut at the size limit was read, but the rest of it was never compared: the
    user learns it from ``ndd errors`` (and the window's Errors tab) as "partial"."""
    from ndd_desktop.ingest import Limits
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.store import Root, Store

    folder = make_folder(tmp_path / "box")
    (folder / "long.txt").write_text("the minutes of the harbour board, page after page. " * 40)
    db = tmp_path / "c.ndd"
    store = Store.open(str(db))
    ScanJob(store, ScanConfig(roots=[Root(str(folder))], method="exact", workers=0,
                              limits=Limits(max_text_chars=500))).run()
    assert [d.relpath for d in store.documents.errors() if d.relpath.endswith(".txt")] == ["empty1.txt"]
    store.close()
    status, out, _ = run(capsys, "errors", "--db", db)
    assert status == 0
    assert "   1 partial: text truncated to 500 characters (.txt)" in out.splitlines()
    assert out.splitlines()[-1] == ("14 files skipped or failed, 1 read only in part (the rest of their content "
                                    "was not compared) (every file: --all)")
    status, out, _ = run(capsys, "errors", "--db", db, "--all")
    rows = {r["path"]: r for r in csv.DictReader(io.StringIO(out))}
    assert len(rows) == 15 and rows["long.txt"]["status"] == "partial"


def test_failures_say_what_to_do_about_them(capsys, tmp_path):
    """The reasons pass on a library's words ("File is not a zip file"): they said what
    broke, never what the user could do."""
    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "broken.docx").write_bytes(b"PK\x03\x04" + os.urandom(500))
    (folder / "fine.txt").write_text("a note that is read as text")
    db = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert status == 0
    lines = err.splitlines()
    assert any(line.startswith("error: broken.docx: corrupt") for line in lines)
    assert "what to do: damaged or not what its name says: open it in its own program to see; a copy from " \
           "where it came from may be whole" in lines
    status, out, _ = run(capsys, "errors", "--db", db)
    assert out.splitlines()[1].strip().startswith("what to do: damaged or not what its name says")
    assert out.splitlines()[-1] == "1 file skipped or failed (every file: --all)"
