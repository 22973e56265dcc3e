"""Batched MinHash sketching: texts in, a (documents, t + 1) uint32 matrix out.

Broder's sketch of a document is, for each of t min-wise independent permutations pi_i of
the shingle fingerprints, min(pi_i(S_D)). Here the fingerprints are the 32-bit odd shingle
values of ``core.batch_hashing`` (``word_shingle_values``, ``char_gram_values``); they are
already well mixed, so a permutation only needs to reorder them independently of the other
permutations: multiply by a random odd 32-bit constant a_i modulo 2^32, a bijection of the
odd 32-bit numbers. The minimum is 32 bits: as Broder notes, once the shingles are
permuted, the fingerprint of the minimum can be short; two different minima collide with
probability about 2^-32 per permutation. The tests check that the resemblance estimate is
unbiased with the binomial variance J(1 - J)/t, and that groups of s values agree with
probability J^s.

The last column holds the number of distinct shingles (for containment estimates). A
document without shingles (an empty text; with words, one without a word character) has
``EMPTY`` minima and count 0; it scores 0 against every document, itself included
(``resemblance_rows``).

Texts are taken in chunks of about 256k characters. A chunk is hashed in one pass; the
distinct values of each document come from row-wise sorts of documents of similar size;
the permutations run over runs of up to 256k values held in one cache-sized buffer that is
multiplied in place (a_i * x = (a_i / a_(i-1)) * (a_(i-1) * x) mod 2^32), with one
``np.minimum.reduceat`` per permutation. No Python loop runs per shingle or per document.

Sketch values changed with ``MinHashMethod.sketch_version`` 2 (32-bit shingle values read
from the text bytes instead of 64-bit fingerprints); the version is part of the sketch key.
"""

from __future__ import annotations

import functools
from typing import Iterator, Sequence

import numpy as np

from . import minhash_kernel
from .batch_hashing import WordSpans, char_gram_values, extracted_word_spans, word_shingle_values, word_spans
from .hashing import mix64
from .normalize import normalize

#: Seed of the permutation multipliers; changing it changes every stored sketch.
PERMUTATION_SEED = 0x5EED
EMPTY = np.uint32(0xFFFFFFFF)  # the minimum of an empty set
_CHUNK_CHARS = 1 << 18  # characters of text hashed, deduplicated and permuted together
_RUN = 1 << 18  # values multiplied per call: a 1 MB buffer, multiplied in place
_GROUP_CELLS = 1 << 17  # cells of one row-sorted matrix in the distinct-value step


def permutation_multipliers(t: int, seed: int = PERMUTATION_SEED) -> np.ndarray:
    """The t odd 32-bit multipliers a_i of the permutations x -> a_i * x mod 2^32."""
    raw = mix64(np.arange(t, dtype=np.uint64), seed) >> np.uint64(32)
    return (raw | np.uint64(1)).astype(np.uint32)


