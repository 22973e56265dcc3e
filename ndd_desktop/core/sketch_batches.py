"""The sizes of a collection's sketches and their values batch by batch, from a plain list
of arrays or from a sequence that keeps them elsewhere.

A method's search is handed its sketches as a sequence of arrays. A list holds them all in
memory; the store can instead hand out a sequence whose sketches wait in a file
(``store.sketch_spool``), so that the memory of a scan does not grow with the collection.
Such a sequence offers three things the searches use instead of touching every sketch:
``sizes`` (the number of values of each sketch), ``dtype`` and ``gather(docs)`` (the
values of some documents end to end, read in one go where they lie together). The
functions here use them when they are there and fall back to the arrays otherwise.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


def sketch_sizes(sketches: Sequence[np.ndarray]) -> np.ndarray:
    """int64: the number of values of each sketch."""
    sizes = getattr(sketches, "sizes", None)
    if sizes is not None:
        return np.asarray(sizes, dtype=np.int64)
    return np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))


def sketch_dtype(sketches: Sequence[np.ndarray]) -> np.dtype | None:
    """The one dtype of all sketches, or None when they differ (or there are none)."""
    dtype = getattr(sketches, "dtype", None)
    if dtype is not None:
        return np.dtype(dtype)
    kinds = {s.dtype for s in sketches}
    return kinds.pop() if len(kinds) == 1 else None


def gather(sketches: Sequence[np.ndarray], docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets): the sketches of ``docs`` end to end, document k's values at
    values[offsets[k] : offsets[k + 1]]."""
    own = getattr(sketches, "gather", None)
    if own is not None:
        return own(docs)
    parts = [sketches[d] for d in np.asarray(docs).tolist()]
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter((p.shape[0] for p in parts), dtype=np.int64, count=len(parts)), out=offsets[1:])
    values = np.concatenate(parts) if parts else np.empty(0, dtype=sketch_dtype(sketches) or np.uint32)
    return values, offsets
