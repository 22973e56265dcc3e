"""Exact shared counts of candidate pairs of set sketches, without a feature index.

The banded search (:mod:`core.set_lsh`) ends in candidates that must be verified exactly.
Building a feature index over every document involved costs more than looking at each
pair's own two sketches, so: small sketches (bottom-k) sit in a padded matrix and each
pair's two rows are sorted together (:func:`padded_shared_counts`); large sketches (qgram's
32-bit sets, hybrid's 64-bit ones) are merged pair by pair, batch by batch, in a compiled loop (:func:`merge_shared_counts`;
a stable sort of each batch's values, which it replaced, took 20x longer).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from .checkpoint import checkpoint
from .sketch_batches import gather, sketch_sizes

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
    """Exact number of values shared by sketches i[k] and j[k] (sorted unique arrays of one
    integer type: uint32 for qgram, uint64 for the word shingles of hybrid and fingerprint).

    Pairs are taken in batches of about ``batch_entries`` values; the i sides and the j
    sides of a batch are laid end to end and each pair's two sorted runs are merged by a
    compiled loop (:func:`_merged_counts`), which counts the equal values.
    """
    m = i.shape[0]
    out = np.zeros(m, dtype=np.int64)
    if m == 0:
        return out
    lens = sketch_sizes(sketches)
    cum = np.cumsum(lens[i] + lens[j])
    start = 0
    while start < m:
        checkpoint()
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + batch_entries, side="right"))
        stop = min(max(stop, start + 1), m)
        a, a_off = gather(sketches, i[start:stop])
        b, b_off = gather(sketches, j[start:stop])
        out[start:stop] = _merged_counts(a, a_off, b, b_off)
        start = stop
    return out


@njit(cache=True, nogil=True)
def _merged_counts(a: np.ndarray, a_off: np.ndarray, b: np.ndarray, b_off: np.ndarray) -> np.ndarray:
    """For each k: how many values a[a_off[k]:a_off[k + 1]] and b[b_off[k]:b_off[k + 1]]
    (each sorted, distinct) share."""
    out = np.zeros(a_off.shape[0] - 1, dtype=np.int64)
    for k in range(out.shape[0]):
        x, x1 = a_off[k], a_off[k + 1]
        y, y1 = b_off[k], b_off[k + 1]
        c = 0
        while x < x1 and y < y1:
            if a[x] < b[y]:
                x += 1
            elif b[y] < a[x]:
                y += 1
            else:
                c += 1
                x += 1
                y += 1
        out[k] = c
    return out
