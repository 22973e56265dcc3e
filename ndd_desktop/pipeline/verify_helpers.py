"""Processes that verify candidate pairs beside the scan (``pipeline.verify_stage``).

Verifying reads the two texts of every candidate, splits them into runs of words and runs
the compiled kernel (``core.share_kernel``). Loading that kernel costs the better part of
a second (numba), and the rest ran after the extraction on one core while the other idled.
So a scan that reads files starts a helper process once its extraction workers are
running: it opens the collection read-only and loads the kernel then, beside the
extraction, and the verify stage hands it slices of the candidates in the order of
their first document (at most :data:`PART` pairs at a time, so the cancel token is seen
between slices and the progress moves). The scores are those of the same code run in the
scan's process (``verify_stage.pair_shares``).

More helpers (up to the count asked for, one per core) start only when the candidates
turn out to be many (:data:`GROW_FROM_PAIRS`): each costs the better part of a CPU second
to load, which on a two-core machine was taken from the extraction workers, while a
scan of 20,000 documents has a few thousand candidates (2,295 over 3,651 documents: about
a CPU second, most of it reading and splitting the texts).

A slice whose helper fails in any way (an exception, a crash, a helper that never started)
is verified in the scan's own process instead, where an error shows up as it always did.
The helpers are processes, not threads, so the window's event loop never waits for the
kernel to load (numba holds the GIL while it does).
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import deque
from multiprocessing.connection import wait
from typing import Any, Callable

import numpy as np

#: Pairs handed to a helper at once.
PART = 20_000
#: Helper processes at most (each holds numba and a connection: ~100 MB).
MAX_HELPERS = 4
#: Candidates from which the other helpers start: several seconds of work for one helper.
GROW_FROM_PAIRS = 20_000
_POLL_S = 0.1


class VerifyHelpers:
    """Helper processes for the collection at ``path`` and the scan's method: ``first`` of
    them now, up to ``count`` once there are many candidates to verify."""

    def __init__(self, path: str, method: str, params: Any, count: int, first: int = 1) -> None:
        self._ctx = multiprocessing.get_context("forkserver" if sys.platform.startswith("linux") else "spawn")
        self._args = (path, method, params)
        self._count = max(1, min(count, MAX_HELPERS))
        self._helpers: list[tuple[Any, Any]] = []
        self._start(min(max(1, first), self._count))

    def _start(self, count: int) -> None:
        """Start helpers until there are ``count``."""
        while len(self._helpers) < count:
            conn, child = self._ctx.Pipe(duplex=True)
            process = self._ctx.Process(target=_helper_main, args=(child, *self._args), daemon=True)
            process.start()
            child.close()
            self._helpers.append((conn, process))

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
            for k, (conn, process) in enumerate(self._helpers):
                if todo and k not in busy and process.is_alive():
                    lo, hi = todo.popleft()
                    try:
                        conn.send((a[lo:hi], b[lo:hi]))
                        busy[k] = (lo, hi)
                    except OSError:
                        failed.append((lo, hi))
            if not busy:  # no helper left alive
                failed.extend(todo)
                todo.clear()
                break
            waits = [h for k in busy for h in (self._helpers[k][0], self._helpers[k][1].sentinel)]
            ready = wait(waits, _POLL_S)
            for k, (lo, hi) in list(busy.items()):
                conn, process = self._helpers[k]
                if conn not in ready and process.sentinel not in ready:
                    continue
                del busy[k]
                result = _receive(conn)
                if result is None:
                    failed.append((lo, hi))
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
        """Stop the helpers (a helper in the middle of a slice is killed)."""
        for conn, process in self._helpers:
            try:
                conn.send(None)
            except OSError:
                pass
        for conn, process in self._helpers:
            process.join(0.5)
            if process.is_alive():
                process.kill()
                process.join(5)
            conn.close()
        self._helpers.clear()


def _receive(conn) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        if conn.poll():
            return conn.recv()
    except (EOFError, OSError):
        pass
    return None


def _helper_main(conn, path: str, method_name: str, params: Any) -> None:
    """A helper: load what verifying needs, then verify the slices it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the scan's to handle
    from ..core import share_kernel
    from ..core.allocator import keep_freed_memory
    from ..core.methods import get_method
    from ..store import Store
    from .verify_stage import pair_shares

    keep_freed_memory()
    try:
        share_kernel.load()
        method = get_method(method_name)
        method.texts_to_verify(["a"], params)  # what a method loads to read texts (hybrid's speller)
        store = Store.open(path, create=False, read_only=True)
    except Exception:  # the scan's process verifies every slice itself
        store = None
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        try:
            if store is None:
                raise RuntimeError("helper not started")
            result = pair_shares(store.documents, method, params, *msg)
        except Exception:
            result = None
        try:
            conn.send(result)
        except (EOFError, OSError):
            return
