"""A plain UTF-8 file's text is not stored again: the collection keeps a mark and reads the
file, with a check that it still holds what was scanned (store.originals)."""

from __future__ import annotations

import os
import sqlite3
import zipfile

import pytest
import xxhash
from cli_run import run
from pipehelp import make_corpus, pairs_by_path, scan, text_of, variant

from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.pipeline.worker_sketch import TEXT_ATTR, SketchingExtractor
from ndd_desktop.store import Root, Store
from ndd_desktop.store.originals import is_original

TEXT = "Minutes of the harbour board.\nThe north pier is to be mended before the winter storms.\n"


def stored(db) -> dict[str, bytes]:
    """relpath -> the bytes of its document_text row."""
    con = sqlite3.connect(db)
    try:
        return {rel: bytes(data) for rel, data in con.execute(
            "SELECT d.relpath, t.data FROM document_text t JOIN documents d ON d.id = t.doc_id")}
    finally:
        con.close()


def ids_by_path(store: Store) -> dict[str, int]:
    return {d.relpath: d.id for d in store.documents.all(status=None)}


def test_plain_utf8_files_are_marks_and_every_other_text_is_stored(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "plain.txt").write_text(TEXT, encoding="utf-8")
    (folder / "accents.txt").write_text("Le conseil a décidé: réparer la jetée.\n", encoding="utf-8")
    (folder / "bom.txt").write_text(TEXT, encoding="utf-8-sig")  # the text lacks the mark's bytes
    (folder / "latin.txt").write_bytes("Le conseil a décidé de réparer la jetée nord.\n".encode("cp1252"))
    (folder / "page.html").write_text(f"<html><body><p>{TEXT}</p></body></html>", encoding="utf-8")
    with zipfile.ZipFile(folder / "box.zip", "w") as z:  # a member has no file of its own
        z.writestr("inner.txt", TEXT)
    db = tmp_path / "c.ndd"
    with Store.open(db) as s:
        scan(s, [folder])
        ids = ids_by_path(s)
        texts = s.documents.texts(list(ids.values()))
        assert texts[ids["plain.txt"]] == TEXT
        assert texts[ids["accents.txt"]] == "Le conseil a décidé: réparer la jetée.\n"
        assert texts[ids["bom.txt"]] == TEXT
        assert texts[ids["latin.txt"]] == "Le conseil a décidé de réparer la jetée nord.\n"
        assert texts[ids["box.zip!inner.txt"]] == TEXT
        assert s.documents.text(ids["plain.txt"]) == TEXT
        assert s.documents.text_missing(ids["plain.txt"]) == ""
    rows = stored(db)
    assert rows["plain.txt"] == b"" and rows["accents.txt"] == b""
    for kept in ("bom.txt", "latin.txt", "page.html", "box.zip!inner.txt"):
        assert rows[kept].startswith(b"\x28\xb5\x2f\xfd"), kept  # a zstd frame


@pytest.mark.parametrize("change", ["same size", "longer", "deleted"])
def test_a_changed_or_missing_original_gives_no_text_and_says_why_until_a_rescan(tmp_path, change):
    folder = tmp_path / "docs"
    folder.mkdir()
    path = folder / "minutes.txt"
    path.write_text(TEXT, encoding="utf-8")
    db = tmp_path / "c.ndd"
    with Store.open(db) as s:
        scan(s, [folder])
        doc_id = ids_by_path(s)["minutes.txt"]
    new = {"same size": TEXT.replace("north", "south"), "longer": TEXT + "Agreed.\n", "deleted": None}[change]
    if new is None:
        path.unlink()
    else:
        path.write_text(new, encoding="utf-8")
    with Store.open(db) as s:
        assert s.documents.text(doc_id) is None
        assert s.documents.texts([doc_id]) == {}
        why = s.documents.text_missing(doc_id)
        assert str(path) in why and "rescan" in why
        assert ("no longer there" if change == "deleted" else "changed since the scan") in why
        if new is not None:
            scan(s, [folder])  # a rescan reads the file again: its text is the new one
            assert s.documents.text(ids_by_path(s)["minutes.txt"]) == new
            assert s.documents.text_missing(ids_by_path(s)["minutes.txt"]) == ""


