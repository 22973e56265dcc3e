"""The process pool: streams, bounds the work in flight, survives hangs and crashes."""

from __future__ import annotations

import os
import time

import ingest_hooks
from ingest_support import entry_for
from ndd_desktop.ingest import Limits, extract_many


def make_files(tmp_path, names):
    entries = []
    for name in names:
        path = tmp_path / name
        path.write_text(f"text of {name}")
        entries.append(entry_for(path, tmp_path))
    return entries


def by_path(results):
    return {d.relpath: d for docs in results for d in docs}


def test_pool_extracts_every_file(tmp_path):
    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(12)])
    docs = by_path(extract_many(entries, Limits(), workers=2))
    assert sorted(docs) == sorted(e.relpath for e in entries)
    assert all(d.status == "ok" and d.text == f"text of {d.relpath}" for d in docs.values())


def test_in_process_mode_gives_the_same_documents(tmp_path):
    entries = make_files(tmp_path, ["a.txt", "b.txt"])
    pooled = by_path(extract_many(entries, Limits(), workers=1))
    local = by_path(extract_many(entries, Limits(), workers=0))
    assert pooled == local


def test_hanging_file_times_out_and_the_scan_goes_on(tmp_path):
    entries = make_files(tmp_path, ["a.txt", "hang.txt", "b.txt", "c.txt"])
    start = time.monotonic()
    docs = by_path(extract_many(entries, Limits(timeout_s=1.0), workers=2,
                                extractor=ingest_hooks.misbehave))
    assert time.monotonic() - start < 20
    assert (docs["hang.txt"].status, docs["hang.txt"].reason) == ("error", "timed out after 1 s")
    assert all(docs[n].status == "ok" for n in ("a.txt", "b.txt", "c.txt"))


def test_real_pathological_file_times_out(tmp_path):
    path = tmp_path / "huge.html"
    path.write_bytes(b"<div><p>word</p>" * 400_000)
    [docs] = list(extract_many([entry_for(path)], Limits(timeout_s=0.3), workers=1))
    assert (docs[0].status, docs[0].reason) == ("error", "timed out after 0.3 s")


def test_crashing_worker_is_replaced(tmp_path):
    entries = make_files(tmp_path, ["a.txt", "crash.txt", "exit.txt", "b.txt", "c.txt", "d.txt"])
    docs = by_path(extract_many(entries, Limits(), workers=2, extractor=ingest_hooks.misbehave))
    assert (docs["crash.txt"].status, docs["crash.txt"].reason) == (
        "error", "extractor crashed (signal SIGKILL)")
    assert docs["exit.txt"].reason == "extractor crashed (exit code 3)"
    assert all(docs[n].status == "ok" for n in ("a.txt", "b.txt", "c.txt", "d.txt"))


def test_workers_that_die_before_any_file_stop_the_work_and_blame_no_file(tmp_path):
    """Workers that exit as they start (here: the extractor they are handed exits the
    process as it arrives) would otherwise fail every file one by one as "crashed"; after
    STARTUP_DEATHS of them in a row the pool stops with WorkersCannotStart, which names
    the exit code, and no file has come back."""
    import pytest

    from ndd_desktop.ingest.pool import STARTUP_DEATHS, WorkersCannotStart

    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(20)])
    came_back = []
    start = time.monotonic()
    with pytest.raises(WorkersCannotStart, match=r"before they read a file \(exit code 5\), 3 in a row"):
        for docs in extract_many(entries, Limits(), workers=2, extractor=ingest_hooks.DiesOnArrival()):
            came_back.extend(docs)
    assert STARTUP_DEATHS == 3 and came_back == []
    assert time.monotonic() - start < 30


def test_work_in_flight_is_bounded(tmp_path):
    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(20)])
    pulled = []

    def source():
        for e in entries:
            pulled.append(e)
            yield e

    results = extract_many(source(), Limits(), workers=2, extractor=ingest_hooks.slow)
    first = next(results)
    assert len(first) == 1
    assert len(pulled) <= 3  # two in the workers, at most one more waiting
    rest = list(results)
    assert len(rest) == 19


