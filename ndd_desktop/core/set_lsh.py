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

Small sets (median below SMALL_SET values, e.g. bottom-k sketches of 128 values) would
leave most of t bins empty, so they use *rounds* instead (:func:`rounds_band_pairs`):
each round permutes the values once and deals them into 64 bins (about two values per
bin), a band takes one bin from each of r rounds, and at most SMALL_ROUNDS rounds are
made. The signatures are built r rounds at a time and never stored whole; candidates go
straight to exact verification (:func:`padded_shared_counts`).
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
#: Largest number of one-permutation rounds (64 bins each) for small sets.
SMALL_ROUNDS = 10


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


_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def _padded(sketches: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(N, max length) uint64 matrix of the sketches padded with 2^64 - 1, and lengths."""
    n = len(sketches)
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=n)
    width = max(int(lens.max()) if n else 0, 1)
    full = np.full((n, width), _ONES, dtype=np.uint64)
    if int(lens.sum()):
        valid = np.arange(width)[None, :] < lens[:, None]
        full[valid] = np.concatenate([s for s in sketches if s.shape[0]]).astype(np.uint64)
    return full, lens


def _multiplier(k: int) -> int:
    """An odd 64-bit multiplier for round k (SplitMix64 of k)."""
    z = (k * 0x9E3779B97F4A7C15 + 0x5E7) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) | 1


def _round_signature(full: np.ndarray, lens: np.ndarray, k: int, bins: int) -> np.ndarray:
    """(N, bins) uint32: round ``k`` of one-permutation hashing (see rounds_signatures)."""
    n, width = full.shape
    shift = np.uint64(64 - int(np.log2(bins)))
    with np.errstate(over="ignore"):
        # The values are uniform hashes: an odd multiplier is a fresh permutation of them.
        h = full * np.uint64(_multiplier(k))
    if int(lens.min()) < width:
        h[np.arange(width)[None, :] >= lens[:, None]] = _ONES
    # Each bin keeps its smallest value (padding, 2^64 - 1, never beats a real value).
    slot = (h >> shift).astype(np.intp)
    slot += (np.arange(n, dtype=np.intp) * bins)[:, None]
    vals = np.full(n * bins, _ONES, dtype=np.uint64)
    np.minimum.at(vals, slot.reshape(-1), h.reshape(-1))
    vals = vals.reshape(n, bins)
    filled = vals != _ONES
    if filled.all():
        return (vals >> np.uint64(32)).astype(np.uint32)
    # An empty bin borrows the next filled bin of its row (circularly), mixed with the distance.
    flat_vals, flat_filled = vals.reshape(-1), filled.reshape(-1)
    out = flat_vals.copy()
    out[np.repeat(lens == 0, bins)] = 0
    pending = np.flatnonzero(~flat_filled & np.repeat(lens > 0, bins))
    dist = 1
    while pending.shape[0]:
        src = pending - pending % bins + (pending % bins + dist) % bins
        ok = flat_filled[src]
        out[pending[ok]] = mix64(flat_vals[src[ok]] + np.uint64(dist), _SEED + 1)
        pending = pending[~ok]
        dist += 1
    return (out.reshape(n, bins) >> np.uint64(32)).astype(np.uint32)


def rounds_signatures(sketches: Sequence[np.ndarray], t: int, bins: int = 64) -> np.ndarray:
    """(N, t) uint32 signatures from t / ``bins`` rounds of one-permutation hashing.

    For small sets (a bottom-k sketch of 128 values), k-mins signatures need t hashes per
    value; here each round permutes the values once (they are already uniform hashes, so a
    multiplication by an odd constant will do), sends each to one of ``bins`` bins by its
    top bits and keeps each bin's smallest value; an empty bin borrows the next non-empty
    bin of the same round, mixed with the distance (densification). With about two values
    per bin few bins are empty, so two sets agree in a bin with probability close to their
    Jaccard similarity, as with k-mins, at t / bins operations per value instead of t.
    Column ``round * bins + bin``; an empty set gets all zeros.
    """
    full, lens = _padded(sketches)
    rounds = max(1, -(-t // bins))
    return np.concatenate([_round_signature(full, lens, k, bins) for k in range(rounds)], axis=1)[:, :t]


def rounds_band_pairs(
    sketches: Sequence[np.ndarray], jaccard: float, max_rounds: int = 12, bins: int = 64, target: float = 0.995
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) agreeing on all r values of at least one band, bands built from rounds
    of :func:`rounds_signatures`: a group of r rounds gives ``bins`` bands (band = one bin
    in each of the r rounds). r and the number of groups are the most selective choice of
    at most ``max_rounds`` rounds that finds a pair of ``jaccard`` with probability >= target.
    Signatures are made group by group, so memory stays at r rounds."""
    b, r = choose_bands(max_rounds * bins, jaccard, target)
    groups = -(-b // bins)
    while groups > 1 and 1.0 - (1.0 - jaccard**r) ** ((groups - 1) * bins) >= target:
        groups -= 1
    full, lens = _padded(sketches)
    n = full.shape[0]
    docs = np.arange(n, dtype=np.int64)
    codes = []
    for g in range(groups):
        keys = np.zeros((n, bins), dtype=np.uint64)
        with np.errstate(over="ignore"):
            for k in range(r):
                keys = keys * np.uint64(0x100000001B3) + _round_signature(full, lens, g * r + k, bins)
            keys = mix64(keys ^ np.arange(bins, dtype=np.uint64)[None, :], _SEED + 2 + g)
        keys[lens == 0] = np.arange(bins, dtype=np.uint64)  # empty sets: no bucket mates
        if n < 1 << _DOC_BITS:
            # One sort of (40-bit key, document) codes; a rare false key match only adds a
            # candidate, which the caller verifies.
            comp = np.sort(((keys >> np.uint64(_DOC_BITS)) << np.uint64(_DOC_BITS) | docs.astype(np.uint64)[:, None]).reshape(-1))
            codes.append(_run_pairs(comp >> np.uint64(_DOC_BITS), (comp & np.uint64((1 << _DOC_BITS) - 1)).astype(np.int64), n))
        else:
            flat = keys.T.reshape(-1)
            owner = np.tile(docs, bins)
            order = np.argsort(flat, kind="stable")
            codes.append(_run_pairs(flat[order], owner[order], n))
    u = np.unique(np.concatenate(codes)) if codes else np.empty(0, np.int64)
    i, j = u // n, u % n
    ok = (lens[i] > 0) & (lens[j] > 0)
    return i[ok], j[ok]


_DOC_BITS = 24


def _run_pairs(key: np.ndarray, doc: np.ndarray, n: int) -> np.ndarray:
    """Codes i * n + j (i < j) of the documents sharing a run of equal ``key`` (sorted)."""
    same = key[1:] == key[:-1]  # positions k and k + 1 in one run
    pos = np.flatnonzero(same)
    out = []
    d = 1
    while pos.shape[0]:
        a, b = doc[pos], doc[pos + d]
        keep = a != b
        out.append(np.minimum(a[keep], b[keep]) * n + np.maximum(a[keep], b[keep]))
        nxt = pos + d  # k and k + d + 1 share a run when k + d and k + d + 1 do
        ok = nxt < same.shape[0]
        pos = pos[ok][same[nxt[ok]]]
        d += 1
    return np.unique(np.concatenate(out)) if out else np.empty(0, np.int64)


def padded_shared_counts(full: np.ndarray, i: np.ndarray, j: np.ndarray, batch: int = 8192) -> np.ndarray:
    """Exact shared values of rows i[k] and j[k] of a padded sketch matrix (:func:`_padded`):
    the two rows are sorted together and equal neighbours counted (the padding value
    2^64 - 1 is never counted)."""
    out = np.empty(i.shape[0], dtype=np.int64)
    for s in range(0, i.shape[0], batch):
        z = np.concatenate([full[i[s : s + batch]], full[j[s : s + batch]]], axis=1)
        z.sort(axis=1)
        out[s : s + batch] = ((z[:, 1:] == z[:, :-1]) & (z[:, 1:] != _ONES)).sum(axis=1)
    return out


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
    if small:
        # Rounds of one-permutation hashing (a few hashes per value, not t); the caller
        # verifies every candidate exactly, which is cheaper than estimating agreement.
        return rounds_band_pairs(sketches, jaccard, max_rounds=SMALL_ROUNDS)
    b, r = choose_bands(t_max if not small else SMALL_T, jaccard)
    t = b * r
    sig = kmins_signatures(sketches, t) if small else signatures(sketches, t)
    i, j = band_candidates(sig, b, r)
    ok = (lens[i] > 0) & (lens[j] > 0)
    i, j = i[ok], j[ok]
    margin = 5.0 * math.sqrt(max(keep_jaccard * (1.0 - keep_jaccard), 0.01) / t)
    keep = agreement(sig, i, j) >= keep_jaccard - margin
    return i[keep], j[keep]
