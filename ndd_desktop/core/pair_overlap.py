"""Exact shared counts of candidate pairs of set sketches, without a feature index.

The banded search (:mod:`core.set_lsh`) ends in candidates that must be verified exactly.
Building a feature index over every document involved costs more than looking at each
pair's own two sketches, so: small sketches (bottom-k) sit in a padded matrix and each
pair's two rows are sorted together (:func:`padded_shared_counts`); large 32-bit sketches
(qgram) are merged pair by pair, batch by batch (:func:`merge_shared_counts`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .checkpoint import checkpoint

#: Sketch values handled at once when candidates are verified.
BATCH_ENTRIES = 8_000_000
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def padded_matrix(sketches: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(N, max length) uint64 matrix of the sketches padded with 2^64 - 1, and lengths."""
    n = len(sketches)
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=n)
    width = max(int(lens.max()) if n else 0, 1)
    full = np.full((n, width), _ONES, dtype=np.uint64)
    if int(lens.sum()):
        valid = np.arange(width)[None, :] < lens[:, None]
        full[valid] = np.concatenate([s for s in sketches if s.shape[0]]).astype(np.uint64)
    return full, lens


def padded_shared_counts(full: np.ndarray, i: np.ndarray, j: np.ndarray, batch: int = 8192) -> np.ndarray:
    """Exact shared values of rows i[k] and j[k] of a padded sketch matrix (:func:`padded_matrix`):
    the two rows are sorted together and equal neighbours counted (the padding value
    2^64 - 1 is never counted)."""
    out = np.empty(i.shape[0], dtype=np.int64)
    for s in range(0, i.shape[0], batch):
        z = np.concatenate([full[i[s : s + batch]], full[j[s : s + batch]]], axis=1)
        z.sort(axis=1)
        out[s : s + batch] = ((z[:, 1:] == z[:, :-1]) & (z[:, 1:] != _ONES)).sum(axis=1)
    return out


def merge_shared_counts(
    sketches: Sequence[np.ndarray], i: np.ndarray, j: np.ndarray, batch_entries: int = BATCH_ENTRIES
) -> np.ndarray:
    """Exact number of values shared by sketches i[k] and j[k] (sorted unique uint32 arrays).

    Pairs are taken in batches; the sketches of pair p become keys p * 2^32 + value, so
    the i side and the j side of a batch are each one sorted run, a stable sort (merge of
    two runs) puts equal keys side by side, and equal neighbours are the shared values.
    """
    m = i.shape[0]
    out = np.zeros(m, dtype=np.int64)
    if m == 0:
        return out
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    cum = np.cumsum(lens[i] + lens[j])
    start = 0
    while start < m:
        checkpoint()
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + batch_entries, side="right"))
        stop = min(max(stop, start + 1), m)
        ii, jj = i[start:stop], j[start:stop]
        tag = np.arange(stop - start, dtype=np.uint64) << np.uint64(32)
        a = np.concatenate([sketches[d] for d in ii]).astype(np.uint64)
        a |= np.repeat(tag, lens[ii])
        bb = np.concatenate([sketches[d] for d in jj]).astype(np.uint64)
        bb |= np.repeat(tag, lens[jj])
        z = np.concatenate((a, bb))
        del a, bb
        z.sort(kind="stable")
        eq = z[1:][z[1:] == z[:-1]]
        out[start:stop] = np.bincount((eq >> np.uint64(32)).astype(np.intp), minlength=stop - start)
        start = stop
    return out
