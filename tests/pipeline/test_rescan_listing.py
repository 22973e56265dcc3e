"""An unchanged rescan is planned from the kept listing of the walk and keeps the stored
pair set by its kept input hash (``store.facts``); any change to what those rest on, made by
whatever program, sends the rescan back to reading every record."""

from __future__ import annotations

import os
import sqlite3

from pipehelp import make_corpus, pairs_by_path, scan, touch

from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.walk import walk, walk_files
from ndd_desktop.ingest.walked import WalkedFiles
from ndd_desktop.pipeline.plan import listing_of, make_plan
from ndd_desktop.store import Root


def _plan(store, folder, reread=None):
    errors = []
    walked = walk_files([str(folder)], on_error=errors.append)
    return make_plan(store.scans, walked, errors, reread=reread)


def _raw(path, sql: str, args=()) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute(sql, args)
    con.commit()
    con.close()


def _listing(entries, problems=()):
    return listing_of(WalkedFiles.of(entries), problems)


def test_the_listing_names_every_root_path_size_and_time():
    base = [FileEntry("/r", "a/b.txt", "/r/a/b.txt", 10, 100), FileEntry("/r", "c.txt", "/r/c.txt", 20, 200)]
    same = _listing(list(base))
    assert same == _listing(base) and (same.files, same.bytes, same.mtimes) == (2, 30, 300)
    others = [
        [base[0], FileEntry("/r", "c.txt", "/r/c.txt", 21, 200)],
        [base[0], FileEntry("/r", "c.txt", "/r/c.txt", 20, 201)],
        [base[0], FileEntry("/r", "d.txt", "/r/d.txt", 20, 200)],
        [base[0], FileEntry("/s", "c.txt", "/s/c.txt", 20, 200)],
        [FileEntry("/r/a", "b.txt", "/r/a/b.txt", 10, 100), base[1]],  # the same files under another root
        [base[1], base[0]],
        base[:1],
    ]
    assert len({same.digest} | {_listing(o).digest for o in others}) == len(others) + 1
    assert _listing([FileEntry("/r", "x", "/r/x", 1, -1)]).mtimes == 0xFFFFFFFF  # (as SQLite sums them)


def test_the_walk_into_columns_gives_the_walk_s_entries(tmp_path):
    make_corpus(tmp_path / "c" / "sub", n=3)
    make_corpus(tmp_path / "c", n=2, seed=5)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.txt").write_text("x")
    os.symlink(tmp_path / "c" / "sub", tmp_path / "c" / "linked")
    roots = [str(tmp_path / "c"), str(tmp_path / "d"), str(tmp_path / "d" / "x.txt")]
    for follow in (False, True):
        entries = list(walk(roots, follow_symlinks=follow))
        walked = walk_files(roots, follow_symlinks=follow)
        assert walked.entries() == entries and len(walked) == len(entries)
        assert WalkedFiles.of(entries).entries() == entries
    assert [(e.root, e.relpath) for e in entries][-1] == (str(tmp_path / "d"), "x.txt")
    assert [walked.path(k) for k in range(len(walked))] == [e.abspath for e in entries]
    kept = walk_files(roots).without({0, 2})
    assert kept.entries() == [e for k, e in enumerate(walk(roots)) if k not in (0, 2)]


def test_a_finished_scan_keeps_its_listing_and_the_next_plan_reads_no_record(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=9)
    scan(store, [tmp_path / "c"])
    plan = _plan(store, tmp_path / "c")
    assert plan.as_recorded and plan.unchanged_files == 9 and not plan.to_extract and not plan.missing_file_ids
    assert plan.files_walked == 0  # no file held
    # other reading options read every file again: the listing is not enough
    reread = {(str(tmp_path / "c"), "doc000.txt")}
    assert not _plan(store, tmp_path / "c", reread=reread).as_recorded
    before = pairs_by_path(store)
    calls["extract"], calls["sketch"] = 0, {}
    s = scan(store, [tmp_path / "c"])
    assert (s.new, s.changed, s.removed, s.unchanged, s.pairs) == (0, 0, 0, 9, len(before))
    assert calls["extract"] == 0 and calls["sketch"] == {} and pairs_by_path(store) == before


def test_a_walk_that_differs_is_planned_from_the_records(tmp_path, store, calls):
    files = make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"])
    touch(tmp_path / "c" / "doc000.txt")
    plan = _plan(store, tmp_path / "c")
    assert not plan.as_recorded and plan.touched and plan.unchanged_files == 6
    (tmp_path / "c" / "doc001.txt").write_text(files["doc001.txt"] + " and a new line")
    calls["extract"] = 0
    s = scan(store, [tmp_path / "c"])
    assert (s.changed, calls["extract"]) == (1, 1)
    assert _plan(store, tmp_path / "c").as_recorded  # kept again at the end of that scan


