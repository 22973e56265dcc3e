"""A set of 64-bit hashes asked about many values at once.

The hybrid method asks, for every token of a batch of texts (hundreds of thousands), whether
its hash is that of a word the spelling corrector keeps (some 50,000). A binary search of a
sorted array jumps through the whole array for every value; an open-addressing table of
four times as many slots, indexed by a hash's top bits, answers most values with one read
of one slot (a second read when the slot holds another value), several times faster.

Values are used as they are, so they must already be well mixed (hashes). The table is
built once and rebuilt when values are added (:meth:`U64Set.union`).
"""

from __future__ import annotations

import numpy as np

from .unique import sorted_unique

_EMPTY = np.uint64(0)  # a free slot; the value 0 itself is kept aside (``_has_zero``)


class U64Set:
    """An immutable set of uint64 values with a vectorised membership test."""

    def __init__(self, values: np.ndarray | None = None) -> None:
        values = sorted_unique(np.asarray(values if values is not None else [], dtype=np.uint64))
        self._values = values  # sorted, distinct
        self._has_zero = bool(values.shape[0] and values[0] == _EMPTY)
        stored = values[1:] if self._has_zero else values
        bits = max(4, int(np.ceil(np.log2(max(stored.shape[0], 1) * 4))))
        self._mask = (1 << bits) - 1
        self._shift = np.uint64(64 - bits)
        self._table = np.zeros(1 << bits, dtype=np.uint64)
        self._fill(stored)

    def _fill(self, values: np.ndarray) -> None:
        """Place each value in its home slot, or in the next free one after it (linear
        probing), all values at once, one round per step along the table."""
        table, mask = self._table, self._mask
        pending = np.arange(values.shape[0])
        slots = (values >> self._shift).astype(np.intp)
        while pending.shape[0]:
            s = slots[pending]
            free = np.flatnonzero(table[s] == _EMPTY)
            # of the values that want one free slot, the first takes it
            taken, first = np.unique(s[free], return_index=True)
            table[taken] = values[pending[free[first]]]
            placed = np.zeros(pending.shape[0], dtype=bool)
            placed[free[first]] = True
            pending = pending[~placed]
            slots[pending] = (slots[pending] + 1) & mask

    def __len__(self) -> int:
        return int(self._values.shape[0])

    def values(self) -> np.ndarray:
        """The values, sorted."""
        return self._values

    def contains(self, h: np.ndarray) -> np.ndarray:
        """A bool array: which values of the uint64 array ``h`` are in the set."""
        h = np.asarray(h, dtype=np.uint64)
        table, mask = self._table, self._mask
        at = (h >> self._shift).astype(np.intp)
        found = table[at]
        out = found == h
        # a slot holding another value: look on until the value or a free slot
        active = np.flatnonzero(~out & (found != _EMPTY))
        while active.shape[0]:
            step = (at[active] + 1) & mask
            at[active] = step
            found = table[step]
            hit = found == h[active]
            out[active[hit]] = True
            active = active[~hit & (found != _EMPTY)]
        if self._has_zero:
            out |= h == _EMPTY
        else:
            out &= h != _EMPTY  # a free slot read by the value 0
        return out

    def union(self, more: np.ndarray) -> U64Set:
        """A new set of these values and ``more``."""
        more = np.asarray(more, dtype=np.uint64)
        if more.shape[0] == 0:
            return self
        return U64Set(np.concatenate((self._values, more)))
