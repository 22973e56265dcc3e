"""Vectorised hashing of character n-grams and word shingles: 64-bit hashes of one text
(bottomk, hybrid, fingerprint), and 32-bit values of many texts at once (qgram, minhash).

No Python loop runs per n-gram or per shingle: the text becomes an array of code points,
and each n-gram's hash is built with n vectorised passes. Word tokens are hashed by
summing a position-mixed hash of each character over the token (``np.add.reduceat``),
which keeps word order and character order significant. All arithmetic wraps modulo 2^64.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

import numpy as np

from .normalize import combining_mark_ranges

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
    return mix64(_rolling_combine(arr, n), seed)


_BASE_INV = np.uint64(pow(int(_BASE), -1, 1 << 64))


def _rolling_combine(values: np.ndarray, n: int) -> np.ndarray:
    """Same values as ``_combine(values, n)`` in O(len) instead of O(len * n).

    Window s is sum(v[s+k] * B^(n-1-k)) = B^(s+n-1) * (Q[s+n] - Q[s]) with prefix sums
    Q[i] = sum(v[j] * B^-j, j < i); B is odd, so it is invertible modulo 2^64.
    """
    m = values.shape[0] - n + 1
    if n <= 8:
        return _combine(values, n)
    with np.errstate(over="ignore"):
        inv_pows = np.full(values.shape[0], _BASE_INV, dtype=np.uint64)
        inv_pows[0] = 1
        np.multiply.accumulate(inv_pows, out=inv_pows)
        prefix = np.zeros(values.shape[0] + 1, dtype=np.uint64)
        np.cumsum(values * inv_pows, out=prefix[1:])
        pows = np.full(m, _BASE, dtype=np.uint64)
        pows[0] = np.uint64(pow(int(_BASE), n - 1, 1 << 64))
        np.multiply.accumulate(pows, out=pows)
        return (prefix[n : n + m] - prefix[:m]) * pows


_NOT_WORD = re.compile(r"\W")


@functools.cache
def _word_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookup tables over all code points: is a word character (a letter, a digit, "_" or a
    combining mark), is written without spaces, is a combining mark.

    Built once (about a tenth of a second); they agree with ``core.normalize.tokens``.
    """
    size = 0x110000
    # every code point as text (a space for the surrogates, which cannot be encoded); the
    # regex \W (neither alphanumeric nor "_") blanks the rest out in C, where asking
    # str.isalnum() of each character took a second
    points = np.arange(size, dtype=np.uint32)
    points[0xD800:0xE000] = 0x20
    word = np.empty(size, dtype=bool)
    step = 1 << 15  # a piece at a time: one C call over all of them would hold the GIL ~0.1 s
    for lo in range(0, size, step):
        piece = points[lo : lo + step].tobytes().decode("utf-32-le")
        np.not_equal(np.frombuffer(_NOT_WORD.sub("\0", piece).encode("utf-32-le"), dtype=np.uint32), 0,
                     out=word[lo : lo + step])
    mark = np.zeros(size, dtype=bool)
    for lo, hi in combining_mark_ranges():
        mark[lo : hi + 1] = True
    word |= mark
    nospace = np.zeros(size, dtype=bool)
    for lo, hi in _nospace_ranges():
        nospace[lo : hi + 1] = True
    return word, nospace & word, mark


def _token_starts(positions: np.ndarray, cpw: np.ndarray) -> np.ndarray:
    """Whether each word character (at ``positions``, code points ``cpw``) starts a token, as
    ``core.normalize.tokens`` splits: after a gap, or when it or the character before it is
    written without spaces, unless it is a combining mark (which stays with its letter)."""
    new = np.empty(positions.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(np.diff(positions), 1, out=new[1:])
    if cpw.max() >= _NOSPACE_MIN:
        _, nospace_table, mark_table = _word_tables()
        ns = nospace_table[cpw]
        new[1:] |= (ns[1:] | ns[:-1]) & ~mark_table[cpw[1:]]
    return new


_NOSPACE_MIN = 0x0E00  # the lowest code point of the ranges below


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


@functools.cache
def _char_table(seed: int) -> np.ndarray:
    """Per-character hashes of code points < 256 at offsets < 32 inside a token (a cache)."""
    cp = np.tile(np.arange(256, dtype=np.uint64), 32)
    off = np.repeat(np.arange(32, dtype=np.uint64), 256)
    with np.errstate(over="ignore"):
        return mix64(cp * _BASE + off * _GOLDEN, seed)


def _token_core(cps: np.ndarray, seed: int, with_ends: bool = False) -> tuple[np.ndarray, ...]:
    """Token hashes of a code point array and the position of each token's first character
    (``with_ends``: and the position after its last character)."""
    word_table = _word_tables()[0]
    # Latin-1 text (the common case) looks up a 256-entry table that stays in the CPU cache.
    cps = cps.astype(np.intp)  # signed indices gather several times faster than uint64
    is_word = (word_table[:256] if cps.max() < 256 else word_table)[cps]
    positions = np.flatnonzero(is_word)
    if positions.shape[0] == 0:
        none = np.empty(0, dtype=np.int64)
        return (np.empty(0, dtype=np.uint64), none, none) if with_ends else (np.empty(0, dtype=np.uint64), none)
    cpw = cps[positions]
    new = _token_starts(positions, cpw)
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
            per_char[big] = mix64(cpw[big].astype(np.uint64) * _BASE + offset[big].astype(np.uint64) * _GOLDEN, seed)
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


# -- 32-bit shingle values for MinHash: many texts in one pass, no Python loop per shingle --
#
# MinHash only needs each distinct shingle of a document to become one well-mixed 32-bit
# number (collisions of 32-bit values cost ~2^-32 per pair of shingles). The values below
# are built straight from the text's bytes:
#
# * a character q-gram of Latin-1 text with q <= 8 is its q bytes read as one
#   little-endian integer (one unaligned 64-bit load and a mask per position, exact);
#   longer grams and grams with other characters get a polynomial hash of their code points;
# * a word token is its UTF-8 bytes read in 8-byte pieces (exact up to 8 bytes, pieces
#   folded through a mixer beyond), mixed once; a w-shingle is a polynomial of its
#   w token hashes;
# * each gram or shingle key is mixed (multiply, xor-shift, multiply) and its high 32 bits,
#   forced odd, are the value (the permutations of core.minhash_sketch are bijections of
#   the odd numbers).
#
# ASCII (words) or Latin-1 (characters) batches run the byte path; other batches run a code
# point path that gives the same values for the same shingles.

_K1 = np.uint64(0x9FB21C651E98DF25)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_SHORT_TAG = 0xA0761D6478BD642F  # separates "the whole (short) text" from a full shingle
_S32 = np.uint64(32)
_LOW_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_LITTLE = np.little_endian


def _mix_inplace(z: np.ndarray) -> np.ndarray:
    """z <- mix(z) for a uint64 array (multiply, xor-shift, multiply; a bijection)."""
    with np.errstate(over="ignore"):
        z *= _K1
        if _LITTLE and z.flags.c_contiguous:
            halves = z.view(np.uint32)  # z ^= z >> 32 only changes the low halves
            np.bitwise_xor(halves[0::2], halves[1::2], out=halves[0::2])
        else:
            z ^= z >> _S32
        z *= _K2
    return z


def _odd_high32(z: np.ndarray) -> np.ndarray:
    """The high 32 bits of each uint64 of a mixed array, forced odd (a new uint32 array)."""
    if _LITTLE and z.flags.c_contiguous:
        high = z.view(np.uint32)[1::2]
    else:
        high = (z >> _S32).astype(np.uint32)
    return np.bitwise_or(high, np.uint32(1))


def _u64_at_every_byte(padded: np.ndarray, n: int) -> np.ndarray:
    """A read-only uint64 view of ``padded`` (uint8, >= n + 7 long) starting at each of n bytes."""
    return np.ndarray((n,), dtype="<u8", buffer=padded, offset=0, strides=(1,))


def _gram_keys(cps: np.ndarray, q: int) -> np.ndarray:
    """64-bit keys of every q-gram of a code point array (uint8 or uint32; length >= q).

    A gram of code points < 256 with q <= 8 is its code points packed little-endian (what
    the byte path reads directly); any other gram gets a mixed polynomial hash.
    """
    m = cps.shape[0] - q + 1
    wide = cps.astype(np.uint64)
    if q <= 8:
        keys = wide[:m].copy()
        for k in range(1, q):
            keys |= wide[k : k + m] << np.uint64(8 * k)
        if cps.dtype == np.uint8 or int(cps.max()) < 256:
            return keys
        # the grams holding a code point >= 256 (few: each starts at most q - 1 before one)
        wide_at = np.flatnonzero(cps >= 256)
        other = np.unique((wide_at[:, None] - np.arange(q)).ravel())
        other = other[(other >= 0) & (other < m)]
        h = wide[other]
        with np.errstate(over="ignore"):
            for k in range(1, q):
                h = h * _BASE + wide[other + k]
        keys[other] = _mix_inplace(h + np.uint64(q))
        return keys
    return _mix_inplace(_combine(wide, q) + np.uint64(q))


def _short_key(key: int, length: int) -> np.uint64:
    return np.uint64((key ^ (_SHORT_TAG * (length + 1))) & 0xFFFFFFFFFFFFFFFF)


def char_gram_values(texts: Sequence[str], q: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """32-bit odd values of the character q-grams of many texts: (values, starts, counts).

    The q-grams of text k (with repeats) are ``values[starts[k] : starts[k] + counts[k]]``;
    a non-empty text shorter than q has one value (of the whole text), an empty one none.
    ``values`` also holds grams that straddle two texts; no text's range covers them.
    """
    n = len(texts)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    joined = "".join(texts)
    total = len(joined)
    try:
        raw = joined.encode("latin-1")
    except UnicodeEncodeError:
        raw = None
    m = max(total - q + 1, 0)
    if m == 0:
        keys = np.empty(0, dtype=np.uint64)
    elif raw is not None and q <= 8:
        padded = np.frombuffer(raw + bytes(8), dtype=np.uint8)
        keys = np.bitwise_and(_u64_at_every_byte(padded, m), _LOW_MASKS[q])
    else:
        cps = np.frombuffer(raw, dtype=np.uint8) if raw is not None else _codepoints32(joined)
        keys = _gram_keys(cps, q)
    counts = np.maximum(lengths - q + 1, 0)
    short = np.flatnonzero((lengths > 0) & (lengths < q))
    if short.shape[0]:
        extra = []
        for k in short.tolist():
            cps = _codepoints32(texts[k])
            extra.append(_short_key(int(_gram_keys(cps, cps.shape[0])[0]), cps.shape[0]))
        starts[short] = m + np.arange(short.shape[0])
        counts[short] = 1
        keys = np.concatenate((keys, np.array(extra, dtype=np.uint64)))
    return _odd_high32(_mix_inplace(keys)), starts, counts


def _codepoints32(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _ascii_word_spans(raw: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(start, length) of every run of [0-9A-Za-z_] in ASCII bytes."""
    arr = np.frombuffer(raw, dtype=np.uint8)
    word = np.zeros(arr.shape[0] + 2, dtype=np.int8)
    inner = word[1:-1].view(bool)
    with np.errstate(over="ignore"):
        np.less(np.bitwise_or(arr, np.uint8(0x20)) - np.uint8(ord("a")), np.uint8(26), out=inner)
        inner |= (arr - np.uint8(ord("0"))) < np.uint8(10)
    inner |= arr == np.uint8(ord("_"))
    edges = np.flatnonzero(word[1:] != word[:-1])  # alternately a token start and end
    starts = edges[0::2]
    return starts, edges[1::2] - starts


def _unicode_word_spans(cps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(start, length) in code points of every token, as ``core.normalize.tokens`` splits."""
    idx = cps.astype(np.intp)
    positions = np.flatnonzero(_word_tables()[0][idx])
    if positions.shape[0] == 0:
        return positions, positions
    new = _token_starts(positions, idx[positions])
    first = np.flatnonzero(new)
    last = np.append(first[1:], positions.shape[0]) - 1
    starts = positions[first]
    return starts, positions[last] + 1 - starts


def _token_keys(raw: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """64-bit keys of byte spans: the bytes themselves up to 8, 8-byte pieces folded beyond."""
    padded = np.frombuffer(raw + bytes(8), dtype=np.uint8)
    # np.take would copy the unaligned view anyway, more slowly than an explicit copy.
    at = np.ascontiguousarray(_u64_at_every_byte(padded, len(raw)))
    keys = np.take(at, starts)
    keys &= np.take(_LOW_MASKS, np.minimum(lengths, 8))
    longer = np.flatnonzero(lengths > 8)
    k = 1
    while longer.shape[0]:
        piece = at[starts[longer] + 8 * k] & np.take(_LOW_MASKS, np.minimum(lengths[longer] - 8 * k, 8))
        keys[longer] = _mix_inplace(keys[longer]) ^ piece
        k += 1
        longer = longer[lengths[longer] > 8 * k]
    return keys


def word_token_keys(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """64-bit keys of the tokens of many texts, as ``core.normalize.tokens`` splits them:
    (keys, the index of each text's first token, the number of tokens of each text).

    Equal tokens have equal keys in any text and any batch; the tokens of all texts are
    found and hashed in a few array operations over the texts joined."""
    from .utf8_words import utf8_word_spans  # that module reads this one's tables

    n = len(texts)
    joined = " ".join(texts)  # the space keeps tokens of neighbouring texts apart
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    text_starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1] + 1, out=text_starts[1:])
    if joined.isascii():
        raw = joined.encode("ascii")
        tok_starts, tok_lens = _ascii_word_spans(raw)
        byte_starts = tok_starts
    elif (spans := utf8_word_spans(raw := joined.encode("utf-8", "surrogatepass"))) is not None:
        byte_starts, tok_lens = spans
        tok_starts = byte_starts
        # where each text starts, in bytes (str.isascii is a flag lookup: only the texts
        # with other characters are encoded to count theirs)
        lengths = np.fromiter((len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass")) for t in texts),
                              dtype=np.int64, count=n)
        np.cumsum(lengths[:-1] + 1, out=text_starts[1:])
    else:
        cps = _codepoints32(joined)
        tok_starts, char_lens = _unicode_word_spans(cps)
        byte_at = np.zeros(cps.shape[0] + 1, dtype=np.int64)
        np.cumsum(1 + (cps >= 0x80).astype(np.int64) + (cps >= 0x800) + (cps >= 0x10000), out=byte_at[1:])
        byte_starts = byte_at[tok_starts]
        tok_lens = byte_at[tok_starts + char_lens] - byte_starts
    first_tok = np.searchsorted(tok_starts, text_starts)
    ntok = np.diff(np.append(first_tok, tok_starts.shape[0]))
    return _mix_inplace(_token_keys(raw, byte_starts, tok_lens)), first_tok, ntok


def word_shingle_values(texts: Sequence[str], w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """32-bit odd values of the w-token shingles of many texts: (values, starts, counts).

    As ``char_gram_values``; a text with 1..w-1 tokens has one value (of all its tokens).
    Tokens are those of ``core.normalize.tokens``.
    """
    tok, first_tok, ntok = word_token_keys(texts)
    m = max(tok.shape[0] - w + 1, 0)
    shingles = tok[:m].copy()
    with np.errstate(over="ignore"):
        for k in range(1, w):
            shingles *= _BASE
            shingles += tok[k : k + m]
    counts = np.where(ntok >= w, ntok - w + 1, np.minimum(ntok, 1))
    starts = first_tok.copy()
    short = np.flatnonzero((ntok > 0) & (ntok < w))
    if short.shape[0]:
        extra = tok[first_tok[short]].copy()
        with np.errstate(over="ignore"):
            for k in range(1, w - 1):
                more = ntok[short] > k
                extra[more] = extra[more] * _BASE + tok[first_tok[short[more]] + k]
            extra ^= np.array([_short_key(0, int(c)) for c in ntok[short]], dtype=np.uint64)
        starts[short] = m + np.arange(short.shape[0])
        shingles = np.concatenate((shingles, extra))
    return _odd_high32(_mix_inplace(shingles)), starts, counts