def test_a_record_changed_by_another_program_is_read_again(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"])
    _raw(store.path, "DELETE FROM files WHERE relpath = 'doc003.txt'")  # its document goes with it
    calls["extract"] = 0
    s = scan(store, [tmp_path / "c"])
    assert (s.new, calls["extract"], s.documents) == (1, 1, 6)


def test_what_the_walk_could_not_use_is_part_of_the_listing(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=4)
    os.symlink(tmp_path / "c" / "doc000.txt", tmp_path / "c" / "link.txt")
    os.mkfifo(tmp_path / "c" / "pipe")
    first = scan(store, [tmp_path / "c"])
    assert (first.documents, first.errors) == (4, 2)
    plan = _plan(store, tmp_path / "c")
    assert plan.as_recorded and plan.walk_errors == []  # recorded already: not written again
    calls["extract"] = 0
    s = scan(store, [tmp_path / "c"])
    assert (s.documents, s.errors, s.new, s.removed, calls["extract"]) == (4, 2, 0, 0, 0)
    assert sorted(d.relpath for d in store.documents.errors()) == ["link.txt", "pipe"]
    # one more link: the walk is not the kept one, and the link is recorded
    os.symlink(tmp_path / "c" / "doc001.txt", tmp_path / "c" / "link2.txt")
    assert not _plan(store, tmp_path / "c").as_recorded
    s = scan(store, [tmp_path / "c"])
    assert (s.documents, s.errors) == (4, 3) and _plan(store, tmp_path / "c").as_recorded
    (tmp_path / "c" / "pipe").unlink()
    s = scan(store, [tmp_path / "c"])
    assert (s.errors, s.removed) == (2, 1)


def test_a_listing_is_kept_only_when_every_walked_file_was_recorded(tmp_path, store):
    make_corpus(tmp_path / "c", n=3)
    entries = list(walk([str(tmp_path / "c")]))
    extra = FileEntry(str(tmp_path / "c"), "never-read.txt", str(tmp_path / "c" / "never-read.txt"), 5, 7)
    scan(store, [tmp_path / "c"])
    assert store.scans.keep_listing(_listing(entries))  # (kept by the scan already)
    assert not store.scans.keep_listing(_listing([*entries, extra]))
    assert not store.scans.keep_listing(_listing(entries[1:]))


def test_a_reference_flag_set_since_the_pairs_were_found_drops_them(tmp_path, store):
    make_corpus(tmp_path / "c", n=9)
    first = scan(store, [tmp_path / "c"])
    assert first.pairs > 0 and any(k.startswith("pairs:") for k in _facts(store))
    # the same folder as a reference: pairs of two reference documents are not kept
    s = scan(store, [Root(str(tmp_path / "c"), True)])
    assert s.pairs == 0 and pairs_by_path(store) == []


def test_a_sketch_lost_since_the_last_scan_is_made_again(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"], method="bottomk")
    doc = next(d for d in store.documents.all() if d.relpath == "doc002.txt")
    _raw(store.path, "DELETE FROM sketches WHERE doc_id = ?", (doc.id,))
    calls["sketch"] = {}
    scan(store, [tmp_path / "c"], method="bottomk")
    assert calls["sketch"] == {"bottomk": 1}
    con = sqlite3.connect(store.path)
    assert con.execute("SELECT COUNT(*) FROM sketches WHERE doc_id = ?", (doc.id,)).fetchone() == (1,)
    con.close()


def _facts(store) -> list[str]:
    con = sqlite3.connect(store.path)
    try:
        return [k for (k,) in con.execute("SELECT key FROM content_facts")]
    finally:
        con.close()


def test_a_folder_the_walk_cannot_list_keeps_its_documents(tmp_path, store, monkeypatch):
    # A permission taken away, a share that failed: the walk cannot list "closed", which
    # says nothing of the files in it. They were removed with their pairs, and came back
    # as new documents (new ids) once the folder could be read again.
    make_corpus(tmp_path / "c", n=6, kept=True)
    make_corpus(tmp_path / "c" / "closed", n=6, seed=0, kept=True)  # copies of the files above
    scan(store, [tmp_path / "c"])
    before = pairs_by_path(store)
    ids = {d.relpath: d.id for d in store.documents.all()}
    assert any("closed/" in a or "closed/" in b for a, b, _ in before)
    real_scandir, real_open = os.scandir, os.open

    def deny(p, *args, **kw):  # the tests run as root, whom no mode keeps out
        if not isinstance(p, int) and os.fspath(p).rstrip("/").endswith("closed"):
            raise PermissionError(13, "Permission denied")
        return (real_open(p, *args, **kw) if args else real_scandir(p))

    (tmp_path / "c" / "new.txt").write_text("a file the first scan did not see")
    monkeypatch.setattr(os, "scandir", deny)
    monkeypatch.setattr(os, "open", deny)
    summary = scan(store, [tmp_path / "c"])
    monkeypatch.undo()
    assert summary.removed == 0
    assert [(d.relpath, d.reason) for d in store.documents.errors()] == [
        ("closed", "unreadable folder: Permission denied")]
    assert pairs_by_path(store) == before
    summary = scan(store, [tmp_path / "c"])  # readable again: the same documents, unchanged
    assert {d.relpath: d.id for d in store.documents.all() if d.relpath != "new.txt"} == ids
    assert pairs_by_path(store) == before and store.documents.errors() == []


def test_a_file_whose_reader_could_not_be_imported_is_read_again(tmp_path, store):
    # a Dask worker without a reader's library failed the file "extractor failed:
    # ImportError ...", and no later scan read it again, the file being unchanged
    make_corpus(tmp_path / "c", n=3)
    scan(store, [tmp_path / "c"])
    doc = next(d for d in store.documents.all() if d.relpath == "doc001.txt")
    store.documents.fail_for_now({doc.id: "extractor failed: ImportError: No module named 'pypdfium2'"})
    plan = _plan(store, tmp_path / "c")
    assert [e.relpath for e in plan.to_extract] == ["doc001.txt"]
    scan(store, [tmp_path / "c"])
    assert store.documents.errors() == []
