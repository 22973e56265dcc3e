"""Uniform 64-bit words, as the band words of a search are, for the tests of the sorts."""

import numpy as np


def uniform(seed: int, n: int) -> np.ndarray:
    """``n`` uniform uint64 words drawn with ``seed``."""
    return np.random.default_rng(seed).integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
