"""Words and letters of normalised text found in its UTF-8 bytes.

Text is mostly ASCII even when it is not all ASCII: an accented name, a curly quote, a dash.
Working on every code point (a 32-bit array, a table lookup per character) or with the
regular expressions that know every combining mark costs several times what the ASCII
paths cost. Here the bytes are classified as in the ASCII path and only the few multi-byte
characters are decoded and looked up. That gives exactly the letters of
``core.normalize.strip_to_letters``, and the words of ``core.normalize.tokens`` as long as no
character of a script written without spaces (whose words are single characters) occurs;
``utf8_word_spans`` says so with None and the callers take the code-point path.
"""

from __future__ import annotations

import numpy as np

from .code_point_classes import NOSPACE, NOSPACE_MIN, WORD, classes
from .normalize import tokens

# bytes.translate's table: 1 for an ASCII word character, 0 for every other byte
_ASCII_WORD_TABLE = bytes(int(c < 128 and (chr(c).isalnum() or c == ord("_"))) for c in range(256))


def utf8_word_spans(raw: bytes) -> tuple[np.ndarray, np.ndarray] | None:
    """(start, length) in bytes of every token of UTF-8 text, as ``core.normalize.tokens``
    splits it; None when the text holds a character of a script written without spaces
    (whose tokens are single characters: ``core.hashing`` works on their code points).

    Without such characters a token is a maximal run of word characters, so the runs can
    be found in the bytes, as for ASCII, once the few multi-byte characters are classified
    by their code point: several times faster than working on every code point."""
    arr = np.frombuffer(raw, dtype=np.uint8)
    word = np.zeros(arr.shape[0] + 2, dtype=np.int8)
    if not utf8_word_mask(arr, word[1:-1].view(bool), allow_nospace=False):
        return None
    edges = np.flatnonzero(word[1:] != word[:-1])  # alternately a token start and end
    starts = edges[0::2]
    return starts, edges[1::2] - starts


def word_tokens(text: str) -> list[str]:
    """``core.normalize.tokens``: the words of a normalised text, found in its UTF-8 bytes
    when it holds no character of a script written without spaces (several times faster
    than the regular expression with the combining marks), else by ``tokens`` itself."""
    if not text.isascii():
        raw = text.encode("utf-8", "surrogatepass")
        spans = utf8_word_spans(raw)
        if spans is not None:
            # byte offsets to character offsets: less the continuation bytes before them
            arr = np.frombuffer(raw, dtype=np.uint8)
            before = np.zeros(arr.shape[0] + 1, dtype=np.int64)
            np.cumsum((arr & np.uint8(0xC0)) == np.uint8(0x80), out=before[1:])
            starts, ends = spans[0], spans[0] + spans[1]
            return [text[a:b] for a, b in zip((starts - before[starts]).tolist(), (ends - before[ends]).tolist())]
    return tokens(text)


def utf8_word_mask(arr: np.ndarray, out: np.ndarray, allow_nospace: bool = True) -> bool:
    """Mark in ``out`` every byte of UTF-8 ``arr`` that belongs to a word character (a
    letter, a digit, "_" or a combining mark). False, with ``out`` unfinished, when
    ``allow_nospace`` is off and a character of a script written without spaces occurs."""
    # every byte of a multi-byte character: False (bytes.translate: a fifth of the time of
    # np.take, which widens each byte to an 8-byte index first)
    out[:] = np.frombuffer(arr.tobytes().translate(_ASCII_WORD_TABLE), dtype=bool)
    lead = np.flatnonzero(arr >= 0xC0)
    if lead.shape[0] == 0:
        return True
    last = arr.shape[0] - 1
    b0 = arr[lead].astype(np.int64)
    b1, b2, b3 = (arr[np.minimum(lead + k, last)].astype(np.int64) & 0x3F for k in (1, 2, 3))
    size = 2 + (b0 >= 0xE0) + (b0 >= 0xF0)
    cp = np.where(size == 2, ((b0 & 0x1F) << 6) | b1,
                  np.where(size == 3, ((b0 & 0x0F) << 12) | (b1 << 6) | b2,
                           ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3))
    flags = classes(cp)
    if not allow_nospace and cp.max() >= NOSPACE_MIN and (flags & NOSPACE).any():
        return False
    is_word = (flags & WORD) != 0
    if is_word.any():
        at, n = lead[is_word], size[is_word]
        out[np.repeat(at, n) + (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n))] = True
    return True


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
