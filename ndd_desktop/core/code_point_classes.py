"""What each code point is to the tokenizer: a word character, a character of a script
written without spaces, a combining mark, as :func:`core.normalize.tokens` decides.

The answers live in one table over all code points that is filled in as code points are
met. Classifying all 1.1 million code points up front took 0.15-0.3 s, and every process
of a scan (the workers, the verification's helpers, the scan's own) paid it on its first
non-ASCII text, for the few hundred code points a collection of European text holds.
Here a batch's code points are looked up, and only those never seen before are
classified (the same regular expression and Unicode categories as before, over just
them).
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from .normalize import NOSPACE_RANGES
from .unique import sorted_unique

#: A code point's flags: classified (every entry that was filled in), word character (a
#: letter, a digit, "_" or a combining mark), written without spaces (and a word
#: character), combining mark.
KNOWN, WORD, NOSPACE, MARK = 1, 2, 4, 8

#: The lowest code point of a script written without spaces.
NOSPACE_MIN = min(lo for lo, _ in NOSPACE_RANGES)

_NOT_WORD = re.compile(r"\W")
# zeros: the pages of the table are only touched where code points are filled in
_FLAGS = np.zeros(0x110000, dtype=np.uint8)
# Latin-1 holds no combining mark and no script without spaces
_LATIN1_WORD = np.array([_NOT_WORD.match(chr(c)) is None for c in range(256)], dtype=bool)


def classes(cps: np.ndarray) -> np.ndarray:
    """The flags (:data:`KNOWN` | :data:`WORD` | ...) of each code point of ``cps`` (an
    integer array), classifying those not met before."""
    idx = cps.astype(np.intp, copy=False)
    flags = _FLAGS[idx]
    if not flags.all():
        _classify(sorted_unique(idx[flags == 0]))
        flags = _FLAGS[idx]
    return flags


def is_word(cps: np.ndarray) -> np.ndarray:
    """Whether each code point of ``cps`` is a word character (bool array)."""
    if cps.shape[0] and int(cps.max()) < 256:
        return _LATIN1_WORD[cps.astype(np.intp, copy=False)]
    return (classes(cps) & WORD) != 0


def _classify(points: np.ndarray) -> None:
    """Fill in the flags of ``points`` (distinct code points). Threads may do this at once:
    each writes the same values."""
    text_points = points.astype(np.uint32)
    text_points[(text_points >= 0xD800) & (text_points < 0xE000)] = 0x20  # surrogates: not encodable
    # \W (neither alphanumeric nor "_") blanks the rest out in C
    blanked = _NOT_WORD.sub("\0", text_points.tobytes().decode("utf-32-le"))
    word = np.frombuffer(blanked.encode("utf-32-le"), dtype=np.uint32) != 0
    category = unicodedata.category
    mark = np.fromiter((category(chr(c))[0] == "M" for c in points.tolist()), dtype=bool, count=points.shape[0])
    word |= mark
    nospace = np.zeros(points.shape[0], dtype=bool)
    for lo, hi in NOSPACE_RANGES:
        nospace |= (points >= lo) & (points <= hi)
    flags = np.full(points.shape[0], KNOWN, dtype=np.uint8)
    flags[word] |= WORD
    flags[nospace & word] |= NOSPACE
    flags[mark] |= MARK
    _FLAGS[points] = flags
