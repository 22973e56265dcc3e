"""The compiled inner loop of :mod:`core.text_share`: the words of one text covered by runs
found in another, for a whole batch of pairs in one call.

Numba compiles it once per machine (cached beside the module where that folder is
writable); per pair it costs a binary search per run and no Python, which is what makes
verifying hundreds of thousands of candidates affordable (numpy needed ~15 array calls a
pair, 20x slower: see docs/performance.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _covered(at: np.ndarray, lo_a: int, hi_a: int, pool: np.ndarray, lo_b: int, hi_b: int, w: int) -> int:
    """Words of the run slice at[lo_a:hi_a] covered by runs found in pool[lo_b:hi_b] (sorted)."""
    total = 0
    last_end = 0
    for i in range(hi_a - lo_a):
        h = at[lo_a + i]
        lo, hi = lo_b, hi_b
        while lo < hi:
            mid = (lo + hi) >> 1
            if pool[mid] < h:
                lo = mid + 1
            else:
                hi = mid
        if lo < hi_b and pool[lo] == h:
            end = i + w
            total += end - (i if i > last_end else last_end)
            last_end = end
    return total


@njit(cache=True, nogil=True)
def covered_batch(at: np.ndarray, at_off: np.ndarray, pool: np.ndarray, pool_off: np.ndarray,
                  pi: np.ndarray, pj: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    """For each pair (pi[k], pj[k]) of documents in the flat layout, the words of each covered
    by runs of ``w`` words found in the other: ``(covered of i, covered of j)``.

    Document d's runs are ``at[at_off[d]:at_off[d + 1]]`` (in text order) and its distinct
    runs, sorted, ``pool[pool_off[d]:pool_off[d + 1]]``.
    """
    n = pi.shape[0]
    ci = np.zeros(n, dtype=np.int64)
    cj = np.zeros(n, dtype=np.int64)
    for k in range(n):
        a, b = pi[k], pj[k]
        ci[k] = _covered(at, at_off[a], at_off[a + 1], pool, pool_off[b], pool_off[b + 1], w)
        cj[k] = _covered(at, at_off[b], at_off[b + 1], pool, pool_off[a], pool_off[a + 1], w)
    return ci, cj