def test_a_document_without_text_says_so(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "minutes.txt").write_text(TEXT, encoding="utf-8")
    with Store.open(tmp_path / "c.ndd") as s:
        scan(s, [folder])
        doc_id = ids_by_path(s)["minutes.txt"]
        with s._write() as conn:  # as a document whose extraction found no text
            conn.exec_driver_sql("DELETE FROM document_text WHERE doc_id = ?", (doc_id,))
        assert s.documents.text_missing(doc_id) == "no text was extracted from this document"


def test_a_moved_file_is_read_at_its_new_place(tmp_path):
    folder = tmp_path / "docs"
    make_corpus(folder, n=6)
    db = tmp_path / "c.ndd"
    with Store.open(db) as s:
        scan(s, [folder])
        before = pairs_by_path(s)
        moved_id = ids_by_path(s)["doc001.txt"]
        want = s.documents.text(moved_id)
    (folder / "sub").mkdir()
    os.rename(folder / "doc001.txt", folder / "sub" / "renamed.txt")
    with Store.open(db) as s:
        scan(s, [folder])
        assert ids_by_path(s)["sub/renamed.txt"] == moved_id  # the same document, moved
        assert s.documents.text(moved_id) == want
        assert len(pairs_by_path(s)) == len(before)


def test_the_workers_send_a_mark_for_an_original_and_no_text(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "plain.txt").write_text(TEXT, encoding="utf-8")
    (folder / "bom.txt").write_text(TEXT, encoding="utf-8-sig")
    names = ["plain.txt", "bom.txt"]
    results = []
    for name in names:
        st = (folder / name).stat()
        entry = FileEntry(str(folder), name, str(folder / name), st.st_size, st.st_mtime_ns)
        results.append(SketchingExtractor("minhash", ()).extract(entry, Limits()))
    SketchingExtractor("minhash", ()).finish(results)  # no dictionary yet
    (plain,), (bom,) = results
    assert getattr(plain, TEXT_ATTR) == b"" and plain.text is None
    assert getattr(bom, TEXT_ATTR, None) is None and bom.text == TEXT  # this process compresses it


def test_a_scan_with_workers_reads_every_text_back_and_finds_the_same_pairs(tmp_path):
    folder = tmp_path / "docs"
    texts = make_corpus(folder, n=40, dup_every=4)
    (folder / "bom.txt").write_text(text_of(999), encoding="utf-8-sig")
    texts["bom.txt"] = text_of(999)
    with Store.open(tmp_path / "ref.ndd") as ref:  # extraction in this process
        scan(ref, [folder])
        expected = pairs_by_path(ref)
    with Store.open(tmp_path / "pool.ndd") as s:
        ScanJob(s, ScanConfig([Root(str(folder))], "qgram", {}, 0.3, workers=1)).run()
        ids = ids_by_path(s)
        assert s.documents.texts(list(ids.values())) == {ids[n]: t for n, t in texts.items()}
        assert pairs_by_path(s) == expected
    rows = stored(tmp_path / "pool.ndd")
    assert sum(v == b"" for v in rows.values()) == 40 and rows["bom.txt"] != b""


def test_only_a_text_that_is_its_files_bytes_is_an_original():
    data = TEXT.encode("utf-8")
    h = xxhash.xxh3_128_hexdigest(data)
    assert is_original(TEXT, container=None, size=len(data), xxh128=h)
    assert not is_original(TEXT, container="box.zip", size=len(data), xxh128=h)
    assert not is_original(TEXT[:-1], container=None, size=len(data), xxh128=h)  # cut short
    assert not is_original(TEXT.replace("north", "south"), container=None, size=len(data), xxh128=h)
    assert not is_original(TEXT, container=None, size=len(data), xxh128="")  # bytes not hashed
    assert not is_original("a\ud800b", container=None, size=5, xxh128=h)  # not encodable


def test_repair_keeps_the_marks_and_the_texts_read_back(tmp_path, capsys):
    folder = tmp_path / "docs"
    texts = make_corpus(folder, n=8)
    db, fixed = tmp_path / "c.ndd", tmp_path / "fixed.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--workers", "0")[0] == 0
    status, _, err = run(capsys, "repair", "--db", db, "--to", fixed)
    assert status == 0, err
    assert "document_text  8 saved, 0 lost" in err
    with Store.open(fixed) as s:
        ids = ids_by_path(s)
        assert s.documents.texts(list(ids.values())) == {ids[n]: t for n, t in texts.items()}


