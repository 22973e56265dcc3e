"""Extraction in a pool of worker processes with a per-file time limit.

Each worker is a process of its own with a pipe to the parent. It is handed a *chunk*
of files at a time: as many as take about ``CHUNK_SECONDS`` at the rate seen so far (one
file at first, so a slow or hostile collection never has more than one file per worker in
hand; up to ``CHUNK_FILES`` small files, at most ``CHUNK_BYTES`` of them). A chunk is
extracted file by file, then handed whole to the extractor's ``finish`` step (the scan
sketches all its documents in one call there), and its documents travel back in one
message: per-file calls and per-file messages cost more than the work on small files.

The number of files in flight (and the memory they hold) is bounded by the workers times
the chunk size, and the input iterator is consumed only as workers come free. The worker
writes which file of its chunk it is on, and since when, into a small shared array; so a
worker that overruns ``Limits.timeout_s`` on one file is killed and replaced and that file
gets "timed out after N s", and a worker that dies (segfault, out-of-memory kill) is
replaced and the file in hand gets "extractor crashed". The chunk's other files are
tried again, each alone, so a failure never takes down more than its own file. A worker
that dies before it begins any file blames none (its chunk is tried again), and
``STARTUP_DEATHS`` of those in a row stop the work (:class:`WorkersCannotStart`). Results
stream back as chunks finish.

Workers start with the ``forkserver`` method on Linux (safe when the parent runs
threads, as the GUI does) and ``spawn`` elsewhere; frozen applications must call
``multiprocessing.freeze_support()`` early. ``workers=0`` runs everything in the calling
process: no time limit, no crash isolation; meant for tests and small jobs. The worker's
side (its loop, a chunk's two steps) is :mod:`ingest.pool_worker`, its start method
:mod:`ingest.pool_server`.
"""

from __future__ import annotations

import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait

from ndd_desktop.ingest import reasons as R
from ndd_desktop.ingest.document import STATUS_ERROR, ExtractedDocument, FileEntry, problem
from ndd_desktop.ingest.extract import extract_entry
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.ingest.pool_server import context
from ndd_desktop.ingest.pool_worker import Extractor, run_chunk, worker_main

_POLL_S = 0.2
_REAP_S = 5.0  # longest wait for a process found dead to be reaped (see _Worker.exit_code)
#: Work handed to a worker at once: about this many seconds of it at the rate seen so far,
CHUNK_SECONDS = 0.25
#: but never more files than this,
CHUNK_FILES = 256
#: nor more bytes on disk than this (a single larger file goes alone).
CHUNK_BYTES = 16 * 1024 * 1024
#: Workers in a row that may die before they start on a file before the pool stops.
STARTUP_DEATHS = 3


class WorkersCannotStart(RuntimeError):
    """The worker processes die before they read a file, one after the other (a broken
    installation, a missing library, a program that starts them without the
    ``if __name__ == "__main__"`` guard): no file is to blame, so the work stops."""


