"""One-permutation hashing rounds over flat batches of set sketches.

A round permutes every value of a document's set once (multiplication by the round's odd
constant modulo 2^32: the values are uniform hashes already), cuts the hash range into
bins and keeps each bin's smallest value; an empty bin borrows its next non-empty
neighbour's value, mixed with the distance (densification). Two sets agree in a bin with
probability about their Jaccard similarity. The banded search of :mod:`core.set_lsh`
makes its band keys from these rounds, and :func:`oph_signatures` gives the screening
signature of a candidate's two documents.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .checkpoint import checkpoint

#: Sketch values plus band keys handled at once while signatures are built: numpy's
#: temporaries stay below glibc's mmap threshold (32 MB), so they are reused instead of
#: being mapped and page-faulted afresh on every operation.
SIGNATURE_BATCH = 1_000_000
#: The round of the screening signature: one that the band rounds never use.
SCREEN_ROUND = 10_000
_U32 = np.uint32(0xFFFFFFFF)
_F1, _F2 = np.uint32(0x85EBCA6B), np.uint32(0xC2B2AE35)
_S16, _S13 = np.uint32(16), np.uint32(13)


def round_multiplier(k: int) -> int:
    """An odd 64-bit multiplier for round k (SplitMix64 of k)."""
    z = (k * 0x9E3779B97F4A7C15 + 0x5E7) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) | 1


def fmix32(h: np.ndarray) -> np.ndarray:
    """In place: the 32-bit finaliser of MurmurHash3 (a bijection of uint32)."""
    with np.errstate(over="ignore"):
        h ^= h >> _S16
        h *= _F1
        h ^= h >> _S13
        h *= _F2
        h ^= h >> _S16
    return h


def as_u32(values: np.ndarray) -> np.ndarray:
    """uint32 view of uniform hash values (64-bit values are folded)."""
    if values.dtype == np.uint32:
        return values
    v = values.astype(np.uint64, copy=False)
    return ((v ^ (v >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _seed32(k: int) -> np.uint32:
    return np.uint32(round_multiplier(k + 1000) & 0xFFFFFFFF)


def flat_round(flat: np.ndarray, base: np.ndarray, lens: np.ndarray, k: int, bins: int) -> np.ndarray:
    """(docs, bins) uint32: round ``k`` of one-permutation hashing of a flat batch.

    ``flat`` holds the batch's values (uint32, document after document) and ``base`` the
    first slot (document * bins) of each value's document. The round permutes the values
    by multiplying them with its own odd constant modulo 2^32 (the values are already
    uniform hashes, so one multiplication reorders them as MinHash's permutations do; see
    core.minhash_sketch); the top bits pick the bin and a bin keeps its smallest permuted
    value. An empty bin borrows the next filled bin of its row (circularly), mixed with the
    distance.
    """
    n = lens.shape[0]
    with np.errstate(over="ignore"):
        h = flat * _seed32(k)
    slot = (h >> np.uint32(32 - int(np.log2(bins)))).astype(base.dtype)
    slot += base
    vals = np.full(n * bins, _U32, dtype=np.uint32)
    np.minimum.at(vals, slot, h)
    vals = vals.reshape(n, bins)
    filled = vals != _U32
    if not filled.all():
        densify(vals, filled, vals)
    return vals


_GOLDEN32 = np.uint32(0x9E3779B1)


def densify(vals: np.ndarray, filled: np.ndarray, out: np.ndarray) -> None:
    """Into ``out`` (which may be ``vals``): each empty bin of ``vals`` takes the value of
    the next filled bin of its row (circularly), mixed with the distance; rows with no
    filled bin are left alone. ``bins`` (the row width) is a power of two.

    Empty bins are few (a document of thousands of values over hundreds of bins leaves
    well under 1 % empty), so the work follows them: every empty bin looks one bin further
    along its row per step until it meets a filled one, and a step handles only the bins
    still looking."""
    bins = vals.shape[1]
    flat_f = filled.reshape(-1)
    flat_v = vals.reshape(-1)
    pos = np.flatnonzero(~flat_f)
    src = np.empty_like(pos)
    dist = np.zeros(pos.shape[0], dtype=np.uint32)
    looking = np.arange(pos.shape[0])
    for step in range(1, bins):
        if looking.shape[0] == 0:
            break
        p = pos[looking]
        nxt = p - (p & (bins - 1)) + ((p + step) & (bins - 1))
        hit = flat_f[nxt]
        found = looking[hit]
        src[found] = nxt[hit]
        dist[found] = step
        looking = looking[~hit]
    done = dist > 0  # bins of rows with no filled bin found nothing
    with np.errstate(over="ignore"):
        borrowed = fmix32(flat_v[src[done]] + dist[done] * _GOLDEN32)
    out.reshape(-1)[pos[done]] = borrowed


def batch_cuts(lens: np.ndarray, bins: int) -> list[int]:
    """Cut documents of these sizes into batches of about SIGNATURE_BATCH values plus
    ``bins`` slots each (at least one document per batch): [0, c1, ..., len(lens)]."""
    return size_cuts(np.cumsum(lens + bins), SIGNATURE_BATCH)


def size_cuts(cum: np.ndarray, step: int) -> list[int]:
    """Cut points of items whose running size is ``cum`` into runs of about ``step`` (at
    least one item each): [0, c1, ..., len(cum)]."""
    cuts = [0]
    while cuts[-1] < cum.shape[0]:
        base = cum[cuts[-1] - 1] if cuts[-1] else 0
        nxt = int(np.searchsorted(cum, base + step, side="right"))
        cuts.append(min(max(nxt, cuts[-1] + 1), cum.shape[0]))
    return cuts


def oph_signatures(sketches: Sequence[np.ndarray], docs: np.ndarray, lens: np.ndarray, bins: int) -> np.ndarray:
    """(len(docs), bins) uint32: one densified one-permutation round of each document
    (``lens`` its number of values; a round of its own, independent of the band rounds);
    two rows agree in a bin with probability about the documents' Jaccard similarity."""
    out = np.full((docs.shape[0], bins), _U32, dtype=np.uint32)
    live = np.flatnonzero(lens > 0)
    cuts = batch_cuts(lens[live], bins)
    for c0, c1 in zip(cuts[:-1], cuts[1:]):
        checkpoint()
        rows = live[c0:c1]
        blens = lens[rows]
        flat = as_u32(np.concatenate([sketches[d] for d in docs[rows].tolist()]))
        base = np.repeat(np.arange(rows.shape[0], dtype=np.int32) * np.int32(bins), blens)
        out[rows] = flat_round(flat, base, blens, SCREEN_ROUND, bins)
    return out