def test_ndd_compare_says_which_side_has_no_text_and_why(tmp_path, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT, encoding="utf-8")
    (folder / "b.txt").write_text(TEXT + "Agreed by all.\n", encoding="utf-8")
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--workers", "0")[0] == 0
    status, out, err = run(capsys, "compare", "a.txt", "b.txt", "--db", db)
    assert status == 0 and "note" not in err and "1 shared passage" in out
    (folder / "b.txt").unlink()
    status, out, err = run(capsys, "compare", "a.txt", "b.txt", "--db", db)
    assert status == 0
    assert f"ndd: note: B has no text: its text is read from {folder / 'b.txt'}, and the file is no longer there" in err
    assert "A has no text" not in err and "0 shared passages" in out


@pytest.mark.parametrize("kept", [False, True], ids=["marks", "compressed"])
def test_a_rescan_with_workers_keeps_the_length_of_the_texts_they_send_on(tmp_path, kept):
    """The workers send a text on as a mark or compressed, without the text itself; the
    document still records how long its text is (the keeper rule "longest" and the groups'
    principals read it)."""
    folder = tmp_path / "docs"
    make_corpus(folder, n=200, kept=kept)  # enough text to train the dictionary on
    db = tmp_path / "c.ndd"
    config = ScanConfig([Root(str(folder))], "qgram", {}, 0.3, workers=1)
    with Store.open(db) as s:
        ScanJob(s, config).run()
        assert s.scans.text_dictionary() is not None or not kept
    changed = folder / "doc005.txt"
    text = changed.read_text(encoding="utf-8-sig") + " and one more sentence at the end.\n"
    changed.write_text(text, encoding="utf-8-sig" if kept else "utf-8")
    (folder / "new.txt").write_text(text_of(4242), encoding="utf-8-sig" if kept else "utf-8")
    with Store.open(db) as s:
        ScanJob(s, config).run()
        lengths = {d.relpath: d.text_length for d in s.documents.all()}
        assert lengths["doc005.txt"] == len(text) and lengths["new.txt"] == len(text_of(4242))
        rows = stored(db)
        assert (rows["new.txt"] == b"") is not kept  # the worker's way: a mark, or a frame


@pytest.mark.parametrize("method", ["qgram", "minhash"])
def test_a_text_its_file_no_longer_gives_is_an_error_and_read_again(tmp_path, method):
    # A file rewritten with other text of the same size, its time put back (or unreadable
    # for a moment): the scan's pair stage, which reads unchanged texts from their files
    # (qgram makes its sketches from them, every method verifies on them), got no text,
    # scored its pairs 0 and dropped them, and every later scan took the file as unchanged.
    folder = tmp_path / "docs"
    make_corpus(folder, n=9)
    a, b = folder / "doc004.txt", folder / "doc005.txt"  # doc005 is a near-duplicate of doc004
    db = tmp_path / "c.ndd"
    reported = []
    with Store.open(db) as s:
        scan(s, [folder], method=method)
        before = pairs_by_path(s, method)
        assert any(p[0].endswith("doc004.txt") and p[1].endswith("doc005.txt") for p in before)
        # a new file like b's old text: a candidate to verify on b's text
        (folder / "new.txt").write_text(variant(b.read_text(encoding="utf-8"), 77), encoding="utf-8")
        other = folder / "doc000.txt"  # b's new text: doc000's, cut or padded to b's size
        size, st = b.stat().st_size, b.stat()
        b.write_bytes((other.read_bytes() + b" " * size)[:size])
        os.utime(b, ns=(st.st_atime_ns, st.st_mtime_ns))
        summary = scan(s, [folder], method=method, on_error=reported.append)
        (failed,) = [d for d in s.documents.errors()]
        assert failed.relpath == "doc005.txt" and failed.status == "error"
        assert failed.reason.startswith("changed while being read: not compared: its text is read from")
        assert [d.relpath for d in reported] == ["doc005.txt"] and summary.errors == 1
        scan(s, [folder], method=method)  # read again: its new text pairs with doc000
        again = pairs_by_path(s, method)
        assert s.documents.errors() == []
    with Store.open(tmp_path / "fresh.ndd") as fresh:
        scan(fresh, [folder], method=method)
        assert again == pairs_by_path(fresh, method)
    assert any(p[0].endswith("doc000.txt") and p[1].endswith("doc005.txt") for p in again)
    assert a.exists()
