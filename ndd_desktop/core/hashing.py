"""Vectorised hashing of character n-grams and word shingles: 64-bit hashes of one text
(bottomk, fingerprint, the passages; hybrid shingles its batches' token keys here). The
32-bit values of many texts at once (qgram, minhash) are in :mod:`core.batch_hashing`.

No Python loop runs per n-gram or per shingle: the text becomes an array of code points,
and each n-gram's hash is built with n vectorised passes. Word tokens are hashed by
summing a position-mixed hash of each character over the token (``np.add.reduceat``),
which keeps word order and character order significant. All arithmetic wraps modulo 2^64.
"""

from __future__ import annotations

import functools

import numpy as np

from .code_point_classes import MARK, NOSPACE, NOSPACE_MIN, classes, is_word

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
POLY_BASE = np.uint64(0x100000001B3)  # odd multiplier for the polynomial combination
#: The two multipliers of the batch hashing's mixer (multiply, xor-shift, multiply:
#: ``core.batch_hashing``, and its compiled loop in ``core.minhash_kernel``).
MIX_K1 = np.uint64(0x9FB21C651E98DF25)
MIX_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
#: Separates "the whole (short) text" from a full shingle in a shingle's key.
SHORT_TAG = 0xA0761D6478BD642F
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
#: The seed of a run's hash (``core.text_share``'s runs of words, and the verification's
#: compiled loops), and what :func:`mix64` adds with it.
RUN_SEED = 7


def seed_offset(seed: int) -> np.uint64:
    """What :func:`mix64` adds to each value for ``seed`` before it mixes."""
    return np.uint64((seed * int(_GOLDEN) + int(_GOLDEN)) & 0xFFFFFFFFFFFFFFFF)


RUN_SEED_OFFSET = seed_offset(RUN_SEED)


def mix64(x: np.ndarray, seed: int = 0) -> np.ndarray:
    """SplitMix64 finaliser over a uint64 array (a bijection: distinct in, distinct out)."""
    with np.errstate(over="ignore"):
        z = x + seed_offset(seed)
        z = (z ^ (z >> _S30)) * _M1
        z = (z ^ (z >> _S27)) * _M2
        return z ^ (z >> _S31)


def codepoints(text: str) -> np.ndarray:
    """The text as a uint64 array of Unicode code points."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)


def combine_windows(values: np.ndarray, n: int) -> np.ndarray:
    """Polynomial hash of every window of n consecutive values (length len - n + 1)."""
    m = values.shape[0] - n + 1
    h = values[:m].copy()
    with np.errstate(over="ignore"):
        for k in range(1, n):
            h = h * POLY_BASE + values[k : k + m]
    return h


def hash_char_ngrams(text: str, n: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of every character n-gram of ``text`` (with repeats, in order).

    A text shorter than n yields one hash of the whole text (an empty text yields none),
    so a very short document still has a sketch.
    """
    cps = codepoints(text)
    if cps.shape[0] == 0:
        return np.empty(0, dtype=np.uint64)
    if cps.shape[0] < n:
        return mix64(combine_windows(cps, cps.shape[0]) + np.uint64(n), seed)
    return mix64(combine_windows(cps, n) + np.uint64(n), seed)


