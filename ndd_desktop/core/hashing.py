"""Vectorised 64-bit hashing of character n-grams and word shingles.

No Python loop runs per n-gram or per shingle: the text becomes an array of code points,
and each n-gram's hash is built with n vectorised passes. Word tokens are hashed by
summing a position-mixed hash of each character over the token (``np.add.reduceat``),
which keeps word order and character order significant. All arithmetic wraps modulo 2^64.
"""

from __future__ import annotations

import functools

import numpy as np

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_BASE = np.uint64(0x100000001B3)  # odd multiplier for the polynomial combination
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def mix64(x: np.ndarray, seed: int = 0) -> np.ndarray:
    """SplitMix64 finaliser over a uint64 array (a bijection: distinct in, distinct out)."""
    with np.errstate(over="ignore"):
        z = x + np.uint64((seed * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) + _GOLDEN
        z = (z ^ (z >> _S30)) * _M1
        z = (z ^ (z >> _S27)) * _M2
        return z ^ (z >> _S31)


def codepoints(text: str) -> np.ndarray:
    """The text as a uint64 array of Unicode code points."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)


def _combine(values: np.ndarray, n: int) -> np.ndarray:
    """Polynomial hash of every window of n consecutive values (length len - n + 1)."""
    m = values.shape[0] - n + 1
    h = values[:m].copy()
    with np.errstate(over="ignore"):
        for k in range(1, n):
            h = h * _BASE + values[k : k + m]
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
        return mix64(_combine(cps, cps.shape[0]) + np.uint64(n), seed)
    return mix64(_combine(cps, n) + np.uint64(n), seed)


def hash_bytes_windows(data: bytes, n: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of every window of n bytes of ``data`` (no wrap-around)."""
    arr = np.frombuffer(data, dtype=np.uint8).astype(np.uint64)
    if arr.shape[0] < n:
        return np.empty(0, dtype=np.uint64)
    return mix64(_combine(arr, n), seed)


@functools.cache
def _word_tables() -> tuple[np.ndarray, np.ndarray]:
    """Lookup tables over all code points: is a word character, is written without spaces.

    Built once (about a tenth of a second); they agree with ``core.normalize.tokens``.
    """
    size = 0x110000
    word = np.zeros(size, dtype=bool)
    ascii_word = [c for c in range(128) if chr(c).isalnum() or c == ord("_")]
    word[ascii_word] = True
    chars = "".join(chr(c) for c in range(128, size) if not 0xD800 <= c <= 0xDFFF)
    ords = np.fromiter((ord(ch) for ch in chars), dtype=np.int64, count=len(chars))
    flags = np.fromiter((ch.isalnum() for ch in chars), dtype=bool, count=len(chars))
    word[ords] = flags
    nospace = np.zeros(size, dtype=bool)
    for lo, hi in _nospace_ranges():
        nospace[lo : hi + 1] = True
    return word, nospace & word


def _nospace_ranges() -> list[tuple[int, int]]:
    """Code point ranges of scripts written without spaces (as in core.normalize)."""
    return [
        (0x0E00, 0x0EFF),
        (0x1000, 0x109F),
        (0x1780, 0x17FF),
        (0x3040, 0x30FF),
        (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF),
        (0xF900, 0xFAFF),
        (0xAC00, 0xD7AF),
    ]


def token_hashes(text: str, seed: int = 0) -> np.ndarray:
    """One 64-bit hash per token of ``text``, as ``core.normalize.tokens`` splits it."""
    cps = codepoints(text)
    if cps.shape[0] == 0:
        return np.empty(0, dtype=np.uint64)
    word_table, nospace_table = _word_tables()
    idx = cps.astype(np.int64)
    is_word = word_table[idx]
    if not is_word.any():
        return np.empty(0, dtype=np.uint64)
    nospace = nospace_table[idx]
    prev_word = np.concatenate(([False], is_word[:-1]))
    prev_nospace = np.concatenate(([False], nospace[:-1]))
    starts_mask = is_word & (~prev_word | nospace | prev_nospace)
    starts = np.flatnonzero(starts_mask)
    positions = np.flatnonzero(is_word)
    # Position of each word character inside its token.
    token_of = np.cumsum(starts_mask)[positions] - 1
    offset = positions - starts[token_of]
    with np.errstate(over="ignore"):
        per_char = mix64(cps[positions] * _BASE + offset.astype(np.uint64) * _GOLDEN, seed)
    # reduceat over the word characters only: token k starts at the k-th start among them.
    token_starts_in_chars = np.searchsorted(positions, starts)
    sums = np.add.reduceat(per_char, token_starts_in_chars)
    lengths = np.diff(np.append(token_starts_in_chars, positions.shape[0])).astype(np.uint64)
    return mix64(sums ^ lengths, seed + 1)


def hash_word_shingles(text: str, w: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of every w-token shingle of ``text`` (with repeats, in order).

    A text with fewer than w tokens yields one shingle of all its tokens.
    """
    toks = token_hashes(text, seed)
    if toks.shape[0] == 0:
        return np.empty(0, dtype=np.uint64)
    n = min(w, toks.shape[0])
    return mix64(_combine(toks, n) + np.uint64(w), seed + 2)


def shingle_hashes_of_tokens(token_list: list[str], w: int, seed: int = 0) -> np.ndarray:
    """64-bit hashes of the w-shingles of an explicit token list (used after correction)."""
    if not token_list:
        return np.empty(0, dtype=np.uint64)
    return hash_word_shingles(" ".join(token_list), w, seed)
