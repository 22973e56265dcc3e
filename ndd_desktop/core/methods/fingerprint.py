"""Fingerprint: the patent's 128-bit document fingerprint compared by Hamming distance.

Source: 002 (patent "Document near-duplicate detection"). Sampling: a window of 64 bytes
slides over the document's bytes (here the UTF-8 of the normalised text) one byte at a time
and wraps around its end, so a document of L bytes has L blocks; a document shorter than
the window is padded with NUL bytes to the window size first. Each block gets a 32-bit
checksum (the top 32 bits of a 64-bit polynomial hash of the block, mixed; the patent
allows "a hash function ... applied to the sampled blocks"). Selection: the 128 smallest
unique checksums. Compacting: each selected checksum keeps its 7 least significant bits,
which address one bit of a 128-bit fingerprint (initially zero); the bit is flipped each
time it is addressed. Score = 1 - Hamming / 128; the patent calls a pair near-duplicate at
Hamming <= 18. See docs/methods/fingerprint.md.

Candidates: an exact Hamming-radius search (:func:`core.hamming_index.radius_pairs`): at the
default radius 24 a family of covering tables over 4-5 parts of the 128 bits (every pair
within the radius shares at least one table key), verified by popcount.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import numpy as np

from .. import native
from ..feature_index import segment_positions
from ..hamming_index import hamming, pair_distances, radius_pairs
from ..hashing import hash_bytes_windows
from ..lsh import unique_counts
from ..method import Method, PairScores
from ..params import ignore_param, param

BITS = 128
WORDS = BITS // 64
_CHUNK_BYTES = 1 << 20


@dataclass(frozen=True)
class FingerprintParams:
    """Parameters of the fingerprint method."""

    window: int = param(64, minimum=4, maximum=1024, help="Bytes per sampled block (the patent uses 64).")
    samples: int = param(128, minimum=8, maximum=4096, help="Smallest unique checksums that flip fingerprint bits (the patent uses 128).")
    search_radius: int = param(
        24,
        minimum=0,
        maximum=48,
        affects_sketch=False,
        help="Largest Hamming distance the pair search returns (the floor's radius is capped here); "
        "unrelated documents sit near 63.",
    )
    ignore: str = ignore_param()


def sliding_blocks(data: bytes, size: int) -> list[bytes]:
    """The patent's sampled blocks: one per byte position, wrapping around the end;
    data shorter than ``size`` is NUL-padded to ``size`` first."""
    if len(data) < size:
        data = data + b"\x00" * (size - len(data))
    ring = data + data[: size - 1]
    return [ring[i : i + size] for i in range(len(data))]


def block_checksums(data: bytes, size: int) -> np.ndarray:
    """32-bit checksum of every sliding block (same blocks as :func:`sliding_blocks`)."""
    if len(data) < size:
        data = data + b"\x00" * (size - len(data))
    ring = data + data[: size - 1]
    return window_checksums(ring, size)


def window_checksums(data: bytes, size: int) -> np.ndarray:
    """The high 32 bits (uint32) of ``hash_bytes_windows(data, size)``: the checksum of
    every block of ``size`` bytes. In C where the package's C loops are built
    (``core.native``: one pass with a rolling update, the same values; numpy's dozen
    array passes were two fifths of a fingerprint worker's time)."""
    if native.LOOPS is not None:
        return native.window_checks(data, size)
    return (hash_bytes_windows(data, size) >> np.uint64(32)).astype(np.uint32)


def select_checksums(checksums: np.ndarray, count: int = 128) -> np.ndarray:
    """The ``count`` smallest unique checksums (all of them when there are fewer)."""
    return unique_counts(np.asarray(checksums))[0][:count]


def compact(checksums: np.ndarray, bits: int = BITS) -> np.ndarray:
    """Flip bit (checksum mod bits) of a zero fingerprint once per checksum.

    Returns the fingerprint as bits // 64 uint64 words; bit b is bit b % 64 of word b // 64.
    """
    index = np.asarray(checksums, dtype=np.uint64) % np.uint64(bits)
    odd = np.bincount(index.astype(np.int64), minlength=bits) & 1
    return _pack(odd.reshape(1, bits))[0]


def _pack(bitrows: np.ndarray) -> np.ndarray:
    """(N, bits) 0/1 -> (N, bits // 64) uint64, bit b to word b // 64, position b % 64."""
    n, bits = bitrows.shape
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    words = bitrows.reshape(n, bits // 64, 64).astype(np.uint64) * weights
    return np.bitwise_or.reduce(words, axis=2)


def fingerprints_many(texts: Sequence[str], window: int = 64, samples: int = 128) -> np.ndarray:
    """(N, 2) uint64 fingerprints of many normalised texts, vectorised per chunk of ~1 MB."""
    out = np.zeros((len(texts), WORDS), dtype=np.uint64)
    lo = 0
    while lo < len(texts):
        rings, lengths, size = [], [], 0
        hi = lo
        while hi < len(texts) and (size < _CHUNK_BYTES or hi == lo):
            data = texts[hi].encode("utf-8", "surrogatepass")
            if len(data) < window:
                data = data + b"\x00" * (window - len(data))
            if len(data) > _CHUNK_BYTES:  # one long document: its blocks a slice at a time
                out[hi] = compact(_long_selection(data, window, samples))
                hi += 1
                break
            rings.append(data + data[: window - 1])
            lengths.append(len(data))
            size += len(data)
            hi += 1
        if rings:
            done = _fingerprint_chunk(rings, np.array(lengths, dtype=np.int64), window, samples)
            out[lo : lo + len(rings)] = done
        lo = hi
    return out


def _long_selection(data: bytes, window: int, samples: int) -> np.ndarray:
    """The ``samples`` smallest unique block checksums of a long document, its blocks
    taken _CHUNK_BYTES at a time: each slice keeps its own smallest, and the smallest of
    those are the document's (a checksum among the document's smallest is among its
    slice's). Memory stays that of one slice, not ~50 bytes per byte of text."""
    ring = data + data[: window - 1]
    kept = []
    for s in range(0, len(data), _CHUNK_BYTES):
        e = min(s + _CHUNK_BYTES, len(data))
        checks = window_checksums(ring[s : e + window - 1], window)
        kept.append(select_checksums(checks, samples))
    return select_checksums(np.concatenate(kept), samples)


def _fingerprint_chunk(rings: list[bytes], lengths: np.ndarray, window: int, samples: int) -> np.ndarray:
    m = len(rings)
    checks = window_checksums(b"".join(rings), window).astype(np.uint64)
    # Ring k starts at sum(lengths[:k] + window - 1); its blocks are the next lengths[k]
    # windows, the window - 1 after them run into the next ring and are never read.
    starts = np.concatenate(([0], np.cumsum(lengths + window - 1)[:-1])).astype(np.int64)
    keys = _smallest_keys(checks, starts, lengths, window, samples)  # sorted by document, then checksum
    kdoc = (keys >> np.uint64(32)).astype(np.int64)
    first = np.searchsorted(kdoc, np.arange(m))
    rank = np.arange(keys.shape[0]) - first[kdoc]
    sel = rank < samples
    bit = (keys[sel] & np.uint64(BITS - 1)).astype(np.int64)
    odd = np.bincount(kdoc[sel] * BITS + bit, minlength=m * BITS) & 1
    return _pack(odd.reshape(m, BITS))


#: A document's checksums below SELECT_MARGIN x samples / blocks of the 32-bit range are
#: looked at first (about twice the ones selected, if the checksums are uniform).
SELECT_MARGIN = 2.0


def _smallest_keys(checks: np.ndarray, starts: np.ndarray, lengths: np.ndarray, window: int,
                   samples: int) -> np.ndarray:
    """Sorted distinct (document << 32 | checksum) keys holding at least each document's
    ``samples`` smallest distinct checksums (all of them where it has fewer); document k's
    checksums are ``checks[starts[k] : starts[k] + lengths[k]]``.

    Only a document's smallest checksums can be selected, so instead of sorting every
    block's key, the keys below a bound that leaves about twice the samples are sorted (a
    twentieth of them for a 4 KB text); a document left with fewer than ``samples``
    distinct checksums under its bound (a short or repetitive text) has all of its keys
    sorted instead. The smallest distinct checksums are the same either way."""
    m = lengths.shape[0]
    bound = np.minimum(np.ceil(SELECT_MARGIN * samples * 2.0**32 / np.maximum(lengths, 1)), 2.0**32).astype(np.uint64)
    # each block's bound: its document's, and 0 (never) for the windows between two rings
    runs = np.empty(2 * m, dtype=np.int64)
    runs[0::2], runs[1::2] = lengths, window - 1
    limits = np.zeros(2 * m, dtype=np.uint64)
    limits[0::2] = bound
    at = np.flatnonzero(checks < np.repeat(limits, runs)[: checks.shape[0]])
    keys = unique_counts(_keys_at(at, checks, starts))[0]
    found = np.bincount((keys >> np.uint64(32)).astype(np.int64), minlength=m)
    short = np.flatnonzero(found < samples)
    if not short.shape[0]:
        return keys
    whole = unique_counts(_keys_at(segment_positions(starts[short], lengths[short]), checks, starts))[0]
    kept = keys[found[(keys >> np.uint64(32)).astype(np.int64)] >= samples]
    return np.sort(np.concatenate((kept, whole)))


def _keys_at(at: np.ndarray, checks: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """(document << 32 | checksum) of the blocks at the positions ``at`` (sorted)."""
    doc = (np.searchsorted(starts, at, side="right") - 1).astype(np.uint64)
    return (doc << np.uint64(32)) | checks[at]


def _floor_radius(floor: float) -> int:
    """The largest Hamming distance whose score 1 - d / 128 reaches ``floor``."""
    return int(np.floor((1.0 - floor) * BITS + 1e-9))


def fingerprint_of(data: bytes, window: int = 64, samples: int = 128) -> np.ndarray:
    """The fingerprint of raw bytes, step by step as the patent describes (for tests)."""
    return compact(select_checksums(block_checksums(data, window), samples))


class FingerprintMethod(Method):
    """The patent's sampled-checksum fingerprint, compared by Hamming distance."""

    name: ClassVar[str] = "fingerprint"
    description: ClassVar[str] = "128-bit fingerprint from the smallest block checksums; Hamming distance (patent)"
    Params: ClassVar[type] = FingerprintParams
    default_threshold: ClassVar[float] = 1.0 - 18.0 / BITS
    partial_search: ClassVar[bool] = True  # its Hamming search stops at near-identical texts
    source: ClassVar[str] = "002_3dfc48537c22c878.txt"
    sketch_dtype: ClassVar[np.dtype] = np.dtype(np.uint64)

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """The 128-bit fingerprint of one normalised text (2 uint64)."""
        return fingerprints_many([text], params.window, params.samples)[0]

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Fingerprints of many texts at once."""
        return list(fingerprints_many(list(texts), params.window, params.samples))

    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """1 - Hamming distance / 128."""
        return 1.0 - hamming(a, b) / BITS

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Vectorised scores; ``extra["hamming"]`` holds the distances."""
        if len(pairs) == 0:
            empty = PairScores.empty()
            return PairScores(empty.i, empty.j, empty.score, empty.cont_ij, empty.cont_ji, {"hamming": empty.score.copy()})
        fps = np.stack([np.asarray(s, dtype=np.uint64) for s in sketches])
        pairs = np.asarray(pairs, dtype=np.int64)
        dist = pair_distances(fps, pairs)
        nan = np.full(len(pairs), np.nan)
        return PairScores(
            pairs[:, 0].copy(), pairs[:, 1].copy(), 1.0 - dist / BITS, nan, nan.copy(), {"hamming": dist.astype(np.float64)}
        )

    def search_radius(self, params: Any, floor: float) -> int:
        """Hamming radius searched: the floor's radius floor((1 - floor) * 128), capped."""
        return max(0, min(_floor_radius(floor), params.search_radius))

    def candidate_pairs(
        self,
        sketches: Sequence[np.ndarray],
        params: Any,
        floor: float,
        dates: np.ndarray | None = None,
    ) -> np.ndarray:
        """Every pair within :meth:`search_radius`, exactly: covering tables (sub-quadratic; see
        :mod:`core.hamming_index`), or a blocked popcount for small collections."""
        if len(sketches) < 2:
            return np.empty((0, 2), dtype=np.int64)
        fps = np.stack([np.asarray(s, dtype=np.uint64) for s in sketches])
        pairs, _ = radius_pairs(fps, self.search_radius(params, floor))
        return pairs

    def complete_from(self, params: Any, floor: float) -> float | None:
        """The score from which the search finds every pair (see PairScores): None when the
        search radius covers the floor, else the score of the capped radius, 1 - radius / 128
        (at floor 0.3 and the default cap 24: 0.8125; pairs below are not looked for)."""
        radius = self.search_radius(params, floor)
        return None if radius >= _floor_radius(floor) else 1.0 - radius / BITS
