"""Which of several ways of sorting is the quickest on this machine, timed on a sample.

numpy's sort of 64-bit integers is vectorised on some machines and scalar on others (the
AMD build machine), so a sort built around it (``core.word_sort``'s radix pass,
``core.top_bits_sort``) times itself against numpy's once a process and keeps the faster.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np


def quickest(ways: dict[str, Callable[[np.ndarray], object]], sample: np.ndarray, rounds: int = 2) -> str:
    """The name of the way that sorts a copy of ``sample`` in the least time, the best of
    ``rounds`` runs each (the copy is not timed); a tie goes to the way named first."""
    took = dict.fromkeys(ways, float("inf"))
    for _ in range(rounds):
        for name, way in ways.items():
            words = sample.copy()
            start = time.perf_counter()
            way(words)
            took[name] = min(took[name], time.perf_counter() - start)
    return min(took, key=took.__getitem__)
