"""Exact shared counts of every pair of a small collection, from a matrix product.

For up to a few thousand documents whose sets overlap heavily (the revisions of one
policy, one form filled in many times, English text cut into character 4-grams) the exact
joins of :mod:`core.inverted_index` spend their time on the long posting lists of common
features: count mode pays sum(df^2)/2 pair increments, and the rarest-first prefixes emit
nearly every pair. Here the common features become the columns of a 0/1 matrix X
(documents x features, float32, a block of columns at a time) and X X^T, accumulated by
BLAS as a symmetric rank-k update, holds for every pair the number of common features it
shares. A multiply-add costs about 0.02 ns of CPU there against tens of nanoseconds for a
pair increment in numpy, and BLAS runs without holding the GIL, so the window stays
responsive. The rare features, cheap pair by pair, are left to the caller's pair counter,
which adds its counts to the matrix chunk by chunk.

Counts are exact: float32 holds every integer below 2^24, and plans are refused for
sketches that long.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .checkpoint import checkpoint

#: Largest collection joined this way: the count matrix is n x n float32 (64 MB at 4096).
DENSE_MAX_DOCS = 4096
#: Estimated CPU seconds above which the plan is not worth it (prefix filtering or banded
#: search is used instead).
DENSE_MAX_SECONDS = 2.0
#: CPU seconds per multiply-add of the symmetric update (n^2 F / 2 of them), measured on
#: the 2-core x86_64 machine of docs/performance.md with numpy's OpenBLAS: 0.019 ns for the
#: product alone, 0.022-0.027 ns with building the blocks (1,000-4,000 documents).
SECONDS_PER_MADD = 3e-11
#: CPU seconds per pair increment of the sparse counter (pairs generated posting list by
#: posting list, counted per chunk and added to the matrix), measured the same way:
#: 0.07-0.17 us.
SECONDS_PER_PAIR = 1.2e-7
#: Matrix cells per column block of X (32 MB of float32).
_BLOCK_CELLS = 1 << 23
#: Cells of the count matrix scanned per step when pairs are read out.
_READ_CELLS = 1 << 22
_EXACT_LIMIT = 1 << 24


@dataclass(frozen=True)
class DensePlan:
    """Which features go into the matrix product, and what the plan costs.

    ``dense`` marks the feature ids counted by the product (document frequency above
    ``threshold``); the features with 2 <= df <= threshold are counted pair by pair
    (``sparse_pairs`` increments). ``madds`` is n^2 F / 2 for F dense features.
    """

    dense: np.ndarray
    threshold: int
    madds: float
    sparse_pairs: int
    seconds: float


def plan(df: np.ndarray, n_docs: int, max_len: int) -> DensePlan | None:
    """The cheapest split of the features between product and pair counter, or None when
    the collection is too large for an n x n matrix or a sketch too long for float32.

    Features are split at a document-frequency threshold t: those with df <= t go to the
    pair counter (df (df - 1) / 2 increments each), the others into the product (n^2 / 2
    multiply-adds each). Every distinct df value is tried as t.
    """
    if n_docs < 2 or n_docs > DENSE_MAX_DOCS or max_len >= _EXACT_LIMIT:
        return None
    df = np.asarray(df, dtype=np.int64)
    values, counts = np.unique(df[df >= 2], return_counts=True)
    if values.shape[0] == 0:
        return None
    # Threshold t = values[k - 1] (k = 0: everything dense): sparse cost of the k rarest
    # df values, dense cost of the rest.
    sparse = np.concatenate(([0], np.cumsum(values * (values - 1) // 2 * counts)))
    dense_features = np.concatenate((np.cumsum(counts[::-1])[::-1], [0]))
    madds = dense_features.astype(np.float64) * (float(n_docs) ** 2 / 2.0)
    seconds = madds * SECONDS_PER_MADD + sparse * SECONDS_PER_PAIR
    k = int(np.argmin(seconds))
    threshold = int(values[k - 1]) if k else 1
    return DensePlan(
        dense=df > threshold,
        threshold=threshold,
        madds=float(madds[k]),
        sparse_pairs=int(sparse[k]),
        seconds=float(seconds[k]),
    )


def dense_counts(gid: np.ndarray, docs: np.ndarray, dense: np.ndarray, n_docs: int) -> np.ndarray:
    """n x n float32 matrix: entry (a, b) = features marked in ``dense`` that documents a
    and b share (a != b; the diagonal holds each document's own count).

    ``gid``/``docs`` are the (feature id, document) entries of the collection, a feature at
    most once per document.
    """
    out = np.zeros((n_docs, n_docs), dtype=np.float32)
    sel = np.flatnonzero(dense[gid])
    if sel.shape[0] == 0:
        return out
    column_of = np.cumsum(dense) - 1
    cols = column_of[gid[sel]]
    rows = docs[sel]
    n_cols = int(column_of[-1]) + 1
    width = max(256, _BLOCK_CELLS // n_docs)
    n_blocks = -(-n_cols // width)
    block = (cols // width).astype(np.uint16 if n_blocks < 1 << 16 else np.int64)
    order = np.argsort(block, kind="stable")  # radix sort on uint16
    bounds = np.searchsorted(block[order], np.arange(n_blocks + 1))
    x = np.empty((n_docs, min(width, n_cols)), dtype=np.float32)
    for b in range(n_blocks):
        checkpoint()
        part = order[bounds[b] : bounds[b + 1]]
        if part.shape[0] == 0:
            continue
        x.fill(0.0)
        x[rows[part], cols[part] - b * width] = 1.0
        out += x @ x.T  # numpy hands X X^T to BLAS as a symmetric rank-k update
    return out


def qualifying_pairs(
    counts: np.ndarray,
    lengths: np.ndarray,
    floor: float,
    resemblance: bool,
    keep: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    eps: float = 1e-9,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(i, j, shared) for i < j with shared > 0 and shared / max (or / min) of the two
    lengths >= floor, read from the upper triangle of ``counts`` a block of rows at a time;
    ``keep`` may drop more pairs."""
    n = counts.shape[0]
    lengths = np.asarray(lengths, dtype=np.int64)
    rows_per = max(1, _READ_CELLS // max(n, 1))
    col = np.arange(n, dtype=np.int64)
    out_i, out_j, out_s = [], [], []
    for r0 in range(0, n, rows_per):
        checkpoint()
        r1 = min(n, r0 + rows_per)
        block = counts[r0:r1]
        ok = block > 0
        ok &= col[None, :] > np.arange(r0, r1, dtype=np.int64)[:, None]
        li = lengths[r0:r1, None]
        lj = lengths[None, :]
        denom = np.maximum(li, lj) if resemblance else np.minimum(li, lj)
        ok &= block >= floor * denom - eps * denom
        a, b = np.nonzero(ok)
        shared = block[a, b].astype(np.int64)
        a = a.astype(np.int64) + r0
        b = b.astype(np.int64)
        if keep is not None and a.shape[0]:
            mask = keep(a, b)
            a, b, shared = a[mask], b[mask], shared[mask]
        out_i.append(a)
        out_j.append(b)
        out_s.append(shared)
    if not out_i:
        e = np.empty(0, dtype=np.int64)
        return e, e.copy(), e.copy()
    return np.concatenate(out_i), np.concatenate(out_j), np.concatenate(out_s)