def hash_bytes_windows(data: bytes, n: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of every window of n bytes of ``data`` (no wrap-around)."""
    arr = np.frombuffer(data, dtype=np.uint8).astype(np.uint64)
    if arr.shape[0] < n:
        return np.empty(0, dtype=np.uint64)
    return mix64(_rolling_combine(arr, n), seed)


_BASE_INV = np.uint64(pow(int(POLY_BASE), -1, 1 << 64))


def _rolling_combine(values: np.ndarray, n: int) -> np.ndarray:
    """Same values as ``combine_windows(values, n)`` in O(len) instead of O(len * n).

    Window s is sum(v[s+k] * B^(n-1-k)) = B^(s+n-1) * (Q[s+n] - Q[s]) with prefix sums
    Q[i] = sum(v[j] * B^-j, j < i); B is odd, so it is invertible modulo 2^64.
    """
    m = values.shape[0] - n + 1
    if n <= 8:
        return combine_windows(values, n)
    with np.errstate(over="ignore"):
        inv_pows = np.full(values.shape[0], _BASE_INV, dtype=np.uint64)
        inv_pows[0] = 1
        np.multiply.accumulate(inv_pows, out=inv_pows)
        prefix = np.zeros(values.shape[0] + 1, dtype=np.uint64)
        np.cumsum(values * inv_pows, out=prefix[1:])
        pows = np.full(m, POLY_BASE, dtype=np.uint64)
        pows[0] = np.uint64(pow(int(POLY_BASE), n - 1, 1 << 64))
        np.multiply.accumulate(pows, out=pows)
        return (prefix[n : n + m] - prefix[:m]) * pows


def token_starts(positions: np.ndarray, cpw: np.ndarray) -> np.ndarray:
    """Whether each word character (at ``positions``, code points ``cpw``) starts a token, as
    ``core.normalize.tokens`` splits: after a gap, or when it or the character before it is
    written without spaces, unless it is a combining mark (which stays with its letter)."""
    new = np.empty(positions.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(np.diff(positions), 1, out=new[1:])
    if cpw.max() >= NOSPACE_MIN:
        flags = classes(cpw)
        ns = (flags & NOSPACE) != 0
        new[1:] |= (ns[1:] | ns[:-1]) & ((flags[1:] & MARK) == 0)
    return new


@functools.cache
def _char_table(seed: int) -> np.ndarray:
    """Per-character hashes of code points < 256 at offsets < 32 inside a token (a cache)."""
    cp = np.tile(np.arange(256, dtype=np.uint64), 32)
    off = np.repeat(np.arange(32, dtype=np.uint64), 256)
    with np.errstate(over="ignore"):
        return mix64(cp * POLY_BASE + off * _GOLDEN, seed)


def _token_core(cps: np.ndarray, seed: int, with_ends: bool = False) -> tuple[np.ndarray, ...]:
    """Token hashes of a code point array and the position of each token's first character
    (``with_ends``: and the position after its last character)."""
    # Latin-1 text (the common case) looks up a 256-entry table that stays in the CPU cache.
    cps = cps.astype(np.intp)  # signed indices gather several times faster than uint64
    positions = np.flatnonzero(is_word(cps))
    if positions.shape[0] == 0:
        none = np.empty(0, dtype=np.int64)
        return (np.empty(0, dtype=np.uint64), none, none) if with_ends else (np.empty(0, dtype=np.uint64), none)
    cpw = cps[positions]
    new = token_starts(positions, cpw)
    first = np.flatnonzero(new)
    offset = np.arange(positions.shape[0]) - np.repeat(first, np.diff(np.append(first, positions.shape[0])))
    table = _char_table(seed)
    small = (cpw < 256) & (offset < 32)
    if small.all():
        per_char = table[offset * 256 + cpw]
    else:
        per_char = np.empty(positions.shape[0], dtype=np.uint64)
        per_char[small] = table[offset[small] * 256 + cpw[small]]
        big = ~small
        with np.errstate(over="ignore"):
            per_char[big] = mix64(cpw[big].astype(np.uint64) * POLY_BASE + offset[big].astype(np.uint64) * _GOLDEN, seed)
    # Sum per token as differences of one running sum (wraps modulo 2^64 like reduceat).
    running = np.cumsum(per_char)
    ends = np.append(first[1:], positions.shape[0]) - 1
    with np.errstate(over="ignore"):
        sums = running[ends] - np.where(first > 0, running[first - 1], np.uint64(0))
    lengths = (ends + 1 - first).astype(np.uint64)
    if with_ends:
        return mix64(sums ^ lengths, seed + 1), positions[first], positions[ends] + 1
    return mix64(sums ^ lengths, seed + 1), positions[first]


def token_hashes(text: str, seed: int = 0) -> np.ndarray:
    """One 64-bit hash per token of ``text``, as ``core.normalize.tokens`` splits it."""
    cps = codepoints(text)
    if cps.shape[0] == 0:
        return np.empty(0, dtype=np.uint64)
    return _token_core(cps, seed)[0]


def token_spans(text: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`token_hashes` with where each token lies: ``(hashes, starts, ends)``, the
    character range ``[start, end)`` of every token in ``text`` (for showing passages)."""
    cps = codepoints(text)
    if cps.shape[0] == 0:
        none = np.empty(0, dtype=np.int64)
        return np.empty(0, dtype=np.uint64), none, none
    h, starts, ends = _token_core(cps, seed, with_ends=True)
    return h, starts.astype(np.int64), ends.astype(np.int64)


def hash_word_shingles(text: str, w: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of every w-token shingle of ``text`` (with repeats, in order).

    A text with fewer than w tokens yields one shingle of all its tokens.
    """
    return shingles_of_token_hashes(token_hashes(text, seed), w, seed)


def shingles_of_token_hashes(toks: np.ndarray, w: int, seed: int = 0) -> np.ndarray:
    """:func:`hash_word_shingles` of a text whose tokens hash to ``toks`` (in order)."""
    if toks.shape[0] == 0:
        return np.empty(0, dtype=np.uint64)
    n = min(w, toks.shape[0])
    return mix64(combine_windows(toks, n) + np.uint64(w), seed + 2)
