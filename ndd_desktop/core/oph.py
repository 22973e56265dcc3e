"""One-permutation hashing rounds over flat batches of set sketches.

A round permutes every value of a document's set once (multiplication by the round's odd
constant modulo 2^32: the values are uniform hashes already), cuts the hash range into
bins and keeps each bin's smallest value; an empty bin borrows its next non-empty
neighbour's value, mixed with the distance (densification). Two sets agree in a bin with
probability about their Jaccard similarity. The banded search of :mod:`core.set_lsh`
makes its band keys from these rounds, and :func:`oph_signatures` gives the screening
signature of a candidate's two documents. The loops are compiled (:mod:`core.oph_kernel`).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import signature_memo
from .checkpoint import checkpoint
from .oph_kernel import round_rows
from .sketch_batches import gather, sketch_sizes

#: Sketch values plus band keys handled at once while signatures are built: a batch's
#: arrays stay below glibc's mmap threshold (32 MB), so they are reused instead of
#: being mapped and page-faulted afresh every time, and a checkpoint comes every few ms.
SIGNATURE_BATCH = 1_000_000
#: The round of the screening signature: one that the band rounds never use.
SCREEN_ROUND = 10_000
_U32 = np.uint32(0xFFFFFFFF)


def round_multiplier(k: int) -> int:
    """An odd 64-bit multiplier for round k (SplitMix64 of k)."""
    z = (k * 0x9E3779B97F4A7C15 + 0x5E7) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) | 1


def as_u32(values: np.ndarray) -> np.ndarray:
    """uint32 view of uniform hash values (64-bit values are folded)."""
    if values.dtype == np.uint32:
        return values
    v = values.astype(np.uint64, copy=False)
    return ((v ^ (v >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def round_seed(k: int) -> np.uint32:
    """The odd 32-bit constant that permutes the values in round ``k``."""
    return np.uint32(round_multiplier(k + 1000) & 0xFFFFFFFF)


def bin_shift(bins: int) -> np.uint32:
    """The right shift that leaves a permuted value's bin (its top log2(bins) bits)."""
    if bins < 2 or bins & (bins - 1) or bins > 1 << 16:
        raise ValueError(f"bins must be a power of two from 2 to 65536, not {bins}")
    return np.uint32(32 - (bins.bit_length() - 1))


def flat_batch(batch: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets) of a batch of sketches: document d's values (uint32, see
    :func:`as_u32`) are values[offsets[d] : offsets[d + 1]]."""
    off = np.zeros(len(batch) + 1, dtype=np.int64)
    np.cumsum(np.fromiter((s.shape[0] for s in batch), dtype=np.int64, count=len(batch)), out=off[1:])
    flat = as_u32(np.concatenate(list(batch))) if len(batch) else np.empty(0, np.uint32)
    return np.ascontiguousarray(flat), off


def flat_round(flat: np.ndarray, off: np.ndarray, k: int, bins: int) -> np.ndarray:
    """(docs, bins) uint32: round ``k`` of one-permutation hashing of a flat batch
    (:func:`flat_batch`).

    The round permutes the values by multiplying them with its own odd constant modulo
    2^32 (the values are already uniform hashes, so one multiplication reorders them as
    MinHash's permutations do; see core.minhash_sketch); the top bits pick the bin and a
    bin keeps its smallest permuted value. An empty bin borrows the next filled bin of its
    row (circularly) at distance d, as fmix32(value + d * 0x9E3779B1) (MurmurHash3's
    finaliser); the row of a document without values stays 2^32 - 1. Compiled
    (:mod:`core.oph_kernel`).
    """
    out = np.empty((off.shape[0] - 1, bins), dtype=np.uint32)
    round_rows(flat, off, round_seed(k), bin_shift(bins), out)
    return out


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
    two rows agree in a bin with probability about the documents' Jaccard similarity.
    Within ``signature_memo.signatures_kept`` those of a collection small enough are made
    for every document once, and the next asker takes its rows from them."""
    memo = signature_memo.kept()
    if memo is None or len(sketches) > signature_memo.KEEP_UP_TO:
        return _signatures(sketches, docs, lens, bins)
    entry = memo.get((id(sketches), bins))
    if entry is None or entry[0] is not sketches:
        every = np.arange(len(sketches), dtype=np.int64)
        entry = memo[(id(sketches), bins)] = (sketches, _signatures(sketches, every, sketch_sizes(sketches), bins))
    return entry[1][np.asarray(docs, dtype=np.int64)]


def _signatures(sketches: Sequence[np.ndarray], docs: np.ndarray, lens: np.ndarray, bins: int) -> np.ndarray:
    out = np.full((docs.shape[0], bins), _U32, dtype=np.uint32)
    live = np.flatnonzero(lens > 0)
    cuts = batch_cuts(lens[live], bins)
    for c0, c1 in zip(cuts[:-1], cuts[1:]):
        checkpoint()
        rows = live[c0:c1]
        values, off = gather(sketches, docs[rows])
        out[rows] = flat_round(np.ascontiguousarray(as_u32(values)), off, SCREEN_ROUND, bins)
    return out
