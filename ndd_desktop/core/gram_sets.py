"""qgram's sketches of many texts: the sorted distinct 32-bit values of each text's
character q-grams, white space and punctuation left out (``core.normalize.strip_to_letters``).

The values are those of :func:`core.batch_hashing.char_gram_values` on the stripped texts.
A Latin-1 text (nearly all) is encoded once and stripped by one byte translation, and the
grams of the whole batch are hashed from the joined bytes; before, each text was encoded
four times and decoded once on the way. So is a text whose other characters are all
dropped anyway (curly quotes, dashes, bullets, emoji: most texts saved by a word
processor), without them: 91 -> 15 us a 4 KB text. Texts with letters beyond Latin-1 are
stripped by ``core.utf8_words.letters_only`` and hashed by code point: the same values.
(A C loop hashing, sorting and deduplicating was no quicker than numpy's vector sort; a
numba version was ~1.3x faster than numpy, but this runs in every extraction worker, and
numba costs each of them ~130 MB.)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .batch_hashing import char_gram_values
from .normalize import chars_beyond_ascii, strip_to_letters
from .unique import sorted_unique
from .utf8_words import letters_only

#: The Latin-1 bytes strip_to_letters drops (derived from it, so the two cannot drift).
_DROP = bytes(c for c in range(256) if strip_to_letters(chr(c)) == "")


def qgram_sets(texts: Sequence[str], q: int) -> list[np.ndarray]:
    """The sketch of each text: the sorted distinct values (uint32) of the q-grams of
    ``strip_to_letters(text)``; a non-empty text shorter than q has one value."""
    latin: list[int] = []
    raws: list[bytes] = []
    wide: list[int] = []
    for k, text in enumerate(texts):
        try:
            raws.append(text.encode("latin-1").translate(None, _DROP))
            latin.append(k)
        except UnicodeEncodeError:
            if _only_dropped_beyond_latin1(text):  # curly quotes, dashes, bullets, emoji
                raws.append(text.encode("latin-1", "ignore").translate(None, _DROP))
                latin.append(k)
            else:
                wide.append(k)
    if not wide:
        return _sets(raws, q)
    out: list[np.ndarray] = [np.empty(0, np.uint32)] * len(texts)
    for which, sets in ((latin, _sets(raws, q)), (wide, _sets([letters_only(texts[k]) for k in wide], q))):
        for k, s in zip(which, sets):
            out[k] = s
    return out


def _only_dropped_beyond_latin1(text: str) -> bool:
    """Whether every character of ``text`` beyond Latin-1 is one that strip_to_letters drops
    (a curly quote, a dash, a bullet, an emoji): its letters are then those of its Latin-1
    characters, which the Latin-1 path strips and hashes at a sixth of the time of the path
    by code point (strip_to_letters keeps or drops each character by itself)."""
    beyond = chars_beyond_ascii(text.encode("utf-8", "surrogatepass"))
    return not strip_to_letters("".join(ch for ch in beyond if ch > "\xff"))  # (a few characters)


def _sets(stripped: Sequence[str] | Sequence[bytes], q: int) -> list[np.ndarray]:
    """Sketches of already stripped texts (str, or Latin-1 bytes)."""
    if not stripped:
        return []
    values, starts, counts = char_gram_values(stripped, q)
    return [sorted_unique(values[s : s + c]) for s, c in zip(starts.tolist(), counts.tolist())]
