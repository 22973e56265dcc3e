"""Cancel and crash safety: a scan stopped at any point resumes to the same result."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from pipehelp import make_corpus, pairs_by_path, scan

import ndd_desktop
from ndd_desktop.pipeline import CancelToken, ScanCancelled
from ndd_desktop.pipeline import ProgressMeter, extract_stage
from ndd_desktop.pipeline import job as job_module
from ndd_desktop.store import Store

# The child: a scan with tiny batches, slowed down per file so the parent can kill it
# mid-way; at the kill point named by argv[3] it writes a marker file and waits.
CHILD = textwrap.dedent(
    """
    import os, sys, time
    import ndd_desktop.ingest.pool as pool
    from ndd_desktop.pipeline import ScanConfig, ScanJob, extract_stage
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.store import Root, Store, scanwrite

    db, folder, point, marker = sys.argv[1:5]
    extract_stage.BATCH_DOCS = 5

    def hold():
        open(marker, "w").close()
        time.sleep(600)

    real_many = pool.extract_many
    def slow_many(entries, limits, **kw):
        for batch in real_many(entries, limits, **kw):
            time.sleep(0.02)
            yield batch
    pool.extract_many = slow_many

    if point == "in-transaction":
        calls = [0]
        real_encode = scanwrite.encode_texts
        def encode(*a, **k):
            calls[0] += 1
            if calls[0] == 5:   # the fifth batch's write transaction, its documents written
                hold()
            return real_encode(*a, **k)
        scanwrite.encode_texts = encode
    if point == "pairs":
        m = get_method("qgram")
        real_find = m.find_pairs
        def find(*a, **k):
            hold()
        m.find_pairs = find
    if point == "store":
        from ndd_desktop.store.pairs import Pairs
        real_replace = Pairs.replace
        def replace(self, *a, **k):
            hold()
        Pairs.replace = replace

    if __name__ == "__main__":  # the extraction pool may start workers by spawning
        store = Store.open(db)
        ScanJob(store, ScanConfig([Root(folder)], "qgram", {}, 0.3, workers=1)).run()
    """
)


def _documents_in(db: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _run_and_kill(tmp_path: Path, db: Path, folder: Path, point: str) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    marker = tmp_path / f"marker-{point}"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(ndd_desktop.__file__).parents[1]), env.get("PYTHONPATH", "")])
    proc = subprocess.Popen([sys.executable, str(script), str(db), str(folder), point, str(marker)], env=env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if point == "extract" and _documents_in(db) >= 40:  # 30 from the first scan
                break
            if marker.exists():
                break
            assert proc.poll() is None, f"the child scan ended (status {proc.returncode}) before the kill point"
            time.sleep(0.01)
        else:
            pytest.fail(f"kill point {point} never reached")
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.parametrize("point", ["extract", "in-transaction", "pairs", "store"])
def test_scan_killed_then_resumed_gives_the_same_pairs(tmp_path, point):
    folder = tmp_path / "c"
    make_corpus(folder, n=60, kept=True)  # texts the store compresses (the in-transaction point)
    # The reference: one uninterrupted scan.
    with Store.open(tmp_path / "ref.ndd") as ref:
        scan(ref, [folder])
        expected = pairs_by_path(ref)
    assert expected
    # A first complete scan of part of the collection, with a reviewer's decision on it.
    db = tmp_path / "killed.ndd"
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    for name in sorted(os.listdir(folder))[30:]:
        os.rename(folder / name, hidden / name)
    with Store.open(db) as s:
        scan(s, [folder])
        pair = s.pairs.rows("qgram", s.pairs.sets()[0].pairs_key, 0.0)[0]
        s.review.set_verdict(pair.a.id, pair.b.id, "duplicate", reviewer="ann", note="before the crash")
    for name in os.listdir(hidden):
        os.rename(hidden / name, folder / name)

    _run_and_kill(tmp_path, db, folder, point)

    with Store.open(db) as s:
        assert s.integrity_check() == "ok"
        assert s.scans.runs()[0].status == "running"
        history = s.review.history()
        assert [(d.a, d.b, d.value, d.note) for d in history] == [(pair.a.id, pair.b.id, "duplicate", "before the crash")]
        summary = scan(s, [folder])
        assert summary.documents == 60
        assert pairs_by_path(s) == expected
        assert s.review.verdicts() == {(pair.a.id, pair.b.id): "duplicate"}
        assert s.scans.runs()[1].status == "interrupted"


def test_cancel_keeps_finished_batches_and_resumes(tmp_path, store, monkeypatch):
    """A cancel stops the reading; what was read is written (the rest of the chunk in hand
    too: it was dropped, and read again by the next run) and the next run reads the rest."""
    folder = tmp_path / "c"
    make_corpus(folder, n=200)
    with Store.open(tmp_path / "ref.ndd") as ref:
        scan(ref, [folder])
        expected = pairs_by_path(ref)
    monkeypatch.setattr(extract_stage, "BATCH_DOCS", 4)
    token = CancelToken()

    def progress(p):
        if p.stage == "extract" and p.done >= 10:
            token.cancel()

    # Report every update (no throttling) so the cancel lands at a known point.
    monkeypatch.setattr(job_module, "ProgressMeter", lambda cb: ProgressMeter(cb, interval=0.0))
    with pytest.raises(ScanCancelled):
        scan(store, [folder], cancel=token, progress=progress)
    kept = store.documents.count()
    # the in-process reader reads 64 files at a time: the whole first chunk is kept
    assert kept == 64
    assert store.scans.runs()[0].status == "cancelled"
    monkeypatch.undo()
    read: list[int] = []
    summary = scan(store, [folder], progress=lambda p: read.append(p.total) if p.stage == "extract" else None)
    assert summary.new == 200 - kept
    # only the files not read yet are read: the first scan's reading options were recorded
    # at its start (a null "unsettled" record made the resumed scan read every text again)
    assert read and max(read) == 200 - kept
    assert pairs_by_path(store) == expected


def test_a_scan_past_the_memory_limit_stops_with_advice_and_keeps_its_documents(tmp_path, store, monkeypatch):
    from ndd_desktop.pipeline import ScanStopped, memory_guard

    folder = tmp_path / "c"
    make_corpus(folder, n=12)
    # the machine "has" 1 GB and the scan holds 2: past the limit at the first checkpoint
    monkeypatch.setattr(memory_guard, "physical_memory", lambda: 2**30)
    monkeypatch.setattr(memory_guard, "resident_memory", lambda: 2 * 2**30)
    with pytest.raises(ScanStopped, match=r"higher floor \(ndd scan --floor 0.6\)"):
        scan(store, [folder])
    assert store.documents.count() == 12  # what was read is kept
    assert store.pairs.sets() == [] and store.scans.runs()[0].status == "failed"
    monkeypatch.undo()
    assert scan(store, [folder]).pairs > 0  # and the next scan (with room) finishes the job


def test_a_pair_search_that_cannot_get_its_memory_stops_with_advice_and_keeps_its_documents(tmp_path):
    """1,500 copies of one notice are 1.1 million pairs of one another. Under a cap of 150 MB
    more than the process holds, the banded search cannot have its arrays at all: numpy
    raises MemoryError at once, before a checkpoint sees the memory grow. The scan stops
    with the advice of the memory guard, not a traceback, and keeps what it read."""
    from fresh_python import fresh_python

    folder = tmp_path / "copies"
    folder.mkdir()
    for k in range(1500):
        (folder / f"n{k:04d}.txt").write_text("the same short notice went to every office of the council in may\n")
    db = tmp_path / "c.ndd"
    script = textwrap.dedent(f"""
        import contextlib, io
        import numpy  # its buffers are taken before the cap
        from ndd_desktop.cli import main
        from ndd_desktop.ingest.pool_worker import limit_memory
        limit_memory(150 << 20)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["scan", "--workers", "0", "--db", {str(db)!r}, {str(folder)!r}])
        print(code)
        print(err.getvalue())
    """)
    code, message = fresh_python(script).split("\n", 1)
    assert code == "1"
    assert "needed more memory than this machine could give" in message and "--floor 0.6" in message
    # the copies are named, since no floor helps them: 1,500 copies are 1,124,250 pairs
    assert "1,500 of them are copies of one file (n0000.txt): they are 1,124,250 pairs of one another" in message
    assert "Traceback" not in message and "MemoryError" not in message
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 1500
        assert conn.execute("SELECT status FROM scan_runs").fetchall() == [("failed",)]


def test_cancel_while_the_pairs_are_written_keeps_no_partial_pair_set(tmp_path, store, monkeypatch):
    from ndd_desktop.store import scanwrite

    folder = tmp_path / "c"
    make_corpus(folder, n=30)
    monkeypatch.setattr(scanwrite, "PAIR_INSERT_CHUNK", 1)  # one row per slice
    token = CancelToken()

    def progress(p):
        if p.stage == "store" and p.done:
            token.cancel()  # Ctrl-C after the first rows are written

    monkeypatch.setattr(job_module, "ProgressMeter", lambda cb: ProgressMeter(cb, interval=0.0))
    with pytest.raises(ScanCancelled):
        scan(store, [folder], cancel=token, progress=progress)
    assert store.pairs.sets() == [] and store.scans.runs()[0].status == "cancelled"
    with Store.open(tmp_path / "ref.ndd") as ref:
        scan(ref, [folder])
        expected = pairs_by_path(ref)
    monkeypatch.undo()
    scan(store, [folder])
    assert pairs_by_path(store) == expected


def test_the_memory_figures_are_the_systems():
    from ndd_desktop.pipeline import memory_guard

    # Independent figures: sysconf for the machine, /proc for this process (Linux).
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert memory_guard.physical_memory() == total
    with open("/proc/self/statm", "rb") as fh:
        before = int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    held = bytearray(64 * 2**20)  # 64 MB more, touched so it is resident
    held[:: 4096] = b"x" * len(held[:: 4096])
    rss = memory_guard.resident_memory()
    assert before + 60 * 2**20 <= rss <= total
    guard = memory_guard.MemoryGuard(0.3)
    assert guard.limit == int(total * memory_guard.LIMIT_SHARE)
    guard()  # well below the limit: nothing happens
    del held


def test_a_scan_whose_workers_cannot_start_stops_with_a_clear_message(tmp_path, monkeypatch):
    """Workers that die before reading any file stop the scan (ScanStopped, as the window
    and `ndd scan` report it) instead of failing every file as crashed; nothing is blamed
    or recorded as failed."""
    import pytest
    from pipehelp import DiesOnArrival, make_corpus

    from ndd_desktop.pipeline import ScanConfig, ScanJob, ScanStopped
    from ndd_desktop.pipeline import extract_stage
    from ndd_desktop.store import Root, Store

    make_corpus(tmp_path / "docs", n=8)
    monkeypatch.setattr(extract_stage, "SketchingExtractor", DiesOnArrival)
    failed = []
    with Store.open(tmp_path / "c.ndd") as store:
        job = ScanJob(store, ScanConfig(roots=[Root(str(tmp_path / "docs"))], method="minhash", workers=2),
                      on_error=failed.append)
        with pytest.raises(ScanStopped, match=r"stop before they read a file \(exit code 5\)"):
            job.run()
        assert failed == [] and store.documents.count(status=None) == 0
