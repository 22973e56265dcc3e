"""Sketches made again from stored texts, for methods whose sketches are not stored.

A ``sketch_from_text`` method (qgram) keeps no sketch bytes in the collection file: a
later scan that must search again gets them from ``Store.load_sketches(derive=...)``,
which reads the stored texts 500 at a time and hands each batch to a
:class:`TextSketcher`. The first batch is sketched in this process; from the second on
(a collection that is more than a few new documents) a pool of worker processes shares
each batch, so the remaking takes about 1/CPUs of its time. The pool lives only while the
sketches load (``with TextSketcher(...)``).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..core.method import Method
from ..core.methods import get_method
from .worker_sketch import sketch_texts


def _sketch_part(method: str, params: tuple[tuple[str, Any], ...], texts: list[str]) -> list:
    """In a worker: the sketches of some texts (the method and its parameters by value)."""
    m = get_method(method)
    return sketch_texts(m, m.params(dict(params)), texts)


class TextSketcher:
    """``derive`` for ``Store.load_sketches``: texts in, sketches out, on ``workers``
    processes (None: one per CPU; 0 or 1: this process only) once there is more than one
    batch to do."""

    def __init__(self, method: Method, params: Any, overrides: dict[str, Any], workers: int | None = None) -> None:
        self.method, self.params = method, params
        self.overrides = tuple(sorted(overrides.items()))
        self.workers = max(1, os.cpu_count() or 1) if workers is None else int(workers)
        self._calls = 0
        self._pool: ProcessPoolExecutor | None = None

    def __call__(self, texts: list[str]) -> list:
        self._calls += 1
        if self.workers <= 1 or self._calls == 1 or len(texts) < 2 * self.workers:
            return sketch_texts(self.method, self.params, texts)
        if self._pool is None:
            method = "forkserver" if sys.platform.startswith("linux") else "spawn"  # as ingest.pool
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method))
        step = -(-len(texts) // self.workers)
        parts = [texts[s : s + step] for s in range(0, len(texts), step)]
        futures = [self._pool.submit(_sketch_part, self.method.name, self.overrides, p) for p in parts]
        return [sketch for f in futures for sketch in f.result()]

    def close(self) -> None:
        """Stop the worker processes, if any were started."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> "TextSketcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
