"""Processes that verify candidate pairs beside the scan (``pipeline.verify_stage``).

Verifying reads the two texts of every candidate, splits them into runs of words and runs
the compiled kernel (``core.share_kernel``). Loading that kernel costs the better part of
a second (numba), and the rest ran after the extraction on one core while the other idled.
So a scan that reads files starts a helper process once its extraction workers are
running: it loads the kernel then, beside the extraction, and opens the collection's
texts read-only (``store.text_reading``: a plain sqlite3 connection, no SQLAlchemy). The
verify stage hands it slices of the candidates in the order of their first document (at
most :data:`PART` pairs at a time, so the cancel token is seen between slices and the
progress moves). The scores are those of the same code run in the
scan's process (``verify_stage.pair_shares``).

On Linux the other helpers (up to the count asked for, one per core) are **twins**: once
the first helper has loaded the kernel, and before it opens the collection, it forks
them, so they cost no loading at all, and the candidates are verified on every core once
the extraction has freed them (on a two-core machine that halves the verify stage). A
twin opens its own connection; it dies with the helper it was forked from (the kernel's
parent-death signal), so killing the helpers kills the twins. Elsewhere, where helpers
are spawned fresh, more start only when the candidates turn out to be many
(:data:`GROW_FROM_PAIRS`): each costs the better part of a CPU second to load, which
would be taken from the extraction workers, while a scan of 20,000 documents has a few
thousand candidates (2,295 over 3,651 documents: about half a CPU second).

A slice whose helper fails in any way (an exception, a crash, a helper that never started)
is verified in the scan's own process instead, where an error shows up as it always did.
The helpers are processes, not threads, so the window's event loop never waits for the
kernel to load (numba holds the GIL while it does).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable

import numpy as np

from ..ingest.priority import lower_priority
from ..ingest.process_name import HELPER, name_process

#: Pairs handed to a helper at once.
PART = 20_000
#: Helper processes at most (each holds numba and a connection: ~100 MB).
MAX_HELPERS = 4
#: Candidates from which the other helpers start: several seconds of work for one helper.
GROW_FROM_PAIRS = 20_000
_POLL_S = 0.1
#: Whether the first helper forks the others (twins) once it has loaded the kernel.
TWINS = sys.platform.startswith("linux")
_PR_SET_PDEATHSIG = 1


@dataclass
class _Helper:
    """One helper: its end of the pipe, its process (None for a twin, which is the first
    helper's child, not ours) and whether it failed."""

    conn: Any
    process: Any = None
    failed: bool = False

    def alive(self) -> bool:
        return not self.failed and (self.process is None or self.process.is_alive())

    def handles(self) -> list:
        """What becomes ready when the helper answers or ends."""
        return [self.conn] if self.process is None else [self.conn, self.process.sentinel]


class VerifyHelpers:
    """Helper processes for the collection at ``path`` and the scan's method: ``first`` of
    them now (with their twins, ``count`` at once where twins are made), up to ``count``
    once there are many candidates to verify; ``niceness`` steps below this process
    (``ingest.priority``; twins inherit it)."""

    def __init__(self, path: str, method: str, params: Any, count: int, first: int = 1, niceness: int = 0) -> None:
        self._ctx = multiprocessing.get_context("forkserver" if sys.platform.startswith("linux") else "spawn")
        self._args = (path, method, params, niceness)
        self._count = max(1, min(count, MAX_HELPERS))
        self._helpers: list[_Helper] = []
        self._start(min(max(1, first), self._count), twins=self._count - 1 if TWINS else 0)

    def _start(self, count: int, twins: int = 0) -> None:
        """Start helpers until there are ``count`` (the first of them forks ``twins``)."""
        while len(self._helpers) < count:
            conn, child = self._ctx.Pipe(duplex=True)
            pairs = [self._ctx.Pipe(duplex=True) for _ in range(twins)]
            process = self._ctx.Process(target=_helper_main, args=(child, *self._args, [c for _, c in pairs]),
                                        daemon=True)
            process.start()
            child.close()
            self._helpers.append(_Helper(conn, process))
            for mine, theirs in pairs:
                theirs.close()
                self._helpers.append(_Helper(mine))
            twins = 0

    def shares(self, a: np.ndarray, b: np.ndarray, fallback: Callable[[np.ndarray, np.ndarray], tuple],
               check: Callable[[], None] | None = None,
               progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(share of a in b, share of b in a)`` for document ids ``a[k], b[k]``, in slices
        across the helpers; a slice that fails is given to ``fallback(a, b)``."""
        n = a.shape[0]
        if n >= GROW_FROM_PAIRS:
            self._start(self._count)
        size = min(PART, max(1, -(-n // (2 * len(self._helpers)))))
        todo = deque((lo, min(lo + size, n)) for lo in range(0, n, size))
        s_ab, s_ba = np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64)
        failed: list[tuple[int, int]] = []
        busy: dict[int, tuple[int, int]] = {}  # helper index -> its slice
        done = 0
        while todo or busy:
            if check is not None:
                check()
            for k, helper in enumerate(self._helpers):
                if todo and k not in busy and helper.alive():
                    lo, hi = todo.popleft()
                    try:
                        helper.conn.send((a[lo:hi], b[lo:hi]))
                        busy[k] = (lo, hi)
                    except OSError:
                        helper.failed = True
                        failed.append((lo, hi))
            if not busy:  # no helper left alive
                failed.extend(todo)
                todo.clear()
                break
            ready = wait([h for k in busy for h in self._helpers[k].handles()], _POLL_S)
            for k, (lo, hi) in list(busy.items()):
                helper = self._helpers[k]
                if not any(h in ready for h in helper.handles()):
                    continue
                del busy[k]
                result, gone = _receive(helper.conn)
                if result is None:
                    failed.append((lo, hi))
                    helper.failed = helper.failed or gone
                    continue
                s_ab[lo:hi], s_ba[lo:hi] = result
                done += hi - lo
                if progress is not None:
                    progress(done)
        for lo, hi in failed:
            if check is not None:
                check()
            s_ab[lo:hi], s_ba[lo:hi] = fallback(a[lo:hi], b[lo:hi])
            done += hi - lo
            if progress is not None:
                progress(done)
        return s_ab, s_ba

    def close(self) -> None:
        """Stop the helpers (a helper in the middle of a slice is killed; its twins die
        with it)."""
        for helper in self._helpers:
            try:
                helper.conn.send(None)
            except OSError:
                pass
        for helper in self._helpers:
            if helper.process is not None:
                helper.process.join(0.5)
                if helper.process.is_alive():
                    helper.process.kill()
                    helper.process.join(5)
        for helper in self._helpers:
            helper.conn.close()
        self._helpers.clear()


def _receive(conn) -> tuple[tuple[np.ndarray, np.ndarray] | None, bool]:
    """(the helper's answer or None, whether the helper is gone)."""
    try:
        if conn.poll():
            return conn.recv(), False
    except (EOFError, OSError):
        return None, True
    return None, False


def _helper_main(conn, path: str, method_name: str, params: Any, niceness: int = 0,
                 twins: list | None = None) -> None:
    """A helper: load what verifying needs, fork a twin for each of the ``twins`` pipes,
    then verify the slices it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the scan's to handle
    name_process(HELPER)  # the twins, forked from it, keep the name
    lower_priority(niceness)
    from ..core import share_kernel
    from ..core.allocator import keep_freed_memory
    from ..core.methods import get_method
    from ..store import text_reading  # noqa: F401 - imported once, before the twins fork
    from . import verify_stage  # noqa: F401

    keep_freed_memory()
    try:
        share_kernel.prepare()
        method = get_method(method_name)
        method.texts_to_verify(["a"], params)  # what a method loads to read texts (hybrid's speller)
        loaded = True
    except Exception:  # the scan's process verifies every slice itself
        loaded = False
    twins = list(twins or ())
    if twins:
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # twins that end are reaped at once
    for k, twin in enumerate(twins):
        try:
            pid = os.fork()
        except OSError:  # no twin (no memory, too many processes): its pipe closes, the
            twin.close()  # scan sees it gone and verifies its slices elsewhere
            continue
        if pid == 0:  # the twin: it serves its own pipe only, and ends with its parent
            _die_with_parent()
            for other in (conn, *twins[:k], *twins[k + 1:]):
                other.close()
            try:
                _serve(twin, path, method if loaded else None, params)
            finally:
                os._exit(0)
        twin.close()
    _serve(conn, path, method if loaded else None, params)


def _die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent ends (Linux)."""
    parent = os.getppid()
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(0)


def _serve(conn, path: str, method: Any, params: Any) -> None:
    """Open the collection's texts (each process its own read-only connection; not the
    store, whose SQLAlchemy they do not need), then verify the slices that come through
    ``conn`` until it closes or sends None."""
    from ..store.text_reading import TextReader
    from .verify_stage import pair_shares

    texts = None
    if method is not None:
        try:
            texts = TextReader(path)
        except Exception:  # the scan's process verifies every slice itself
            texts = None
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            if texts is None:
                raise RuntimeError("helper not started")
            result = pair_shares(texts, method, params, *msg)
        except Exception:
            result = None
        try:
            conn.send(result)
        except (EOFError, OSError):
            return