def shingle_values(texts: Sequence[str], unit: str, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """32-bit odd shingle values of many texts: (values, starts, counts) as in core.hashing.

    ``unit`` is "words" (w-token shingles) or "chars" (character n-grams).
    """
    if unit == "words":
        return word_shingle_values(texts, size)
    if unit == "chars":
        return char_gram_values(texts, size)
    raise ValueError(f"unit: expected 'words' or 'chars', got {unit!r}")


def distinct_counts(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The number of distinct values of each document, without a sort of the whole batch.

    Document k owns ``values[starts[k] : starts[k] + counts[k]]``. Documents are taken in
    order of size and cut into groups of similar size; each group becomes a matrix with one
    row per document (short rows padded with their own first value, which adds no distinct
    value), sorted row by row, and the changes along each row are counted.
    """
    sizes = np.zeros(counts.shape[0], dtype=np.int64)
    nonempty = np.flatnonzero(counts > 0)
    if nonempty.shape[0] == 0:
        return sizes
    docs = nonempty[np.argsort(counts[nonempty], kind="stable")]
    c = counts[docs]
    st = starts[docs]
    widest = int(c[-1])
    # Row k of a group is read through a strided view as values[st[k] : st[k] + width].
    padded = np.concatenate((values, np.zeros(widest, dtype=values.dtype)))
    # Size classes a factor 2^(1/4) apart (at most ~19% padding), or 2^(1/2) for short
    # documents, whose sorts cost less than the numpy calls of more groups.
    per_octave = 4 if c[c.shape[0] // 2] >= 512 else 2
    size_class = np.floor(np.log2(c.astype(np.float64)) * per_octave).astype(np.int64)
    bounds = np.flatnonzero(np.diff(size_class)) + 1
    dsize = np.ones(c.shape[0], dtype=np.int64)
    for lo, hi in zip(np.concatenate(([0], bounds)).tolist(), np.concatenate((bounds, [c.shape[0]])).tolist()):
        width = int(c[hi - 1])
        if width == 1:
            continue
        windows = np.lib.stride_tricks.as_strided(
            padded, shape=(padded.shape[0] - width + 1, width), strides=(padded.strides[0],) * 2, writeable=False
        )
        col_type = np.uint16 if width < 1 << 16 else np.int64
        columns = np.arange(width, dtype=col_type)
        rows_per = max(1, _GROUP_CELLS // width)
        for a in range(lo, hi, rows_per):
            b = min(a + rows_per, hi)
            rows = windows[st[a:b]]
            if c[a] < width:
                np.copyto(rows, rows[:, :1], where=columns >= c[a:b].astype(col_type)[:, None])
            rows.sort(axis=1)
            change = np.not_equal(rows[:, 1:], rows[:, :-1])
            dsize[a:b] += np.add.reduce(change.view(np.uint8), axis=1, dtype=np.int64)
    sizes[docs] = dsize
    return sizes


def contiguous_runs(values: np.ndarray, starts: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Make the documents' ranges of ``values`` abut, for ``minhash_matrix``: (docs, offsets).

    Between one document's range and the next in ``values`` lie values of no document
    (shingles across two texts); they are overwritten, in place, with copies of the first
    value of the document before them, which changes no minimum. Document ``docs[j]`` then
    owns ``values[offsets[j] : offsets[j + 1]]`` (duplicates included).
    """
    nonempty = np.flatnonzero(counts > 0)
    docs = nonempty[np.argsort(starts[nonempty], kind="stable")]
    s = starts[docs]
    e = s + counts[docs]
    if docs.shape[0] == 0:
        return docs, np.zeros(1, dtype=np.int64)
    gap = np.append(s[1:], e[-1]) - e
    total = int(gap.sum())
    if total:
        first_gap = np.zeros(gap.shape[0], dtype=np.int64)
        np.cumsum(gap[:-1], out=first_gap[1:])
        pos = np.arange(total) + np.repeat(e - first_gap, gap)
        values[pos] = np.repeat(values[s], gap)
    return docs, np.append(s, e[-1])


def minhash_matrix(values: np.ndarray, offsets: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """min_i over each document's values of a_i * x mod 2^32: a (documents, t) uint32 matrix.

    Documents with no values get ``EMPTY`` in every column. The values are cut at document
    boundaries into runs of at most ``_RUN`` values (1 MB, so a run stays in the CPU cache).
    A run is copied once and multiplied in place by a_0, then by a_i / a_(i-1) (an odd
    number has an inverse modulo 2^32), so the buffer holds a_i * x for each i in turn; one
    ``np.minimum.reduceat`` per multiplier takes the minimum of every document. A document
    longer than a run is split into pieces whose minima are merged at the end.
    """
    values = np.ascontiguousarray(values, dtype=np.uint32)
    offsets = np.asarray(offsets, dtype=np.int64)
    t = multipliers.shape[0]
    ndocs = offsets.shape[0] - 1
    if values.shape[0] == 0 or t == 0:
        return np.full((ndocs, t), EMPTY, dtype=np.uint32)
    counts = np.diff(offsets)
    nonempty = np.flatnonzero(counts > 0)
    doc_starts = offsets[nonempty]
    long_docs = np.flatnonzero(counts[nonempty] > _RUN)
    if long_docs.shape[0]:
        extra = [np.arange(offsets[nonempty[k]] + _RUN, offsets[nonempty[k] + 1], _RUN) for k in long_docs.tolist()]
        piece_starts = np.sort(np.concatenate([doc_starts, *extra]))
    else:
        piece_starts = doc_starts
    npieces = piece_starts.shape[0]
    piece_min = np.empty((t, npieces), dtype=np.uint32)
    piece_ends = np.append(piece_starts[1:], offsets[nonempty[-1] + 1])
    steps = _multiplier_steps(multipliers.tobytes())
    scratch = np.empty(min(int(piece_ends[-1] - piece_starts[0]), _RUN), dtype=np.uint32)
    p = 0
    while p < npieces:
        lo = int(piece_starts[p])
        # the pieces that end within lo + _RUN (always at least one)
        q = max(p + 1, int(np.searchsorted(piece_ends, lo + _RUN, side="right")))
        hi = int(piece_ends[q - 1])
        buf = scratch[: hi - lo]
        np.multiply(values[lo:hi], steps[0], out=buf)
        seg = piece_starts[p:q] - lo
        mins = piece_min[:, p:q]
        np.minimum.reduceat(buf, seg, out=mins[0])
        for i in range(1, t):
            buf *= steps[i]
            np.minimum.reduceat(buf, seg, out=mins[i])
        p = q
    if long_docs.shape[0]:
        piece_min = np.minimum.reduceat(piece_min, np.searchsorted(piece_starts, doc_starts), axis=1)
    if nonempty.shape[0] == ndocs:
        return piece_min.T
    out = np.full((ndocs, t), EMPTY, dtype=np.uint32)
    out[nonempty] = piece_min.T
    return out


@functools.lru_cache(maxsize=8)
def _multiplier_steps(multipliers: bytes) -> list[np.uint32]:
    """a_0, then a_i * a_(i-1)^-1 mod 2^32: their running products are the multipliers
    (given as the bytes of a uint32 array; a scan asks for the same ones every batch)."""
    mult = np.frombuffer(multipliers, dtype=np.uint32).tolist()
    if any(a % 2 == 0 for a in mult):
        raise ValueError("permutation multipliers must be odd")
    steps = [mult[0]] + [(mult[i] * pow(mult[i - 1], -1, 1 << 32)) & 0xFFFFFFFF for i in range(1, len(mult))]
    return [np.uint32(a) for a in steps]


def sketch_matrix(texts: Sequence[str], unit: str, size: int, t: int) -> np.ndarray:
    """MinHash sketches of many normalised texts: (len(texts), t + 1) uint32.

    Columns 0..t-1 are the minima of the t permutations, column t the number of distinct
    shingles (saturating at 2^32 - 1).
    """
    multipliers = permutation_multipliers(t)
    result = np.empty((len(texts), t + 1), dtype=np.uint32)
    kernel = _kernel(unit, len(texts))
    for lo, hi in _text_chunks(texts):
        batch = texts[lo:hi]
        if kernel is not None:
            _kernel_rows(kernel, word_spans(batch), size, multipliers, result[lo:hi])
            continue
        values, starts, counts = shingle_values(batch, unit, size)
        sizes = distinct_counts(values, starts, counts)
        # Repeated shingles are kept for the minima: they change none, and dropping them
        # would cost more than the ~5% of work they add.
        docs, offsets = contiguous_runs(values, starts, counts)
        block = result[lo:hi]
        block[:, :t] = EMPTY
        block[docs, :t] = minhash_matrix(values[offsets[0] :], offsets - offsets[0], multipliers)
        block[:, t] = np.minimum(sizes, 0xFFFFFFFF).astype(np.uint32)
    return result


def sketch_extracted(texts: Sequence[str], unit: str, size: int, t: int, ignore: str | Sequence[str] = "") -> np.ndarray:
    """``sketch_matrix`` of the texts normalised (``core.normalize.normalize(text, ignore)``).

    Where the compiled loop runs (word shingles, nothing to ignore), an ASCII text is
    only folded (``normalize.ascii_folded``: its words, without collapsing its white
    space) and read as bytes from there; the rows are the same."""
    kernel = None if ignore else _kernel(unit, len(texts))
    if kernel is None:
        return sketch_matrix([normalize(x, ignore) for x in texts], unit, size, t)
    multipliers = permutation_multipliers(t)
    result = np.empty((len(texts), t + 1), dtype=np.uint32)
    for rows, spans in extracted_word_spans(texts, _CHUNK_CHARS):
        block = np.empty((len(rows), t + 1), dtype=np.uint32)
        _kernel_rows(kernel, spans, size, multipliers, block)
        result[rows] = block
    return result


def _kernel(unit: str, texts: int):
    """The compiled functions for a batch of ``texts`` (``minhash_kernel.functions``), or
    None: numpy's path (character grams; a big-endian machine, whose bytes the compiled
    loop would read the other way round)."""
    if unit != "words" or not np.little_endian:
        return None
    return minhash_kernel.functions(texts)


def _kernel_rows(kernel, spans: WordSpans, w: int, multipliers: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` with the rows of the texts of ``spans`` (the compiled loop)."""
    kernel.sketch_spans(spans.raw_words(), spans.starts, spans.lengths, spans.first, spans.counts, w, multipliers, out)


def _text_chunks(texts: Sequence[str] | Sequence[bytes]) -> Iterator[tuple[int, int]]:
    """Ranges [lo, hi) of texts holding about _CHUNK_CHARS characters each (at least one)."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1
    ends = np.cumsum(lengths)
    lo = 0
    while lo < len(texts):
        base = int(ends[lo - 1]) if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, base + _CHUNK_CHARS, side="right")))
        yield lo, hi
        lo = hi


def resemblance_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Estimated resemblance of matching rows of two sketch matrices (share of equal minima).

    0 where either document has no shingle (distinct count 0): all its minima are
    ``EMPTY``, and the resemblance of an empty set is undefined, not 1 (a document without
    text matches nothing).
    """
    t = a.shape[-1] - 1
    equal = np.count_nonzero(a[..., :t] == b[..., :t], axis=-1) / t
    return np.where((a[..., t] > 0) & (b[..., t] > 0), equal, 0.0)


def containment_from(resemblance: np.ndarray, size_a: np.ndarray, size_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(share of A in B, share of B in A) from a resemblance estimate and the set sizes;
    0 for an empty set.

    |A n B| = r (|A| + |B|) / (1 + r), from r = |A n B| / (|A| + |B| - |A n B|).
    """
    r = np.asarray(resemblance, dtype=np.float64)
    na = np.asarray(size_a, dtype=np.float64)
    nb = np.asarray(size_b, dtype=np.float64)
    inter = r * (na + nb) / (1.0 + r)
    with np.errstate(divide="ignore", invalid="ignore"):
        ca = np.where(na > 0, np.minimum(inter / na, 1.0), 0.0)
        cb = np.where(nb > 0, np.minimum(inter / nb, 1.0), 0.0)
    return ca, cb
