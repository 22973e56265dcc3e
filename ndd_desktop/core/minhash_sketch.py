"""Batched MinHash sketching: texts in, a (documents, t + 1) uint32 matrix out.

Broder's sketch of a document is, for each of t min-wise independent permutations pi_i of
the shingle fingerprints, min(pi_i(S_D)). Here the shingle fingerprints are the 64-bit
hashes of ``core.hashing``; they are already uniformly random, so a permutation only needs
to reorder them independently of the other permutations. We take 32 bits of the
fingerprint, force them odd, and multiply by a random odd 32-bit constant a_i modulo 2^32:
a bijection of the odd 32-bit numbers, one cheap SIMD multiply per (shingle, permutation).
The minimum is 32 bits: as Broder notes, once the shingles are permuted, the fingerprint of
the minimum can be short; two different minima collide with probability about 2^-32 per
permutation. The tests check that the resemblance estimate is unbiased with the binomial
variance J(1 - J)/t, and that groups of s values agree with probability J^s.

The last column holds the number of distinct shingles (for containment estimates).

Everything runs on chunks of about 64k characters and blocks of 4096 distinct shingles, so
the (t, block) scratch matrix stays in the CPU cache; no Python loop runs per shingle.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .hashing import hash_char_ngrams_many, hash_word_shingles_many, mix64

#: Seed of the permutation multipliers; changing it changes every stored sketch.
PERMUTATION_SEED = 0x5EED
EMPTY = np.uint32(0xFFFFFFFF)  # the minimum of an empty set
_BLOCK = 4096
_DOC_BITS = 20  # documents per chunk < 2^20, so (document, hash) fits one uint64 sort key
_HASH_MASK = np.uint64((1 << (64 - _DOC_BITS)) - 1)


def permutation_multipliers(t: int, seed: int = PERMUTATION_SEED) -> np.ndarray:
    """The t odd 32-bit multipliers a_i of the permutations x -> a_i * x mod 2^32."""
    raw = mix64(np.arange(t, dtype=np.uint64), seed) >> np.uint64(32)
    return (raw | np.uint64(1)).astype(np.uint32)


def shingle_hashes_many(texts: Sequence[str], unit: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """64-bit shingle fingerprints of many texts: (hashes, offsets) as in core.hashing.

    ``unit`` is "words" (w-token shingles) or "chars" (character n-grams).
    """
    if unit == "words":
        return hash_word_shingles_many(texts, size)
    if unit == "chars":
        return hash_char_ngrams_many(texts, size)
    raise ValueError(f"unit: expected 'words' or 'chars', got {unit!r}")


def distinct_per_document(hashes: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct shingles of each document in one sort.

    Returns (values, offsets, counts): ``values`` holds 32 bits of each distinct
    fingerprint (forced odd), grouped by document in document order.
    """
    ndocs = offsets.shape[0] - 1
    if ndocs >= 1 << _DOC_BITS:
        raise ValueError("too many documents in one chunk")
    doc = np.repeat(np.arange(ndocs, dtype=np.uint64), np.diff(offsets))
    # 44 bits of the fingerprint identify a shingle inside one document (collisions ~2^-44
    # per pair of distinct shingles); the document number sorts first.
    keys = (doc << np.uint64(64 - _DOC_BITS)) | (hashes & _HASH_MASK)
    keys.sort()
    keep = np.empty(keys.shape[0], dtype=bool)
    if keys.shape[0]:
        keep[0] = True
        np.not_equal(keys[1:], keys[:-1], out=keep[1:])
    keys = keys[keep]
    counts = np.bincount((keys >> np.uint64(64 - _DOC_BITS)).astype(np.int64), minlength=ndocs)
    new_offsets = np.zeros(ndocs + 1, dtype=np.int64)
    np.cumsum(counts, out=new_offsets[1:])
    values = keys.astype(np.uint32) | np.uint32(1)
    return values, new_offsets, counts


def minhash_matrix(values: np.ndarray, offsets: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """min_i over each document's values of a_i * x mod 2^32: a (documents, t) uint32 matrix.

    Documents with no values get ``EMPTY`` in every column. The values are cut into blocks
    of 4096; each block is multiplied by all t multipliers at once and reduced per
    document segment with ``np.minimum.reduceat``; segments split by block boundaries are
    merged in a second ``reduceat``.
    """
    t = multipliers.shape[0]
    ndocs = offsets.shape[0] - 1
    out = np.full((ndocs, t), EMPTY, dtype=np.uint32)
    n = values.shape[0]
    if n == 0:
        return out
    nonempty = np.flatnonzero(np.diff(offsets) > 0)
    doc_starts = offsets[nonempty]
    seg_starts = np.union1d(doc_starts, np.arange(0, n, _BLOCK))
    seg_min = np.empty((t, seg_starts.shape[0]), dtype=np.uint32)
    scratch = np.empty((t, min(_BLOCK, n)), dtype=np.uint32)
    column = multipliers[:, None]
    lo_seg = 0
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        hi_seg = int(np.searchsorted(seg_starts, hi))
        block = scratch[:, : hi - lo]
        np.multiply(column, values[lo:hi], out=block)
        seg_min[:, lo_seg:hi_seg] = np.minimum.reduceat(block, seg_starts[lo_seg:hi_seg] - lo, axis=1)
        lo_seg = hi_seg
    first_seg = np.searchsorted(seg_starts, doc_starts)
    out[nonempty] = np.minimum.reduceat(seg_min, first_seg, axis=1).T
    return out


def sketch_matrix(texts: Sequence[str], unit: str, size: int, t: int) -> np.ndarray:
    """MinHash sketches of many normalised texts: (len(texts), t + 1) uint32.

    Columns 0..t-1 are the minima of the t permutations, column t the number of distinct
    shingles (saturating at 2^32 - 1).
    """
    multipliers = permutation_multipliers(t)
    result = np.empty((len(texts), t + 1), dtype=np.uint32)
    step = 256  # documents per round: bounds memory whatever the batch size
    for lo in range(0, len(texts), step):
        batch = texts[lo : lo + step]
        hashes, offsets = shingle_hashes_many(batch, unit, size)
        values, doc_offsets, counts = distinct_per_document(hashes, offsets)
        result[lo : lo + len(batch), :t] = minhash_matrix(values, doc_offsets, multipliers)
        result[lo : lo + len(batch), t] = np.minimum(counts, 0xFFFFFFFF).astype(np.uint32)
    return result


def resemblance_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Estimated resemblance of matching rows of two sketch matrices (share of equal minima)."""
    t = a.shape[-1] - 1
    return np.count_nonzero(a[..., :t] == b[..., :t], axis=-1) / t


def containment_from(resemblance: np.ndarray, size_a: np.ndarray, size_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(share of A in B, share of B in A) from a resemblance estimate and the set sizes.

    |A n B| = r (|A| + |B|) / (1 + r), from r = |A n B| / (|A| + |B| - |A n B|).
    """
    r = np.asarray(resemblance, dtype=np.float64)
    na = np.asarray(size_a, dtype=np.float64)
    nb = np.asarray(size_b, dtype=np.float64)
    inter = r * (na + nb) / (1.0 + r)
    with np.errstate(divide="ignore", invalid="ignore"):
        ca = np.where(na > 0, np.minimum(inter / na, 1.0), np.where(nb > 0, 0.0, 1.0))
        cb = np.where(nb > 0, np.minimum(inter / nb, 1.0), np.where(na > 0, 0.0, 1.0))
    return ca, cb