class Cancel:
    def __init__(self):
        self.cancelled = False


def test_cancel_stops_early(tmp_path):
    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(20)])
    cancel = Cancel()
    got = []
    for docs in extract_many(entries, Limits(), workers=2, cancel=cancel, extractor=ingest_hooks.slow):
        got.append(docs)
        if len(got) == 3:
            cancel.cancelled = True
    assert 3 <= len(got) < 20


def test_cancel_in_process(tmp_path):
    entries = make_files(tmp_path, ["a.txt", "b.txt"])
    cancel = Cancel()
    cancel.cancelled = True
    assert list(extract_many(entries, Limits(), workers=0, cancel=cancel)) == []


def test_a_crash_inside_a_chunk_takes_only_its_file(tmp_path):
    # enough quick files that the pool hands out chunks of many files, then crashes and a
    # hang among them: only those files fail, every other file of their chunks comes back
    names = [f"f{i:03d}.txt" for i in range(300)]
    names[150], names[220], names[260] = "crash.txt", "exit.txt", "hang.txt"
    entries = make_files(tmp_path, names)
    results = list(extract_many(entries, Limits(timeout_s=1.0), workers=2, extractor=ingest_hooks.misbehave))
    docs = by_path(results)
    assert len(results) == len(names) and sorted(docs) == sorted(names)
    assert docs["crash.txt"].reason == "extractor crashed (signal SIGKILL)"
    assert docs["exit.txt"].reason == "extractor crashed (exit code 3)"
    assert docs["hang.txt"].reason == "timed out after 1 s"
    assert all(d.status == "ok" for n, d in docs.items() if n not in ("crash.txt", "exit.txt", "hang.txt"))


def test_chunks_grow_on_quick_files(tmp_path, monkeypatch):
    from ndd_desktop.ingest import pool

    entries = make_files(tmp_path, [f"f{i:03d}.txt" for i in range(200)])
    sizes = []
    real_hand = pool._Worker.hand

    def hand(self, chunk):
        sizes.append(len(chunk))
        real_hand(self, chunk)

    monkeypatch.setattr(pool._Worker, "hand", hand)  # records the sizes, hands on as before
    assert len(list(extract_many(entries, Limits(), workers=1))) == 200
    assert sizes[0] == 1 and max(sizes) > 10


def test_the_workers_server_preloads_no_database_layer():
    """The server the scan's workers are forked from imports the readers and the scan's
    extractor, and not SQLAlchemy or the scan job (0.2 s before the first worker starts):
    the workers only extract, sketch and compress."""
    from fresh_python import fresh_python

    from ndd_desktop.cli.scan_start import SCAN_EXTRACTOR_MODULE
    from ndd_desktop.ingest.pool_server import server_preload

    modules = server_preload(SCAN_EXTRACTOR_MODULE)
    assert SCAN_EXTRACTOR_MODULE in modules and "ndd_desktop.ingest.formats.pdf" in modules
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in ('sqlalchemy', 'ndd_desktop.pipeline.job', 'ndd_desktop.store.store', 'numba')"
        " if m in sys.modules))\n"
    )
    assert fresh_python(script).strip() == "[]"


