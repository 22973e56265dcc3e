"""Uniform 64-bit words, as the band words of a search are, for the tests of the sorts."""

import numpy as np


def uniform(seed: int, n: int) -> np.ndarray:
    """``n`` uniform uint64 words drawn with ``seed``."""
    return np.random.default_rng(seed).integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)


def check_sorts_a_view_in_place(sort, seed: int, n: int) -> None:
    """``sort(view)`` sorts a view of all but the first 1,000 of ``n`` uniform words in
    place, and leaves those 1,000 as they were."""
    base = uniform(seed, n)
    untouched = base[:1000].copy()
    view = base[1000:]
    want = np.sort(view)
    sort(view)
    assert np.array_equal(base[1000:], want)
    assert np.array_equal(base[:1000], untouched)
