"""A stored value per document pair, looked up without a dict of every pair.

Pair sets reach 100k+ pairs (site_policy: 127,423); a Python dict of them costs ~0.15 s to
build each time the threshold moves, while the callers look up a handful of pairs.
"""

from __future__ import annotations

import numpy as np


class PairLookup:
    """The stored value of a pair (a < b), looked up in the sorted pair codes; answers
    ``get`` like a dict of every pair without building one (100k+ pairs). Without
    ``value`` it only finds where each pair is (:meth:`indices`)."""

    def __init__(self, a: np.ndarray, b: np.ndarray, value: np.ndarray | None = None):
        self._span = int(max(a.max(initial=0), b.max(initial=0))) + 1
        codes = a.astype(np.int64) * self._span + b.astype(np.int64)
        self._order = np.argsort(codes, kind="stable")
        self._codes = codes[self._order]
        self._value = None if value is None else np.asarray(value, dtype=np.float64)
        #: no pair is given twice
        self.distinct = not bool((self._codes[1:] == self._codes[:-1]).any())

    def indices(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The position of each pair (a < b) in the arrays given, -1 where it is not there."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        out = np.full(a.shape[0], -1, dtype=np.int64)
        inside = (a >= 0) & (a < self._span) & (b >= 0) & (b < self._span)
        if self._codes.shape[0] == 0 or not inside.any():
            return out
        codes = a[inside] * self._span + b[inside]
        k = np.minimum(np.searchsorted(self._codes, codes), self._codes.shape[0] - 1)
        found = self._codes[k] == codes
        out[np.flatnonzero(inside)[found]] = self._order[k[found]]
        return out

    def values(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The values of many pairs at once, NaN where a pair is not stored."""
        idx = self.indices(a, b)
        out = np.full(idx.shape[0], np.nan)
        hit = idx >= 0
        out[hit] = self._value[idx[hit]]
        return out

    def get(self, pair: tuple[int, int], default: float | None = None) -> float | None:
        a, b = pair
        if not (0 <= a < self._span and 0 <= b < self._span):
            return default
        code = a * self._span + b
        k = int(self._codes.searchsorted(code))
        if k < self._codes.shape[0] and int(self._codes[k]) == code:
            return float(self._value[self._order[k]])
        return default