def test_a_pool_for_files_of_known_formats_preloads_their_readers_only():
    """A rescan's few changed files name their formats: the workers' server imports those
    readers (and trafilatura only with the web page reader), not all of them; a container
    or a name that says nothing brings them all, since the bytes decide."""
    from ndd_desktop.ingest.extract import READER_MODULES, likely_readers
    from ndd_desktop.ingest.pool_server import server_preload

    txt, html = "ndd_desktop.ingest.formats.txt", "ndd_desktop.ingest.formats.html"
    assert likely_readers(["a/notes.txt", "b/README.md", "c/table.CSV"]) == (txt,)
    assert likely_readers(["page.htm", "x.txt"]) == (html, txt)
    assert likely_readers([]) == ()
    for odd in ("box.zip", "mail.eml", "old.tar.gz", "no-extension", "scan.xyz"):
        assert likely_readers(["x.txt", odd]) == READER_MODULES, odd
    lean = server_preload("ndd_desktop.pipeline.worker_sketch", likely_readers(["a.txt"]))
    # the PDF reader always: PDFium's address space must be reserved before a worker's cap
    assert lean == ["ndd_desktop.ingest.extract", txt, "ndd_desktop.ingest.formats.pdf",
                    "ndd_desktop.pipeline.worker_sketch"]
    assert "trafilatura" in server_preload("ndd_desktop.pipeline.worker_sketch", likely_readers(["a.html"]))
    assert server_preload("ndd_desktop.pipeline.worker_sketch") == server_preload(
        "ndd_desktop.pipeline.worker_sketch", READER_MODULES)


def test_a_reader_the_server_did_not_preload_is_imported_by_the_worker(tmp_path):
    """Workers forked from a server that preloaded only the text reader (and the PDF
    reader, always) still read a web page that came along (a fresh process, so its server
    starts lean)."""
    from fresh_python import fresh_python
    from ingest_makers import make_pdf

    (tmp_path / "a.txt").write_text("plain words here", encoding="utf-8")
    (tmp_path / "b.html").write_text("<html><body><p>web words here</p></body></html>", encoding="utf-8")
    (tmp_path / "c.pdf").write_bytes(make_pdf(["pdf words here"]))
    script = (
        "import sys\n"
        "from ndd_desktop.ingest.pool import extract_many\n"
        "from ndd_desktop.ingest.walk import walk\n"
        "from ndd_desktop.ingest.extract import likely_readers\n"
        "if __name__ == '__main__':\n"
        f"    entries = sorted(walk([{str(tmp_path)!r}]), key=lambda e: e.relpath)\n"
        "    docs = [d for batch in extract_many(entries, workers=2, readers=likely_readers(['a.txt'])) for d in batch]\n"
        "    for d in sorted(docs, key=lambda d: d.relpath): print(d.relpath, d.status, (d.text or '').strip())\n"
        "    print(sorted(m for m in ('ndd_desktop.ingest.formats.pdf', 'trafilatura') if m in sys.modules))\n"
    )
    lines = fresh_python(script).strip().splitlines()
    assert lines[:3] == ["a.txt ok plain words here", "b.html ok web words here", "c.pdf ok pdf words here"]
    assert lines[3] == "[]"  # the scan's own process imported neither


def test_workers_run_as_far_below_the_scan_as_asked(tmp_path):
    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(6)])
    own = os.getpriority(os.PRIO_PROCESS, 0)
    lowered = by_path(extract_many(entries, Limits(worker_niceness=3), workers=2, extractor=ingest_hooks.tell_niceness))
    assert {d.reason for d in lowered.values()} == {str(min(own + 3, 19))}
    same = by_path(extract_many(entries, Limits(), workers=2, extractor=ingest_hooks.tell_niceness))
    assert {d.reason for d in same.values()} == {str(own)}


def test_workers_show_their_role_in_the_process_list_and_the_scan_keeps_its_name(tmp_path):
    entries = make_files(tmp_path, [f"f{i}.txt" for i in range(4)])
    with open("/proc/self/comm", encoding="utf-8") as fh:
        own = fh.read().strip()
    pooled = by_path(extract_many(entries, Limits(), workers=2, extractor=ingest_hooks.tell_process_name))
    assert {d.reason for d in pooled.values()} == {"ndd-worker"}
    here = by_path(extract_many(entries, Limits(), workers=0, extractor=ingest_hooks.tell_process_name))
    assert {d.reason for d in here.values()} == {own} != {"ndd-worker"}  # read in this process: not renamed
