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
import sys
from typing import Sequence

import numpy as np

from .checkpoint import checkpoint
from .hashing import mix64
from .band_grouping import installed
from .key_runs import run_pairs
from .top_bits_sort import sort_uniform
from .unique import sorted_unique

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


#: Rows whose feature keys are computed at once.
_FEATURE_ROWS = 65_536


def feature_keys(minima: np.ndarray, k: int, s: int, seed: int = _FEATURE_SEED) -> np.ndarray:
    """(N, k) uint64 features: group g fingerprints minima[:, g*s:(g+1)*s] and its number g.

    Features of different groups never share a key by construction of the group number.
    """
    n = minima.shape[0]
    if k * s > minima.shape[1]:
        raise ValueError(f"k * s = {k * s} exceeds the sketch length {minima.shape[1]}")
    out = np.empty((n, k), dtype=np.uint64)
    # a batch of rows at a time: the 64-bit temporaries stay a few times one batch's keys
    # (a million documents' keys are 0.5 GB; all their temporaries at once were 2.5 GB)
    for lo in range(0, n, _FEATURE_ROWS):
        checkpoint()
        groups = minima[lo : lo + _FEATURE_ROWS, : k * s].reshape(-1, k, s).astype(np.uint64)
        with np.errstate(over="ignore"):
            h = groups[:, :, 0] + np.arange(k, dtype=np.uint64) * _FEATURE_BASE
            for j in range(1, s):
                h = h * _FEATURE_BASE + groups[:, :, j]
        out[lo : lo + _FEATURE_ROWS] = mix64(h, seed)
    return out


#: Low bits of a packed (key, row) word that hold the row (see _packed_pairs).
_DOC_BITS = 24


