"""Candidate pairs from MinHash sketches: Broder's features (LSH banding) and his sort-based
clustering.

Broder (004): split a sketch of k*s minima into k groups of s values and fingerprint each
group into a *feature*; two documents of resemblance x share a given feature with
probability x^s, so they share at least r of the k features with probability

    P(k, s, r)(x) = sum_{i >= r} C(k, i) p^i (1 - p)^(k - i),  p = x^s.

With r = 1 this is the LSH banding curve 1 - (1 - x^s)^k (k bands of s rows). Candidate
generation is a group-by over the feature keys (one sort), no loop per document.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .checkpoint import checkpoint
from .hashing import mix64

#: A bucket bigger than this is not expanded into all its pairs: each member is paired with
#: the next MAX_BUCKET - 1 members in a per-feature random order (bounded work on
#: boilerplate; clusters stay connected).
MAX_BUCKET = 2000
#: Recall the automatic filter guarantees at the floor.
AUTO_RECALL = 0.99
_FEATURE_BASE = np.uint64(0xC2B2AE3D27D4EB4F)  # a different "polynomial" from core.hashing
_FEATURE_SEED = 0xFEA7


def unique_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values of a 1-D array and how often each occurs (one sort; faster
    than ``np.unique``, whose hash-based path is slow on large integer arrays)."""
    x = np.sort(x)
    if x.shape[0] == 0:
        return x, np.empty(0, dtype=np.int64)
    new = np.empty(x.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(x[1:], x[:-1], out=new[1:])
    first = np.flatnonzero(new)
    return x[first], np.diff(np.append(first, x.shape[0]))


def acceptance_probability(x: np.ndarray, k: int, s: int, r: int = 1) -> np.ndarray:
    """P(k, s, r)(x): probability that a pair of resemblance x shares >= r of k features."""
    x = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
    p = x**s
    if r <= 0:
        return np.ones_like(p)
    if r == 1:
        with np.errstate(divide="ignore"):
            return -np.expm1(k * np.log1p(-p))  # 1 - (1 - p)^k, accurate for small p
    # 1 - P(fewer than r shared), summed in the short direction.
    q = 1.0 - p
    below = np.zeros_like(p)
    for i in range(min(r, k + 1)):
        below += math.comb(k, i) * p**i * q ** (k - i)
    return np.clip(1.0 - below, 0.0, 1.0)


def choose_filter(floor: float, t: int, recall: float = AUTO_RECALL) -> tuple[int, int, int]:
    """The banding (k = t // s bands of s rows, r = 1) with the largest s that still finds a
    pair of resemblance ``floor`` with probability >= ``recall`` (s = 1 when none does)."""
    best = (t, 1, 1)
    for s in range(1, t + 1):
        k = t // s
        if float(acceptance_probability(floor, k, s, 1)) >= recall:
            best = (k, s, 1)
        else:
            break
    return best


def feature_keys(minima: np.ndarray, k: int, s: int, seed: int = _FEATURE_SEED) -> np.ndarray:
    """(N, k) uint64 features: group g fingerprints minima[:, g*s:(g+1)*s] and its number g.

    Features of different groups never share a key by construction of the group number.
    """
    n = minima.shape[0]
    if k * s > minima.shape[1]:
        raise ValueError(f"k * s = {k * s} exceeds the sketch length {minima.shape[1]}")
    groups = minima[:, : k * s].reshape(n, k, s).astype(np.uint64)
    with np.errstate(over="ignore"):
        h = groups[:, :, 0] + np.arange(k, dtype=np.uint64) * _FEATURE_BASE
        for j in range(1, s):
            h = h * _FEATURE_BASE + groups[:, :, j]
    return mix64(h, seed)


def _run_pairs(members: np.ndarray, run_end: np.ndarray, cap: int | None) -> list[np.ndarray]:
    """All (members[p], members[p + d]) with p + d inside p's run and d < cap, as codes."""
    out = []
    active = np.flatnonzero(run_end - np.arange(members.shape[0]) > 1)
    d = 1
    while active.shape[0] and (cap is None or d < cap):
        nxt = active + d
        ok = nxt < run_end[active]
        active, nxt = active[ok], nxt[ok]
        if active.shape[0]:
            out.append(np.stack((members[active], members[nxt]), axis=1))
        d += 1
    return out


#: Low bits of a packed (key, document) word that hold the document (see _bucket_pairs_flat).
_DOC_BITS = 24
_PACK_SEED = 0x9AC4


def _bucket_pairs_flat(
    keys: np.ndarray, docs: np.ndarray, cap: int | None, salt: int, exact: bool = True
) -> np.ndarray:
    """Pairs (i < j) of documents sharing a key in one flat (key, document) list.

    With ``exact=False`` (candidates that are verified later) and fewer than 2^24
    documents, the top 40 bits of each (remixed) key and the document share one uint64 and
    a plain sort replaces the stable argsort and two gathers (several times faster); a
    chance match of two 40-bit keys only adds a candidate."""
    if not exact and docs.shape[0] and int(docs.max()) < 1 << _DOC_BITS:
        packed = mix64(keys.astype(np.uint64), _PACK_SEED) >> np.uint64(_DOC_BITS) << np.uint64(_DOC_BITS)
        packed |= docs.astype(np.uint64)
        packed.sort()
        skeys = packed >> np.uint64(_DOC_BITS)
        sdocs = (packed & np.uint64((1 << _DOC_BITS) - 1)).astype(np.int64)
    else:
        order = np.argsort(keys, kind="stable")
        skeys, sdocs = keys[order], docs[order]
    n = skeys.shape[0]
    if n < 2:
        return np.empty((0, 2), dtype=np.int64)
    boundary = np.empty(n, dtype=bool)
    boundary[0] = True
    np.not_equal(skeys[1:], skeys[:-1], out=boundary[1:])
    starts = np.flatnonzero(boundary)
    lengths = np.diff(np.append(starts, n))
    if lengths.max() < 2:
        return np.empty((0, 2), dtype=np.int64)
    run_end = np.repeat(starts + lengths, lengths)
    if cap is not None and lengths.max() > cap:
        # Shuffle the members of oversized buckets (differently per feature) before windowing.
        big = np.repeat(lengths > cap, lengths)
        pos = np.flatnonzero(big)
        tie = mix64(sdocs[pos].astype(np.uint64), salt)
        sub = np.lexsort((tie, run_end[pos]))
        sdocs[pos] = sdocs[pos][sub]
    parts = _run_pairs(sdocs, run_end, cap)
    if not parts:
        return np.empty((0, 2), dtype=np.int64)
    pairs = np.concatenate(parts)
    if not exact:  # two keys of one document can meet in 40 bits
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    return np.sort(pairs, axis=1)


def bucket_pairs(keys: np.ndarray, r: int = 1, max_bucket: int | None = MAX_BUCKET) -> np.ndarray:
    """Pairs (m, 2) int64, i < j, of rows of ``keys`` (N, k) sharing >= r keys.

    Keys of different columns must differ (see :func:`feature_keys`). Columns are grouped
    a few at a time to bound memory; pair codes i * N + j are deduplicated (and counted
    when r > 1) with one sort (:func:`unique_counts`). Keys are compared on their top 40
    bits (see :func:`_bucket_pairs_flat`), so a rare chance match adds a pair: the result
    is a candidate set, to be verified.
    """
    n, k = keys.shape
    if n < 2 or k == 0:
        return np.empty((0, 2), dtype=np.int64)
    per_round = max(1, (1 << 22) // n)
    codes, counts = [], []
    for lo in range(0, k, per_round):
        checkpoint()
        sub = keys[:, lo : lo + per_round]
        docs = np.repeat(np.arange(n, dtype=np.int64)[:, None], sub.shape[1], axis=1).ravel()
        pairs = _bucket_pairs_flat(sub.ravel(), docs, max_bucket, salt=lo, exact=False)
        c = pairs[:, 0] * n + pairs[:, 1]
        u, cnt = unique_counts(c)
        codes.append(u)
        counts.append(cnt)
    allc = np.concatenate(codes)
    if r <= 1:
        u = unique_counts(allc)[0]
    else:
        order = np.argsort(allc, kind="stable")
        allc, cnt = allc[order], np.concatenate(counts)[order]
        new = np.ones(allc.shape[0], dtype=bool)
        new[1:] = allc[1:] != allc[:-1]
        first = np.flatnonzero(new)
        u = allc[first][np.add.reduceat(cnt, first) >= r] if first.shape[0] else allc
    return np.stack((u // n, u % n), axis=1).astype(np.int64)


def sort_based_pairs(
    shingle_sets: Sequence[np.ndarray], threshold: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Broder's exact clustering phases 2-3: (pairs (m,2), shared counts, resemblance).

    Expand every document's distinct shingles into (shingle, id) pairs, sort by shingle,
    emit an (id, id) pair for every two documents under one shingle, and merge-count the
    pairs. Resemblance = shared / (|A| + |B| - shared); pairs below ``threshold`` are
    dropped. Quadratic in the number of documents sharing a shingle: for small collections
    and tests.
    """
    sets = [unique_counts(np.asarray(s, dtype=np.uint64))[0] for s in shingle_sets]
    sizes = np.array([s.shape[0] for s in sets], dtype=np.int64)
    n = len(sets)
    if n < 2 or sizes.sum() == 0:
        empty = np.empty(0, dtype=np.int64)
        return np.empty((0, 2), dtype=np.int64), empty, empty.astype(np.float64)
    shingles = np.concatenate(sets)
    ids = np.repeat(np.arange(n, dtype=np.int64), sizes)
    pairs = _bucket_pairs_flat(shingles, ids, None, 0)
    codes, shared = unique_counts(pairs[:, 0] * n + pairs[:, 1])
    pairs = np.stack((codes // n, codes % n), axis=1)
    union = sizes[pairs[:, 0]] + sizes[pairs[:, 1]] - shared
    resemblance = shared / union
    keep = resemblance >= threshold
    return pairs[keep], shared[keep], resemblance[keep]


def sort_based_clusters(shingle_sets: Sequence[np.ndarray], threshold: float) -> np.ndarray:
    """Broder's phase 4: union-find over the pairs with resemblance >= threshold.

    Returns a label per document (the smallest document index of its cluster).
    """
    pairs, _, _ = sort_based_pairs(shingle_sets, threshold)
    parent = np.arange(len(shingle_sets))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for i, j in pairs:
        ri, rj = find(int(i)), find(int(j))
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    return np.array([find(a) for a in range(len(shingle_sets))], dtype=np.int64)
