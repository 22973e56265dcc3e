"""Python's cyclic garbage collector paused while a phase builds large acyclic structures.

The collector runs every 700 new container objects and, every so often, walks every
object alive. A rescan's plan builds one record per known file (plain objects: no
reference cycles, freed by reference counting), and the collector kept walking the
growing heap while they were made: with it on, reading the 100,000 known files of a
collection took 0.40-0.59 s, with it paused 0.24-0.27 s. A phase that makes such
structures runs inside :func:`paused`; the collector resumes at its end (at once, one
collection of what the phase left instead of hundreds along the way).

The pause is process-wide (the window's thread too), so it is kept to bounded phases.

What is alive when the stages start can still cost them: every full collection walks it
all. In the window a scan of 100,000 files set one off every two seconds, 100 ms each (no
garbage found), which paused the window's event loop that long; the plan then held an
object for each file to read (it now holds their indices in the walk's columns,
``ingest.walked.WalkedSubset``), and the window holds its own. :func:`frozen` moves what
is alive out of the collector's way for the rest of the scan (``gc.freeze``).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic collector for the block; it resumes after it (if it was running)."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


@contextmanager
def frozen() -> Iterator[None]:
    """Freeze what is alive for the block (``gc.freeze``): the full collections the block
    sets off walk only the objects made since. Frozen objects are still freed by reference
    counting; only cycles among them wait. At the end they go back to the collector, unless
    something was frozen before the block (the window's ``gui.heap``), which then hands
    them back itself."""
    before = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if before == 0:
            gc.unfreeze()
