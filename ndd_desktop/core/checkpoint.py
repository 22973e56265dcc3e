"""Cooperative stops for long core computations, without the core knowing its caller.

A pair search on a large collection runs for seconds to minutes. The caller that runs it
on its own thread (the scan job) installs a function for that thread with
:func:`checkpoints`; the core's long loops call :func:`checkpoint` between steps of at most
a few tens of milliseconds, and the installed function may raise to stop the work (the
scan raises ``ScanCancelled`` once its cancel button or Ctrl-C was pressed). Nothing is
installed by default, and then a checkpoint costs one thread-local lookup.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Callable

from .thread_slot import ThreadSlot

_slot: ThreadSlot[Callable[[], None]] = ThreadSlot()


def checkpoint() -> None:
    """Call this thread's installed function, if any (it may raise to stop the work)."""
    fn = _slot.get()
    if fn is not None:
        fn()


def checkpoints(fn: Callable[[], None]) -> AbstractContextManager[None]:
    """Install ``fn`` as this thread's checkpoint function for the ``with`` block."""
    return _slot.installed(fn)
