"""Words and letters of normalised text found in its UTF-8 bytes.

Text is mostly ASCII even when it is not all ASCII: an accented name, a curly quote, a dash.
Working on every code point (a 32-bit array, a table lookup per character) or with the
regular expressions that know every combining mark costs several times what the ASCII
paths cost. Here the bytes are classified as in the ASCII path and only the few multi-byte
characters are decoded and looked up. That gives exactly the letters of
``core.normalize.strip_to_letters`` and the words of ``core.normalize.tokens``: a word is a
run of word characters, cut before and after every character of a script written without
spaces (whose words are single characters) unless a combining mark follows it.
"""

from __future__ import annotations

import numpy as np

from .code_point_classes import MARK, NOSPACE, NOSPACE_MIN, WORD, classes
from .normalize import tokens
from .unique import sorted_unique

# bytes.translate's table: 1 for an ASCII word character, 0 for every other byte
_ASCII_WORD_TABLE = bytes(int(c < 128 and (chr(c).isalnum() or c == ord("_"))) for c in range(256))


def utf8_word_spans(raw: bytes) -> tuple[np.ndarray, np.ndarray]:
    """(start, length) in bytes of every token of UTF-8 text, as ``core.normalize.tokens``
    splits it: the runs of word bytes, as for ASCII, once the few multi-byte characters are
    classified by their code point (several times faster than working on every code point),
    cut where a character of a script written without spaces begins or ends a token."""
    arr = np.frombuffer(raw, dtype=np.uint8)
    word = np.zeros(arr.shape[0] + 2, dtype=np.int8)
    cuts = utf8_word_mask(arr, word[1:-1].view(bool), cuts=True, raw=raw)
    edges = np.flatnonzero(word[1:] != word[:-1])  # alternately a token start and end
    starts, ends = edges[0::2], edges[1::2]
    if cuts is not None and cuts.shape[0]:  # a cut ends one token and starts the next
        starts = np.sort(np.concatenate((starts, cuts)))
        ends = np.sort(np.concatenate((ends, cuts)))
    return starts, ends - starts


def word_tokens(text: str) -> list[str]:
    """``core.normalize.tokens``: the words of a normalised text, found in its UTF-8 bytes
    (several times faster than the regular expression with the combining marks)."""
    if not text.isascii():
        raw = text.encode("utf-8", "surrogatepass")
        starts, lengths = utf8_word_spans(raw)
        # byte offsets to character offsets: less the continuation bytes before them
        arr = np.frombuffer(raw, dtype=np.uint8)
        before = np.zeros(arr.shape[0] + 1, dtype=np.int64)
        np.cumsum((arr & np.uint8(0xC0)) == np.uint8(0x80), out=before[1:])
        ends = starts + lengths
        return [text[a:b] for a, b in zip((starts - before[starts]).tolist(), (ends - before[ends]).tolist())]
    return tokens(text)


def utf8_word_mask(arr: np.ndarray, out: np.ndarray, cuts: bool = False, raw: bytes | None = None) -> np.ndarray | None:
    """Mark in ``out`` every byte of UTF-8 ``arr`` that belongs to a word character (a
    letter, a digit, "_" or a combining mark). With ``cuts``: also return the byte
    positions inside runs of word characters where ``core.normalize.tokens`` starts a new
    token (at and after a character of a script written without spaces, unless the
    character there is a combining mark), sorted; None when there are none. ``raw``: the
    bytes of ``arr``, when the caller has them (no copy is made then)."""
    # every byte of a multi-byte character: False (bytes.translate: a fifth of the time of
    # np.take, which widens each byte to an 8-byte index first)
    out[:] = np.frombuffer((arr.tobytes() if raw is None else raw).translate(_ASCII_WORD_TABLE), dtype=bool)
    lead = np.flatnonzero(arr >= 0xC0)
    if lead.shape[0] == 0:
        return None
    last = arr.shape[0] - 1
    b0 = arr[lead].astype(np.int64)
    b1, b2, b3 = (arr[np.minimum(lead + k, last)].astype(np.int64) & 0x3F for k in (1, 2, 3))
    size = 2 + (b0 >= 0xE0) + (b0 >= 0xF0)
    cp = np.where(size == 2, ((b0 & 0x1F) << 6) | b1,
                  np.where(size == 3, ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
                           ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3))
    flags = classes(cp)
    is_word = (flags & WORD) != 0
    if is_word.any():
        at, n = lead[is_word], size[is_word]
        out[np.repeat(at, n) + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))] = True
    if not cuts or cp.max() < NOSPACE_MIN or not (flags & NOSPACE).any():
        return None
    return _nospace_cuts(out, lead, size, flags)


def _nospace_cuts(word: np.ndarray, lead: np.ndarray, size: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """Where a run of word bytes holds more than one token: before a character written
    without spaces that follows a word character, and after one where a word character
    follows, unless that character is a combining mark (which stays with its letter).
    ``lead``, ``size`` and ``flags``: the multi-byte characters in text order."""
    nospace = (flags & NOSPACE) != 0
    mark = (flags & MARK) != 0
    # at the character itself, when the byte before it is a word byte
    at = lead[nospace & ~mark & (lead > 0)]
    at = at[word[at - 1]]
    # after it, when the next byte is a word byte that does not begin a combining mark
    after = lead[nospace] + size[nospace]
    nxt = np.flatnonzero(nospace) + 1  # the next multi-byte character, if it starts there
    next_mark = np.zeros(after.shape[0], dtype=bool)
    has_next = nxt < lead.shape[0]
    next_mark[has_next] = (lead[nxt[has_next]] == after[has_next]) & mark[nxt[has_next]]
    keep = (after < word.shape[0]) & ~next_mark
    after = after[keep]
    after = after[word[after]]
    return sorted_unique(np.concatenate((at, after)))


def letters_only(text: str) -> str:
    """``core.normalize.strip_to_letters`` (white space, punctuation and "_" removed;
    letters, digits and combining marks kept), computed on the UTF-8 bytes: a tenth of
    the time of the regular expression on text with accents or curly quotes."""
    raw = text.encode("utf-8", "surrogatepass")
    arr = np.frombuffer(raw, dtype=np.uint8)
    keep = np.empty(arr.shape[0], dtype=bool)
    utf8_word_mask(arr, keep)
    keep &= arr != np.uint8(ord("_"))
    return arr[keep].tobytes().decode("utf-8", "surrogatepass")