def default_workers() -> int:
    """CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def extract_many(
    entries: Iterable[FileEntry],
    limits: Limits | None = None,
    *,
    workers: int | None = None,
    cancel: object | None = None,
    extractor: Extractor = extract_entry,
    mp_context: str | None = None,
    refresh: Callable[[], Extractor] | None = None,
    readers: tuple[str, ...] | None = None,
    started: Callable[[], None] | None = None,
) -> Iterator[list[ExtractedDocument]]:
    """The documents of each entry, one list per entry, in the order they finish.

    ``cancel`` is any object with a ``cancelled`` attribute; when it turns true no new
    file is started, files in flight are abandoned (their workers killed) and the
    iterator ends. ``extractor`` (module-level, picklable) replaces extract_entry; see
    :func:`run_chunk` for the two-step form. ``mp_context`` names a multiprocessing start
    method. ``refresh()``, when given, is asked for the extractor before each chunk is
    handed out: one that is not the worker's current extractor goes along with the chunk
    and replaces it (the scan hands its workers the collection's text dictionary once
    there is one). ``readers``: the reader modules the workers' server imports before it
    forks them, when it is not running yet (``extract.likely_readers``; default: all).
    ``started()``, when given, is called once the first files are handed out: the workers'
    server runs (the scan starts its verification helpers from it then).
    """
    limits = limits or Limits()
    if workers is not None and workers < 0:
        raise ValueError(f"workers must be 0 (no extra process) or more, got {workers}")
    if workers == 0:
        yield from _in_process(entries, limits, cancel, extractor, refresh)
        return
    pool = _Pool(workers or default_workers(), limits, extractor, context(mp_context, extractor, readers=readers))
    source = iter(entries)
    exhausted = False
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                return
            while pool.has_idle():
                if refresh is not None:
                    pool.extractor = refresh()
                if pool.retry:
                    pool.submit([pool.retry.popleft()])
                    continue
                if exhausted:
                    break
                chunk = pool.take(source)
                if not chunk:
                    exhausted = True
                else:
                    pool.submit(chunk)
                    if started is not None:
                        started, call = None, started
                        call()
            if exhausted and not pool.retry and not pool.busy():
                return
            yield from pool.collect(_POLL_S)
    finally:
        pool.shutdown()


def _in_process(entries: Iterable[FileEntry], limits: Limits, cancel, extractor: Extractor,
                refresh: Callable[[], Extractor] | None = None):
    """``workers=0``: chunks of files run here, one after the other."""
    chunk: list[FileEntry] = []
    source = iter(entries)
    while True:
        if cancel is not None and cancel.cancelled:
            return
        entry = next(source, None)
        if entry is not None:
            chunk.append(entry)
        if chunk and (entry is None or len(chunk) >= 64):
            yield from run_chunk(extractor if refresh is None else refresh(), chunk, limits)
            chunk = []
        if entry is None:
            return


class _Worker:
    def __init__(self, ctx, limits: Limits, extractor: Extractor) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        # [position in the chunk, time.monotonic() when it started]: written by the worker
        self.where = ctx.RawArray("d", 2)
        self.process = ctx.Process(target=worker_main, args=(child, limits, extractor, self.where), daemon=True)
        self.process.start()
        child.close()
        self.extractor = extractor  # the one the worker holds
        self.wanted = extractor  # the one its next chunk is to be read with
        self.chunk: list[FileEntry] | None = None
        self.sent = 0.0
        self.results = 0  # chunks it has sent back

    def started_a_file(self) -> bool:
        """Whether it has begun a file since it was handed its chunk (it writes the time
        it starts each file over the time of the hand-over), or sent a chunk back before."""
        return self.results > 0 or self.where[1] != self.sent

    def hand(self, chunk: list[FileEntry]) -> None:
        """Give the worker a chunk (its position starts at the first file, now), to be read
        with the ``wanted`` extractor (sent along when the worker holds another)."""
        self.chunk, self.sent = chunk, time.monotonic()
        self.where[1], self.where[0] = self.sent, 0.0
        self.conn.send((chunk, None if self.wanted is self.extractor else self.wanted))
        self.extractor = self.wanted

    def in_hand(self) -> tuple[int, float]:
        """(position of the file being worked on, or -1 while finishing; since when)."""
        return int(self.where[0]), self.where[1]

    def exit_code(self) -> int | None:
        """The process's exit code, once it has ended. A pipe found closed or a sentinel
        found ready can come a moment before the process is reaped (on a loaded machine),
        so it is waited for, up to a few seconds, before the code is read."""
        self.process.join(_REAP_S)
        return self.process.exitcode

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class _Pool:
    def __init__(self, size: int, limits: Limits, extractor: Extractor, ctx) -> None:
        self.size, self.limits, self.extractor, self.ctx = size, limits, extractor, ctx
        self.workers: list[_Worker] = []
        self.retry: deque[FileEntry] = deque()  # files of a failed chunk, to try one by one
        self.per_file = None  # seconds per file seen so far (None: nothing seen yet)
        self.startup_deaths = 0  # workers in a row that died before they began a file

    def has_idle(self) -> bool:
        return len(self.workers) < self.size or any(w.chunk is None for w in self.workers)

    def busy(self) -> list[_Worker]:
        return [w for w in self.workers if w.chunk is not None]

    def take(self, source: Iterator[FileEntry]) -> list[FileEntry]:
        """The next chunk from ``source``: one file until a rate is known."""
        files = 1 if self.per_file is None else int(min(CHUNK_FILES, max(1, CHUNK_SECONDS / self.per_file)))
        chunk: list[FileEntry] = []
        size = 0
        while len(chunk) < files:
            entry = next(source, None)
            if entry is None:
                break
            chunk.append(entry)
            size += entry.size
            if size >= CHUNK_BYTES:
                break
        return chunk

    def submit(self, chunk: list[FileEntry]) -> None:
        worker = next((w for w in self.workers if w.chunk is None), None)
        if worker is None:
            worker = _Worker(self.ctx, self.limits, self.extractor)
            self.workers.append(worker)
        try:
            worker.wanted = self.extractor
            worker.hand(chunk)
        except OSError:  # the worker died while idle: its pipe is gone
            if not worker.results:
                self._died_at_start(worker.exit_code())
            self._replace(worker)
            self.submit(chunk)

    def collect(self, poll_s: float) -> Iterator[list[ExtractedDocument]]:
        busy = self.busy()
        if not busy:
            return
        deadline = min(w.in_hand()[1] for w in busy) + self.limits.timeout_s
        timeout = max(0.0, min(poll_s, deadline - time.monotonic()))
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
        now = time.monotonic()
        for worker in busy:
            chunk = worker.chunk
            if worker.conn in ready or worker.process.sentinel in ready:
                result = self._receive(worker)
                if result is not None:
                    worker.chunk = None
                    worker.results += 1
                    self.startup_deaths = 0
                    self._learn(len(chunk), now - worker.sent)
                    yield from result
                    continue
                yield from self._fail(worker, f"{R.CRASHED}{_exit(worker.exit_code())}")
                continue
            pos, since = worker.in_hand()
            if now - since > self.limits.timeout_s:
                yield from self._fail(worker, f"{R.TIMED_OUT} {self.limits.timeout_s:g} s")

    def _learn(self, files: int, seconds: float) -> None:
        rate = seconds / max(files, 1)
        self.per_file = rate if self.per_file is None else 0.7 * self.per_file + 0.3 * rate

    def _fail(self, worker: _Worker, reason: str) -> Iterator[list[ExtractedDocument]]:
        """The worker died or overran: the file in its hand gets ``reason``, the chunk's
        other files are tried again one by one (a chunk that failed while finishing
        blames no file until it is a chunk of one)."""
        chunk = worker.chunk or []
        pos, _ = worker.in_hand()
        if not worker.started_a_file():  # it died (or hung) before any file: none is to blame
            code = worker.process.exitcode
            self._replace(worker)
            self._died_at_start(code)
            self.retry.extend(chunk)
            return
        self._replace(worker)
        if len(chunk) == 1:
            pos = 0
        for k, entry in enumerate(chunk):
            if k == pos:
                yield [problem(entry, STATUS_ERROR, reason)]
            else:
                self.retry.append(entry)

    def _died_at_start(self, code: int | None) -> None:
        """Count a worker that died before it began a file; STARTUP_DEATHS in a row stop
        the work (WorkersCannotStart) instead of failing every file one by one."""
        self.startup_deaths += 1
        if self.startup_deaths >= STARTUP_DEATHS:
            raise WorkersCannotStart(
                f"the extraction worker processes stop before they read a file{_exit(code)}, "
                f"{self.startup_deaths} in a row: no file was read or blamed. With no extra "
                "processes (workers 0) the files are read in this process, where the cause "
                "shows as an error")

    def _receive(self, worker: _Worker) -> list[list[ExtractedDocument]] | None:
        try:
            if worker.conn.poll():
                return worker.conn.recv()
        except (EOFError, OSError):
            pass
        except Exception as exc:  # a result that cannot be unpickled
            return [[problem(e, STATUS_ERROR, f"result unreadable: {exc}")] for e in worker.chunk]
        return None

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self.workers.remove(worker)

    def shutdown(self) -> None:
        for worker in self.workers:
            if worker.chunk is None:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + 2
        for worker in self.workers:
            if worker.chunk is None:
                worker.process.join(max(0.0, deadline - time.monotonic()))
            worker.kill()
        self.workers.clear()


def _exit(code: int | None) -> str:
    if code is None:
        return ""
    if code < 0:
        try:
            return f" (signal {signal.Signals(-code).name})"
        except ValueError:
            return f" (signal {-code})"
    return f" (exit code {code})"


