"""Python's cyclic garbage collector paused while a phase builds large acyclic structures.

The collector runs every 700 new container objects and, every so often, walks every
object alive. A rescan's plan builds one entry per file and one record per known file
(tuples, plain objects: no reference cycles, freed by reference counting), and the
collector kept walking the growing heap while they were made: with it on, reading the
100,000 known files of a collection took 0.40-0.59 s, with it paused 0.24-0.27 s. A phase
that makes such structures runs inside :func:`paused`; the collector resumes at its end
(at once, one collection of what the phase left instead of hundreds along the way).

The pause is process-wide (the window's thread too), so it is kept to bounded phases.
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
