"""Independent pieces of work on this machine's cores, on threads.

Only for work that releases the GIL (the compiled kernels, numpy's sorts and large array
operations): the pieces then run at once, and the calling thread, which only waits, keeps
calling :func:`core.checkpoint.checkpoint` so a scan can still be stopped. The checkpoint
function is the calling thread's; the pieces never call it themselves.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Callable, Iterable, TypeVar

from .checkpoint import checkpoint

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_threads(fn: Callable[[T], R], items: Iterable[T], threads: int | None = None) -> list[R]:
    """``[fn(item) for item in items]``, on up to ``threads`` threads (default: the cores).

    At most twice as many pieces as threads are queued at a time, so what the pieces make
    is not all held at once. A checkpoint comes as each piece finishes; when it (or a piece)
    raises, the pieces not started are dropped, those running are waited for, and the
    exception propagates.
    """
    items = list(items)
    threads = min(threads or cores(), len(items))
    if threads <= 1:
        out = []
        for item in items:
            checkpoint()
            out.append(fn(item))
        return out
    results: list = [None] * len(items)
    pending: set[Future] = set()
    with ThreadPoolExecutor(threads, thread_name_prefix="ndd-core") as pool:
        try:
            for k, item in enumerate(items):
                while len(pending) >= 2 * threads:
                    _, pending = _finish_some(pending, results)
                pending.add(_submit(pool, fn, item, k, results))
            while pending:
                _, pending = _finish_some(pending, results)
        except BaseException:
            for f in pending:
                f.cancel()
            raise
    return results


def _submit(pool: ThreadPoolExecutor, fn: Callable, item, k: int, results: list) -> Future:
    def piece() -> None:
        results[k] = fn(item)

    return pool.submit(piece)


def _finish_some(pending: set[Future], results: list) -> tuple[set[Future], set[Future]]:
    """Wait for at least one piece; re-raise its exception; a checkpoint."""
    done, rest = wait(pending, return_when=FIRST_COMPLETED)
    for f in done:
        f.result()
    checkpoint()
    return done, rest