def _bucket_pairs_flat(
    keys: np.ndarray, docs: np.ndarray, cap: int | None, salt: int
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (a, b), a < b, of documents sharing a key in one flat (key, document) list, by
    one stable argsort of the keys (exact: keys are compared whole)."""
    order = np.argsort(keys, kind="stable")
    skeys, sdocs = keys[order], docs[order]
    return run_pairs(sdocs, skeys[1:] == skeys[:-1], cap, salt)


def bucket_pairs(keys: np.ndarray, r: int = 1, max_bucket: int | None = MAX_BUCKET) -> np.ndarray:
    """Pairs (m, 2) int64, i < j, of rows of ``keys`` (N, k) sharing >= r keys.

    Keys of different columns must differ (see :func:`feature_keys`). Columns are grouped
    a few at a time to bound memory; pair codes i * N + j are deduplicated (and counted
    when r > 1) with one sort (:func:`unique_counts`). Keys are compared on 40 bits (see
    :func:`_packed_pairs`), so a rare chance match adds a pair: the result is a candidate
    set, to be verified.
    """
    n, k = keys.shape
    if n < 2 or k == 0:
        return np.empty((0, 2), dtype=np.int64)
    grouper = installed()
    if grouper is not None:  # elsewhere (a cluster), with the same keys: the same pairs
        found = grouper.feature_pairs(keys, r, max_bucket)
        if found is not None:
            return found
    per_round = _columns_per_round(n)
    codes, counts = [], []
    for lo in range(0, k, per_round):
        checkpoint()
        sub = keys[:, lo : lo + per_round]
        if n < 1 << _DOC_BITS:
            a, b = _packed_pairs(sub, max_bucket, salt=lo)
        else:
            docs = np.repeat(np.arange(n, dtype=np.int64)[:, None], sub.shape[1], axis=1).ravel()
            a, b = _bucket_pairs_flat(sub.ravel(), docs, max_bucket, salt=lo)
        u, cnt = unique_counts(a * n + b)
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


def _columns_per_round(n: int) -> int:
    """Key columns grouped in one round of :func:`bucket_pairs` (bounds its memory)."""
    return max(1, (1 << 22) // n)


def feature_match_rows(keys: np.ndarray, row0: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows ``row0 ..`` of a key matrix (of a collection of ``n`` rows) as flat
    (round, match key, row) arrays: what :func:`bucket_pairs` compares, so that the rows of
    all parts, grouped by (round, match key) anywhere, pair up as it pairs them (see
    :func:`feature_run_codes`)."""
    m, k = keys.shape
    rounds = (np.arange(k, dtype=np.int64) // _columns_per_round(n)) * _columns_per_round(n)
    if n < 1 << _DOC_BITS:
        with np.errstate(over="ignore"):
            match = np.multiply(keys, _SPREAD, dtype=np.uint64) >> np.uint64(_DOC_BITS)
    else:
        match = keys
    rows = np.repeat(np.arange(row0, row0 + m, dtype=np.int64), k)
    return np.tile(rounds, m), match.reshape(-1), rows


def feature_run_codes(rounds: np.ndarray, match: np.ndarray, rows: np.ndarray, n: int,
                      max_bucket: int | None = MAX_BUCKET) -> np.ndarray:
    """Codes ``a * n + b`` (a < b, repeated once per shared key and round, as
    :func:`bucket_pairs` counts them) of rows with an equal (round, match key), for a set of
    entries holding every entry of each of its keys (a shuffle partition); a bucket bigger
    than ``max_bucket`` is capped as there, with the same order (salted by the round)."""
    if rows.shape[0] < 2:
        return np.empty(0, np.int64)
    order = np.lexsort((rows, match, rounds))
    rounds, match, rows = rounds[order], match[order], rows[order]
    codes = []
    for lo in sorted_unique(rounds).tolist():
        sel = slice(*np.searchsorted(rounds, [lo, lo + 1]))
        mt, rw = match[sel], rows[sel].copy()
        a, b = run_pairs(rw, mt[1:] == mt[:-1], max_bucket, salt=int(lo))
        codes.append(a * n + b)
    return np.concatenate(codes) if codes else np.empty(0, np.int64)


def pairs_from_codes(codes: np.ndarray, n: int, r: int = 1) -> np.ndarray:
    """Pairs (m, 2) of the codes that occur at least ``r`` times (each occurrence a shared key)."""
    u, cnt = unique_counts(codes)
    if r > 1:
        u = u[cnt >= r]
    return np.stack((u // n, u % n), axis=1).astype(np.int64)


#: Odd multiplier of the multiply-shift hash that spreads any keys over the top 40 bits.
_SPREAD = np.uint64(0x9FB21C651E98DF25)


#: Words from which :func:`_sort_uniform` takes the radix sort even where its kernel is not
#: loaded yet: numpy sorts 8 million words in about 0.5 s here, the radix sort in 0.15 s,
#: numba's import with the kernel's load about 0.4 s.
RADIX_WORDS = 1 << 23


def _sort_uniform(words: np.ndarray) -> None:
    """Sort words whose top bits are uniform in place: by :mod:`core.word_sort` (3-4x
    numpy's sort here) when its kernel is loaded in this process already or the words are
    many, else with numpy alone (:mod:`core.top_bits_sort`: a minhash scan of tens of
    thousands of documents never loads numba in its process; its 840,000 words took
    numpy's sort 67 ms here, 25-30 ms so)."""
    module = sys.modules.get("ndd_desktop.core.word_sort")
    if _radix_serves(words.shape[0], module is not None and module.is_loaded()):
        from .word_sort import sort_words

        sort_words(words)
    else:
        sort_uniform(words)


def _radix_serves(words: int, kernel_loaded: bool) -> bool:
    """Whether :func:`_sort_uniform` takes the radix sort for this many words."""
    return words >= RADIX_WORDS or kernel_loaded


def _packed_pairs(keys: np.ndarray, cap: int | None, salt: int) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (a, b), a < b, of rows of ``keys`` (N, c), N < 2^24, with an equal key in some column.

    Each key is multiplied by an odd constant; the product's top 40 bits and the row number
    share one uint64 word, and one plain sort of the words groups equal keys (two different
    keys meet in 40 bits only by chance, which adds a candidate); the pairs are read off the
    sorted words by :func:`~ndd_desktop.core.key_runs.run_pairs` (``cap``, ``salt``: see
    there).
    """
    n = keys.shape[0]
    shift = np.uint64(_DOC_BITS)
    with np.errstate(over="ignore"):
        words = np.multiply(keys, _SPREAD, dtype=np.uint64)
    words >>= shift
    words <<= shift
    words |= np.arange(n, dtype=np.uint64)[:, None]
    words = words.ravel()
    _sort_uniform(words)
    top = words >> shift
    return run_pairs(words, top[1:] == top[:-1], cap, salt, row_mask=(1 << _DOC_BITS) - 1)


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
    a, b = _bucket_pairs_flat(shingles, ids, None, 0)
    codes, shared = unique_counts(a * n + b)
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
