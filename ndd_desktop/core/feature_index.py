"""Global feature ids for a collection of set sketches, and exact shared counts.

A :class:`FeatureIndex` numbers every distinct feature of a list of set sketches (sorted
unique uint64 arrays) and counts the documents holding it (its document frequency, df).
It is built with sorts over hash-range partitions of the flat feature array, so the
temporaries stay bounded by ``CHUNK_ENTRIES``. :func:`shared_counts` counts, for many
document pairs at once, the features each pair shares.
"""

from __future__ import annotations

import functools
import math
from typing import Sequence

import numpy as np

from .checkpoint import checkpoint
from .unique import sorted_unique

#: Entries per partition of the feature index and per verification batch.
CHUNK_ENTRIES = 4_000_000


def segment_positions(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Flat positions of the concatenated ranges [starts[k], starts[k] + lengths[k])."""
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=np.int64)
    before = np.cumsum(lengths) - lengths
    return np.repeat(np.asarray(starts, dtype=np.int64) - before, lengths) + np.arange(total, dtype=np.int64)


def unique_inverse_counts(values: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(number of distinct values, id of each value in sorted order of the distinct values,
    count of each id): np.unique's inverse and counts from one argsort and a mask (faster
    than np.unique on this workload)."""
    m = values.shape[0]
    if m == 0:
        return 0, np.empty(0, np.int64), np.empty(0, np.int64)
    if m < 1 << 32 and (values.dtype.itemsize <= 4 or int(values.max()) < 1 << 32):
        # 32-bit values (q-grams): each value and its position packed in one 64-bit word
        # and sorted, several times faster than an argsort; ties in any order, as argsort's
        key = values.astype(np.uint64) << np.uint64(32)
        key |= np.arange(m, dtype=np.uint64)
        key.sort()
        order = (key & np.uint64(0xFFFFFFFF)).astype(np.int64)
        s = key >> np.uint64(32)
    else:
        order = np.argsort(values)
        s = values[order]
    new = np.empty(m, dtype=bool)
    new[0] = True
    np.not_equal(s[1:], s[:-1], out=new[1:])
    ids = np.cumsum(new, dtype=np.int64)
    ids -= 1
    inv = np.empty(m, dtype=np.int64)
    inv[order] = ids
    starts = np.flatnonzero(new)
    counts = np.diff(np.append(starts, m)).astype(np.int64)
    return int(starts.shape[0]), inv, counts


class FeatureIndex:
    """Global feature ids and document frequencies for a list of set sketches.

    Attributes:
        n_docs: number of sketches; ``lengths``/``offsets`` locate each in the flat arrays.
        gid: flat array (doc-major, ascending within a document) of global feature ids;
            ids follow hash order. ``df``: documents holding each feature id.
    """

    def __init__(self, sketches: Sequence[np.ndarray]):
        self.n_docs = len(sketches)
        self.lengths = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=self.n_docs)
        self.offsets = np.concatenate(([0], np.cumsum(self.lengths))).astype(np.int64)
        total = int(self.offsets[-1])
        flat = np.concatenate(list(sketches)).astype(np.uint64, copy=False) if total else np.empty(0, np.uint64)
        if total <= CHUNK_ENTRIES:
            self.n_features, self.gid, self.df = unique_inverse_counts(flat)
            return
        # Hash-range partitions with edges at sample quantiles (bottom-k values are not
        # spread over the whole hash range). Each document's sketch is sorted, so its
        # entries in a partition are one contiguous run.
        n_parts = math.ceil(total / CHUNK_ENTRIES)
        sample = np.sort(flat[:: max(1, total // (64 * n_parts))])
        edges = sorted_unique(sample[(np.arange(1, n_parts) * sample.shape[0]) // n_parts])
        bounds = np.empty((self.n_docs, edges.shape[0] + 2), dtype=np.int64)
        bounds[:, 0] = 0
        for d, s in enumerate(sketches):
            bounds[d, 1:-1] = np.searchsorted(s, edges)
            bounds[d, -1] = s.shape[0]
        self.gid = np.empty(total, dtype=np.int64)
        dfs = []
        base = 0
        for p in range(edges.shape[0] + 1):
            pos = segment_positions(self.offsets[:-1] + bounds[:, p], bounds[:, p + 1] - bounds[:, p])
            n_uniq, inv, df = unique_inverse_counts(flat[pos])
            self.gid[pos] = inv + base
            base += n_uniq
            dfs.append(df)
        self.n_features = base
        self.df = np.concatenate(dfs) if dfs else np.empty(0, np.int64)

    @functools.cached_property
    def entry_docs(self) -> np.ndarray:
        """The document of every entry of ``gid`` (doc-major, so ascending)."""
        return np.repeat(np.arange(self.n_docs, dtype=np.int64), self.lengths)

    def ranks(self) -> np.ndarray:
        """Rank of every feature id in the global order: rarest first, ties by id."""
        order = np.argsort(self.df, kind="stable")
        rank = np.empty(self.n_features, dtype=np.int64)
        rank[order] = np.arange(self.n_features, dtype=np.int64)
        return rank

    def doc_batches(self, limit: int = CHUNK_ENTRIES):
        """Yield (first_doc, stop_doc) ranges holding about ``limit`` entries each."""
        start = 0
        while start < self.n_docs:
            checkpoint()
            stop = int(np.searchsorted(self.offsets, self.offsets[start] + limit, side="right")) - 1
            stop = min(max(stop, start + 1), self.n_docs)
            yield start, stop
            start = stop


def shared_counts(index: FeatureIndex, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Exact number of features shared by documents i[k] and j[k] (vectorised).

    The shorter sketch of each pair is looked up in the longer one with one
    ``searchsorted`` per batch over (target, feature id) keys.
    """
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    out = np.zeros(i.shape[0], dtype=np.int64)
    if i.shape[0] == 0:
        return out
    lens = index.lengths
    swap = lens[i] > lens[j]
    q = np.where(swap, j, i)
    t = np.where(swap, i, j)
    order = np.argsort(t, kind="stable")
    cum = np.cumsum(lens[q[order]])
    n_feat = np.int64(max(index.n_features, 1))
    start = 0
    while start < order.shape[0]:
        checkpoint()
        stop = int(np.searchsorted(cum, (cum[start - 1] if start else 0) + CHUNK_ENTRIES, side="right"))
        stop = min(max(stop, start + 1), order.shape[0])
        sel = order[start:stop]
        qq, tt = q[sel], t[sel]
        targets, tinv = np.unique(tt, return_inverse=True)
        tpos = segment_positions(index.offsets[targets], lens[targets])
        tkeys = np.repeat(np.arange(targets.shape[0], dtype=np.int64), lens[targets]) * n_feat + index.gid[tpos]
        qpos = segment_positions(index.offsets[qq], lens[qq])
        qkeys = np.repeat(tinv.reshape(-1).astype(np.int64), lens[qq]) * n_feat + index.gid[qpos]
        found = np.searchsorted(tkeys, qkeys)
        found[found >= tkeys.shape[0]] = 0
        hit = tkeys[found] == qkeys if tkeys.shape[0] else np.zeros(qkeys.shape[0], bool)
        owner = np.repeat(np.arange(sel.shape[0]), lens[qq])
        out[sel] = np.bincount(owner, weights=hit, minlength=sel.shape[0]).astype(np.int64)
        start = stop
    return out


def shared_count(a: np.ndarray, b: np.ndarray) -> int:
    """Number of values two sorted unique arrays share."""
    if a.shape[0] == 0 or b.shape[0] == 0:
        return 0
    if a.shape[0] > b.shape[0]:
        a, b = b, a
    pos = np.searchsorted(b, a)
    pos[pos >= b.shape[0]] = 0
    return int(np.count_nonzero(b[pos] == a))
