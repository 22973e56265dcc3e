"""Shared text normalisation and tokenisation.

Every method sketches ``normalize(text)``: Unicode NFKC, case folding, runs of white
space collapsed to one space. Tokenisation splits on anything that is not a letter or a
digit; scripts written without spaces (CJK, Thai, ...) fall back to single characters so
that word shingles still work (a shingle of w characters is a character w-gram there).
"""

from __future__ import annotations

import re
import unicodedata

_WS = re.compile(r"\s+")
_WORD = re.compile(r"\w+")
# Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul syllables
# are spaced in modern Korean but mixed text is common, so they are split too; Thai, Lao,
# Khmer and Myanmar have no spaces.
_NOSPACE = re.compile(
    "["
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff"  # Khmer
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "]"
)
_STRIP = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """NFKC, case-folded, white space collapsed and trimmed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return _WS.sub(" ", text).strip()


def strip_to_letters(text: str) -> str:
    """The text with white space and punctuation removed (the q-gram paper's Tw)."""
    return _STRIP.sub("", text)


def tokens(text: str) -> list[str]:
    """Words of a normalised text; characters of scripts written without spaces."""
    out: list[str] = []
    for word in _WORD.findall(text):
        if _NOSPACE.search(word):
            # Split the no-space run into single characters, keep other runs whole.
            buf = ""
            for ch in word:
                if _NOSPACE.match(ch):
                    if buf:
                        out.append(buf)
                        buf = ""
                    out.append(ch)
                else:
                    buf += ch
            if buf:
                out.append(buf)
        else:
            out.append(word)
    return out
