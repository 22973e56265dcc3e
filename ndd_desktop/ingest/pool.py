"""Extraction in a pool of worker processes with a per-file time limit.

Each worker is a process of its own with a pipe to the parent and at most one file in
hand, so the number of files in flight (and the memory they hold) is bounded by the
number of workers, and the input iterator is consumed only as workers come free. A
worker that overruns ``Limits.timeout_s`` is killed and replaced and its file gets
"timed out after N s"; a worker that dies (segfault, out-of-memory kill) is replaced
and its file gets "extractor crashed". Results stream back as they finish.

Workers start with the ``forkserver`` method on Linux (safe when the parent runs
threads, as the GUI does) and ``spawn`` elsewhere; frozen applications must call
``multiprocessing.freeze_support()`` early. ``workers=0`` runs everything in the calling
process: no time limit, no crash isolation; meant for tests and small jobs.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait

from ndd_desktop.ingest import reasons as R
from ndd_desktop.ingest.document import STATUS_ERROR, ExtractedDocument, FileEntry, problem
from ndd_desktop.ingest.extract import extract_entry
from ndd_desktop.ingest.limits import Limits

Extractor = Callable[[FileEntry, Limits], list[ExtractedDocument]]
_POLL_S = 0.2


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
) -> Iterator[list[ExtractedDocument]]:
    """The documents of each entry, one list per entry, in the order they finish.

    ``cancel`` is any object with a ``cancelled`` attribute; when it turns true no new
    file is started, files in flight are abandoned (their workers killed) and the
    iterator ends. ``extractor`` (module-level, picklable) replaces extract_entry, for
    tests. ``mp_context`` names a multiprocessing start method.
    """
    limits = limits or Limits()
    if workers is not None and workers < 0:
        raise ValueError(f"workers must be 0 (no extra process) or more, got {workers}")
    if workers == 0:
        for entry in entries:
            if cancel is not None and cancel.cancelled:
                return
            yield extractor(entry, limits)
        return
    pool = _Pool(workers or default_workers(), limits, extractor, _context(mp_context))
    source = iter(entries)
    exhausted = False
    try:
        while True:
            if cancel is not None and cancel.cancelled:
                return
            while not exhausted and pool.has_idle():
                entry = next(source, None)
                if entry is None:
                    exhausted = True
                else:
                    pool.submit(entry)
            if exhausted and not pool.busy():
                return
            yield from pool.collect(_POLL_S)
    finally:
        pool.shutdown()


def _context(method: str | None):
    if method is None:
        method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        # trafilatura (web pages) is imported once in the server, not once per worker
        ctx.set_forkserver_preload(["ndd_desktop.ingest.extract", "trafilatura"])
    return ctx


class _Worker:
    def __init__(self, ctx, limits: Limits, extractor: Extractor) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, limits, extractor), daemon=True)
        self.process.start()
        child.close()
        self.entry: FileEntry | None = None
        self.started = 0.0

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class _Pool:
    def __init__(self, size: int, limits: Limits, extractor: Extractor, ctx) -> None:
        self.size, self.limits, self.extractor, self.ctx = size, limits, extractor, ctx
        self.workers: list[_Worker] = []

    def has_idle(self) -> bool:
        return len(self.workers) < self.size or any(w.entry is None for w in self.workers)

    def busy(self) -> list[_Worker]:
        return [w for w in self.workers if w.entry is not None]

    def submit(self, entry: FileEntry) -> None:
        worker = next((w for w in self.workers if w.entry is None), None)
        if worker is None:
            worker = _Worker(self.ctx, self.limits, self.extractor)
            self.workers.append(worker)
        worker.entry, worker.started = entry, time.monotonic()
        try:
            worker.conn.send(entry)
        except OSError:  # the worker died while idle: its pipe is gone
            self._replace(worker)
            self.submit(entry)

    def collect(self, poll_s: float) -> Iterator[list[ExtractedDocument]]:
        busy = self.busy()
        if not busy:
            return
        deadline = min(w.started for w in busy) + self.limits.timeout_s
        timeout = max(0.0, min(poll_s, deadline - time.monotonic()))
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
        now = time.monotonic()
        for worker in busy:
            entry = worker.entry
            if worker.conn in ready or worker.process.sentinel in ready:
                result = self._receive(worker)
                if result is not None:
                    worker.entry = None
                    yield result
                    continue
                code = worker.process.exitcode
                self._replace(worker)
                yield [problem(entry, STATUS_ERROR, f"{R.CRASHED}{_exit(code)}")]
            elif now - worker.started > self.limits.timeout_s:
                self._replace(worker)
                yield [problem(entry, STATUS_ERROR,
                               f"{R.TIMED_OUT} {self.limits.timeout_s:g} s")]

    def _receive(self, worker: _Worker) -> list[ExtractedDocument] | None:
        try:
            if worker.conn.poll():
                return worker.conn.recv()
        except (EOFError, OSError):
            pass
        except Exception as exc:  # a result that cannot be unpickled
            return [problem(worker.entry, STATUS_ERROR, f"result unreadable: {exc}")]
        worker.process.join(1)
        return None

    def _replace(self, worker: _Worker) -> None:
        worker.kill()
        self.workers.remove(worker)

    def shutdown(self) -> None:
        for worker in self.workers:
            if worker.entry is None:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + 2
        for worker in self.workers:
            if worker.entry is None:
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


def _worker_main(conn, limits: Limits, extractor: Extractor) -> None:
    """Loop of a worker process: receive an entry, send back its documents."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _limit_memory(limits.max_worker_memory_bytes)
    while True:
        try:
            entry = conn.recv()
        except (EOFError, OSError):
            return
        if entry is None:
            return
        docs = extractor(entry, limits)
        try:
            conn.send(docs)
        except (EOFError, OSError):
            return
        except Exception as exc:  # e.g. a result too odd to pickle
            conn.send([problem(entry, STATUS_ERROR, f"result could not be sent: {exc}")])


def _limit_memory(limit: int | None) -> None:
    if not limit:
        return
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass
