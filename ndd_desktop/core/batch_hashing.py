"""32-bit shingle and q-gram values of many texts in one pass (qgram, minhash), and the
tokens of many texts found and keyed in their UTF-8 bytes (``word_spans``; hybrid too).

MinHash only needs each distinct shingle of a document to become one well-mixed 32-bit
number (collisions of 32-bit values cost ~2^-32 per pair of shingles). The values below
are built straight from the text's bytes:

* a character q-gram of Latin-1 text with q <= 8 is its q bytes read as one
  little-endian integer (one unaligned 64-bit load and a mask per position, exact);
  longer grams and grams with other characters get a polynomial hash of their code points;
* a word token is its UTF-8 bytes read in 8-byte pieces (exact up to 8 bytes, pieces
  folded through a mixer beyond), mixed once; a w-shingle is a polynomial of its
  w token hashes;
* each gram or shingle key is mixed (multiply, xor-shift, multiply) and its high 32 bits,
  forced odd, are the value (the permutations of core.minhash_sketch are bijections of
  the odd numbers).

Words are found in the texts' bytes: ASCII batches by one byte classification, other
batches in their UTF-8 (``core.utf8_words``), which decodes only the multi-byte characters.
Character grams of Latin-1 batches run the byte path; other batches run a code point path
that gives the same values for the same grams.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from . import minhash_kernel
from .hashing import MIX_K1, MIX_K2, POLY_BASE, SHORT_TAG, combine_windows
from .normalize import ascii_folded, normalize
from .unique import sorted_unique
from .utf8_words import utf8_word_spans

_K1, _K2, _SHORT_TAG = MIX_K1, MIX_K2, SHORT_TAG
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
        other = sorted_unique((wide_at[:, None] - np.arange(q)).ravel())
        other = other[(other >= 0) & (other < m)]
        h = wide[other]
        with np.errstate(over="ignore"):
            for k in range(1, q):
                h = h * POLY_BASE + wide[other + k]
        keys[other] = _mix_inplace(h + np.uint64(q))
        return keys
    return _mix_inplace(combine_windows(wide, q) + np.uint64(q))


def _short_key(key: int, length: int) -> np.uint64:
    return np.uint64((key ^ (_SHORT_TAG * (length + 1))) & 0xFFFFFFFFFFFFFFFF)


def char_gram_values(texts: Sequence[str] | Sequence[bytes], q: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """32-bit odd values of the character q-grams of many texts: (values, starts, counts).

    The q-grams of text k (with repeats) are ``values[starts[k] : starts[k] + counts[k]]``;
    a non-empty text shorter than q has one value (of the whole text), an empty one none.
    ``values`` also holds grams that straddle two texts; no text's range covers them.
    The texts may also be given as their Latin-1 encodings (bytes): the same values.
    """
    n = len(texts)
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    encoded = n > 0 and isinstance(texts[0], (bytes, bytearray))
    joined = "" if encoded else "".join(texts)
    total = int(lengths.sum())
    if encoded:
        raw = b"".join(texts)
    else:
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
            cps = np.frombuffer(texts[k], dtype=np.uint8) if encoded else _codepoints32(texts[k])
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


def _aligned_words(raw: bytes) -> np.ndarray:
    """``raw`` as little-endian uint64 words, zero-padded by at least one whole word."""
    return np.frombuffer(raw + bytes(16 - len(raw) % 8), dtype="<u8")


def _u64_at(words: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The little-endian uint64 at each byte position ``pos`` of the bytes of ``words``
    (:func:`_aligned_words`), from the two aligned words it straddles: a token's key is read
    where it starts, without an unaligned word for every byte of the batch (a copy eight
    times the size of the text)."""
    q = pos >> 3
    shift = ((pos & 7) << 3).astype(np.uint64)
    lo = words[q] >> shift
    # w << (64 - shift) without a shift by 64 (which numpy leaves to the hardware)
    hi = (words[q + 1] << np.uint64(1)) << (np.uint64(63) - shift)
    return lo | hi


def _token_keys(raw: bytes, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """64-bit keys of byte spans: the bytes themselves up to 8, 8-byte pieces folded beyond."""
    words = _aligned_words(raw)
    keys = _u64_at(words, starts)
    keys &= np.take(_LOW_MASKS, np.minimum(lengths, 8))
    longer = np.flatnonzero(lengths > 8)
    k = 1
    while longer.shape[0]:
        piece = _u64_at(words, starts[longer] + 8 * k) & np.take(_LOW_MASKS, np.minimum(lengths[longer] - 8 * k, 8))
        keys[longer] = _mix_inplace(keys[longer]) ^ piece
        k += 1
        longer = longer[lengths[longer] > 8 * k]
    return keys


@dataclass(frozen=True)
class WordSpans:
    """Where the tokens of many texts lie in their UTF-8 bytes joined by single spaces:
    token t is ``raw[starts[t] : starts[t] + lengths[t]]``; text k starts at byte
    ``text_starts[k]`` and its tokens are ``first[k] : first[k] + counts[k]``."""

    raw: bytes
    starts: np.ndarray
    lengths: np.ndarray
    first: np.ndarray
    counts: np.ndarray
    text_starts: np.ndarray

    def keys(self) -> np.ndarray:
        """64-bit keys of the tokens (see :func:`word_token_keys`); by the compiled loop
        where this process has loaded it (``core.minhash_kernel``: the same keys)."""
        kernel = minhash_kernel.ready() if _LITTLE else None
        if kernel is not None:
            out = np.empty(self.starts.shape[0], dtype=np.uint64)
            kernel.token_keys(self.raw_words(), self.starts, self.lengths, out)
            return out
        return _mix_inplace(_token_keys(self.raw, self.starts, self.lengths))

    def raw_words(self) -> np.ndarray:
        """The texts' bytes as little-endian uint64 words, zero-padded by a whole word or
        more (:func:`_aligned_words`): what the compiled loops read a token's bytes from."""
        return _aligned_words(self.raw)

    def whole_tokens(self) -> tuple[np.ndarray, np.ndarray]:
        """(which texts are one token and nothing else, that token's key; 0 for the others)."""
        ends = np.append(self.text_starts[1:] - 1, len(self.raw))
        one = np.flatnonzero(self.counts == 1)
        tok = self.first[one]
        whole = np.zeros(self.counts.shape[0], dtype=bool)
        whole[one] = (self.starts[tok] == self.text_starts[one]) & (self.starts[tok] + self.lengths[tok] == ends[one])
        keys = np.zeros(self.counts.shape[0], dtype=np.uint64)
        if whole.any():
            keys[whole] = self.keys()[self.first[whole]]
        return whole, keys

    def words(self, which: np.ndarray) -> list[str]:
        """The tokens at the indices ``which``, as text."""
        raw = self.raw
        return [raw[a : a + n].decode("utf-8", "surrogatepass")
                for a, n in zip(self.starts[which].tolist(), self.lengths[which].tolist())]


def word_spans(texts: Sequence[str]) -> WordSpans:
    """The tokens of many texts, as ``core.normalize.tokens`` splits them, found in a few
    array operations over the texts joined (ASCII batches by one byte classification, the
    others in their UTF-8: ``core.utf8_words``)."""
    if all(t.isascii() for t in texts):  # (a flag of each string, not a pass over it)
        return encoded_word_spans([t.encode("ascii") for t in texts], ascii=True)
    # each text encoded, then the bytes joined: joining the strings first made one string
    # as wide as its widest character (four bytes a character for one emoji) and encoded
    # all of it, a third of the time of a batch with a few accented texts among ASCII ones
    return encoded_word_spans([t.encode("utf-8", "surrogatepass") for t in texts], ascii=False)


def encoded_word_spans(pieces: Sequence[bytes], ascii: bool) -> WordSpans:
    """:func:`word_spans` of texts given as their UTF-8 bytes (``ascii``: all of them ASCII)."""
    n = len(pieces)
    text_starts = np.zeros(n, dtype=np.int64)
    raw = b" ".join(pieces)  # the space keeps tokens of neighbouring texts apart
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=n)
    tok_starts, tok_lens = _ascii_word_spans(raw) if ascii else utf8_word_spans(raw)
    np.cumsum(lengths[:-1] + 1, out=text_starts[1:])
    first_tok = np.searchsorted(tok_starts, text_starts)
    ntok = np.diff(np.append(first_tok, tok_starts.shape[0]))
    return WordSpans(raw, tok_starts, tok_lens, first_tok, ntok, text_starts)


def extracted_word_spans(texts: Sequence[str], chunk_bytes: int = 1 << 18) -> Iterator[tuple[list[int], WordSpans]]:
    """The tokens of extracted texts as their normalised texts hold them
    (``core.normalize.normalize``, nothing ignored): ``(which texts, their spans)`` for
    batches of about ``chunk_bytes``. An ASCII text is only folded
    (``normalize.ascii_folded``: its words, its white space not collapsed; a third of
    normalising it, and a decoding and encoding more), and ASCII texts come in batches of
    their own: one other text among them sends a whole batch down the UTF-8 path."""
    plain = [k for k, x in enumerate(texts) if x.isascii()]
    other = [k for k, x in enumerate(texts) if not x.isascii()]
    for rows, ascii in ((plain, True), (other, False)):
        lo, size = 0, 0
        pieces: list[bytes] = []
        for n, k in enumerate(rows):
            text = texts[k]
            pieces.append(ascii_folded(text) if ascii else normalize(text).encode("utf-8", "surrogatepass"))
            size += len(pieces[-1]) + 1
            if size >= chunk_bytes or n == len(rows) - 1:
                yield rows[lo : n + 1], encoded_word_spans(pieces, ascii)
                lo, size, pieces = n + 1, 0, []


def word_token_keys(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """64-bit keys of the tokens of many texts, as ``core.normalize.tokens`` splits them:
    (keys, the index of each text's first token, the number of tokens of each text).

    Equal tokens have equal keys in any text and any batch (a token of at most 8 bytes is
    those bytes, mixed once; a longer one folds its 8-byte pieces through the mixer)."""
    spans = word_spans(texts)
    return spans.keys(), spans.first, spans.counts


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
            shingles *= POLY_BASE
            shingles += tok[k : k + m]
    counts = np.where(ntok >= w, ntok - w + 1, np.minimum(ntok, 1))
    starts = first_tok.copy()
    short = np.flatnonzero((ntok > 0) & (ntok < w))
    if short.shape[0]:
        extra = tok[first_tok[short]].copy()
        with np.errstate(over="ignore"):
            for k in range(1, w - 1):
                more = ntok[short] > k
                extra[more] = extra[more] * POLY_BASE + tok[first_tok[short[more]] + k]
            extra ^= np.array([_short_key(0, int(c)) for c in ntok[short]], dtype=np.uint64)
        starts[short] = m + np.arange(short.shape[0])
        shingles = np.concatenate((shingles, extra))
    return _odd_high32(_mix_inplace(shingles)), starts, counts
