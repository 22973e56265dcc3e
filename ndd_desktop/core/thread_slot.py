"""A value a caller installs for its own thread while a block runs.

The core's long computations take a few things from whoever runs them without being
passed them through every call: the function that may stop the work
(:mod:`core.checkpoint`), where a banded search groups its keys (:mod:`core.band_grouping`),
the processes that verify a scan's candidates (``pipeline.verify_stage``). Each is a
:class:`ThreadSlot`: empty by default, filled for one thread during a ``with`` block and
restored after it, so nested and concurrent callers do not see each other's values.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class ThreadSlot(Generic[T]):
    """One value per thread, None unless installed."""

    def __init__(self) -> None:
        self._local = threading.local()

    def get(self) -> T | None:
        """This thread's value (a thread-local lookup), or None."""
        return getattr(self._local, "value", None)

    @contextmanager
    def installed(self, value: T | None) -> Iterator[None]:
        """``value`` for this thread during the block; the value before it afterwards."""
        before = self.get()
        self._local.value = value
        try:
            yield
        finally:
            self._local.value = before
