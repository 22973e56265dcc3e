"""A stored value per document pair, looked up without a dict of every pair.

Pair sets reach 100k+ pairs (site_policy: 127,423); a Python dict of them costs ~0.15 s to
build each time the threshold moves, while the callers look up a handful of pairs.
"""

from __future__ import annotations

import numpy as np


class PairLookup:
    """The stored value of a pair (a < b), looked up in the sorted pair codes; answers
    ``get`` like a dict of every pair without building one (100k+ pairs)."""

    def __init__(self, a: np.ndarray, b: np.ndarray, value: np.ndarray):
        self._span = int(max(a.max(initial=0), b.max(initial=0))) + 1
        codes = a.astype(np.int64) * self._span + b.astype(np.int64)
        order = np.argsort(codes, kind="stable")
        self._codes = codes[order]
        self._values = np.asarray(value, dtype=np.float64)[order]

    def values(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The values of many pairs at once, NaN where a pair is not stored."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        out = np.full(a.shape[0], np.nan)
        inside = (a >= 0) & (a < self._span) & (b >= 0) & (b < self._span)
        if self._codes.shape[0] == 0 or not inside.any():
            return out
        codes = a[inside] * self._span + b[inside]
        k = np.minimum(np.searchsorted(self._codes, codes), self._codes.shape[0] - 1)
        found = self._codes[k] == codes
        out[np.flatnonzero(inside)[found]] = self._values[k[found]]
        return out

    def get(self, pair: tuple[int, int], default: float | None = None) -> float | None:
        a, b = pair
        if not (0 <= a < self._span and 0 <= b < self._span):
            return default
        code = a * self._span + b
        k = int(self._codes.searchsorted(code))
        if k < self._codes.shape[0] and int(self._codes[k]) == code:
            return float(self._values[k])
        return default
