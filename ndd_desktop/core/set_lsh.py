"""Banded one-permutation MinHash candidates for large collections of set sketches.

Used by :func:`core.inverted_index.overlap_join` when exact prefix filtering would emit
too many pairs. Character q-grams live in a small universe (26^4 letter 4-grams), so in
a large collection every q-gram, even a document's rarest, is shared by a share of the
documents that grows with the collection: any index over single features then emits a
number of pairs that grows with N^2. Bands of r hashed-together values make keys from a
huge universe, so unrelated documents rarely collide.

One-permutation hashing: each set's values are remixed, the hash range is cut into t
bins and a bin's value is the smallest remixed value in it; an empty bin borrows its next
non-empty neighbour's value, mixed with the distance (densification). Two sets agree in a
bin with probability about their Jaccard similarity J. With b bands of r bins, a pair
becomes a candidate with probability 1 - (1 - J^r)^b; :func:`choose_bands` picks r and b
so that a pair at the design similarity is found with probability >= ``target``.
Candidates are then thinned by the share of agreeing bins (an estimate of J) with a
margin of five standard errors, and verified exactly by the caller.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .hashing import mix64

_SEED = 0x5E7
#: Sets with a median size below this get k-mins signatures of SMALL_T independent remixes.
SMALL_SET = 512
SMALL_T = 256


def choose_bands(t_max: int, jaccard: float, target: float = 0.995) -> tuple[int, int]:
    """(b, r): the most selective banding of at most ``t_max`` bins that finds a pair of
    Jaccard ``jaccard`` with probability >= ``target`` (r = 1 if none does)."""
    best = (max(1, t_max), 1)
    for r in range(1, 9):
        b = t_max // r
        if b >= 1 and 1.0 - (1.0 - jaccard**r) ** b >= target:
            best = (b, r)
    return best


def signatures(sketches: Sequence[np.ndarray], t: int) -> np.ndarray:
    """(N, t) uint32 one-permutation MinHash signatures; an empty set gets all zeros."""
    sig = np.zeros((len(sketches), t), dtype=np.uint32)
    edges = np.array([(k << 64) // t for k in range(1, t)], dtype=np.uint64)
    bins = np.arange(t)
    for d, s in enumerate(sketches):
        if s.shape[0] == 0:
            continue
        v = np.sort(mix64(s, _SEED))
        starts = np.concatenate(([0], np.searchsorted(v, edges)))
        ends = np.append(starts[1:], v.shape[0])
        filled = np.flatnonzero(starts < ends)
        vals = v[np.minimum(starts, v.shape[0] - 1)]
        nxt = filled[np.searchsorted(filled, bins) % filled.shape[0]]
        dist = (nxt - bins) % t
        out = vals[nxt]
        empty = dist > 0
        out[empty] = mix64(out[empty] + dist[empty].astype(np.uint64), _SEED + 1)
        sig[d] = (out & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return sig


def kmins_signatures(sketches: Sequence[np.ndarray], t: int) -> np.ndarray:
    """(N, t) uint32 MinHash signatures with t independent remixes (for small sets, where
    one-permutation bins would be mostly empty); an empty set gets all zeros."""
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    sig = np.zeros((len(sketches), t), dtype=np.uint32)
    filled = np.flatnonzero(lens > 0)
    if filled.shape[0] == 0:
        return sig
    flat = np.concatenate([sketches[d] for d in filled]).astype(np.uint64)
    starts = np.concatenate(([0], np.cumsum(lens[filled])[:-1]))
    for k in range(t):
        sig[filled, k] = (np.minimum.reduceat(mix64(flat, _SEED + 3 + k), starts) & np.uint64(0xFFFFFFFF)).astype(
            np.uint32
        )
    return sig


def band_candidates(sig: np.ndarray, b: int, r: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) that agree on all r values of at least one of b bands."""
    from .inverted_index import _count_groups  # the shared pair emitter

    n = sig.shape[0]
    keys = np.zeros((n, b), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(r):
            # Band β takes bins β, β + b, β + 2b, ...: far apart, so a densified run of
            # neighbouring bins never fills one band.
            keys = keys * np.uint64(0x100000001B3) + sig[:, k * b : (k + 1) * b].astype(np.uint64)
        keys = mix64(keys ^ np.arange(b, dtype=np.uint64)[None, :], _SEED + 2)
    docs = np.repeat(np.arange(n, dtype=np.int64), b)
    flat = keys.reshape(-1)
    order = np.lexsort((docs, flat))
    flat, docs = flat[order], docs[order]
    dup = np.concatenate(([False], (flat[1:] == flat[:-1]) & (docs[1:] == docs[:-1])))
    pair_keys, _ = _count_groups(flat[~dup], docs[~dup], n, None)
    return pair_keys // n, pair_keys % n


def agreement(sig: np.ndarray, i: np.ndarray, j: np.ndarray, batch: int = 200_000) -> np.ndarray:
    """Share of bins on which the signatures of i[k] and j[k] agree (estimates Jaccard)."""
    out = np.empty(i.shape[0], dtype=np.float64)
    for s in range(0, i.shape[0], batch):
        out[s : s + batch] = (sig[i[s : s + batch]] == sig[j[s : s + batch]]).mean(axis=1)
    return out


def lsh_pairs(
    sketches: Sequence[np.ndarray], jaccard: float, keep_jaccard: float, t_max: int = 2048
) -> tuple[np.ndarray, np.ndarray]:
    """Candidate pairs likely (>= 99.5 %) to include every pair of Jaccard >= ``jaccard``.

    Band collisions whose estimated Jaccard is clearly below ``keep_jaccard`` are dropped.
    """
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    nonzero = lens[lens > 0]
    if nonzero.shape[0] < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    small = float(np.median(nonzero)) < SMALL_SET
    b, r = choose_bands(t_max if not small else SMALL_T, jaccard)
    t = b * r
    sig = kmins_signatures(sketches, t) if small else signatures(sketches, t)
    i, j = band_candidates(sig, b, r)
    ok = (lens[i] > 0) & (lens[j] > 0)
    i, j = i[ok], j[ok]
    margin = 5.0 * math.sqrt(max(keep_jaccard * (1.0 - keep_jaccard), 0.01) / t)
    keep = agreement(sig, i, j) >= keep_jaccard - margin
    return i[keep], j[keep]
