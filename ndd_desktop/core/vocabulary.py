"""The hybrid method's dictionary: wordfreq's most frequent words of a language, normalised
and split as the texts are, with what the spelling corrector (:mod:`core.spelling`) needs of
each word as arrays, kept in the user's cache folder between runs (:mod:`core.disk_cache`).

Reading and normalising wordfreq's list and profiling its words take about a second in
every process that corrects words (each extraction worker and verification helper of a
hybrid scan); loading the saved arrays takes a few milliseconds.
"""

from __future__ import annotations

import functools
import heapq
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import disk_cache
from .normalize import normalize, tokens

#: Languages offered for the dictionary (all have wordfreq word lists). Languages written
#: without spaces (zh, ja) and Korean Hangul (ko) are split into characters by
#: core.normalize, so nothing there is long enough to be corrected.
LANGUAGES = (
    "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fil", "fr",
    "he", "hi", "hu", "id", "is", "it", "ja", "ko", "lt", "lv", "mk", "ms", "nb", "nl",
    "pl", "pt", "ro", "ru", "sh", "sk", "sl", "sv", "ta", "tr", "uk", "ur", "vi", "zh",
)  # fmt: skip

#: Longest word corrected or kept in the dictionary.
MAX_WORD_LEN = 32


def letter_profile(word: str) -> tuple[int, int, int]:
    """Bit-sliced character counts, characters bucketed by code point mod 32 (a-z get
    distinct buckets): buckets seen at least once, at least twice, and the excess."""
    counts: dict[int, int] = {}
    for ch in word:
        b = ord(ch) & 31
        counts[b] = counts.get(b, 0) + 1
    once = twice = excess = 0
    for b, c in counts.items():
        once |= 1 << b
        if c >= 2:
            twice |= 1 << b
            excess += c - 2
    return once, twice, min(excess, 255)


@dataclass(frozen=True)
class Vocabulary:
    """A corrector's dictionary as arrays: the words (at most 32 characters) sorted by
    length, then by falling frequency, then alphabetically; their frequencies; and each
    word's letter profile (:func:`letter_profile`: buckets held once, twice, and the excess)."""

    words: list[str]
    freqs: np.ndarray
    once: np.ndarray
    twice: np.ndarray
    excess: np.ndarray

    @classmethod
    def build(cls, words: Mapping[str, float]) -> Vocabulary:
        """From {word: frequency} (any positive scale; only the order of frequencies matters)."""
        frequency = {w: float(f) for w, f in words.items() if 0 < len(w) <= MAX_WORD_LEN}
        ordered = sorted(frequency, key=lambda w: (len(w), -frequency[w], w))
        count = len(ordered)
        profiles = [letter_profile(w) for w in ordered]
        return cls(
            ordered,
            np.fromiter((frequency[w] for w in ordered), dtype=np.float64, count=count),
            np.fromiter((p[0] for p in profiles), dtype=np.uint32, count=count),
            np.fromiter((p[1] for p in profiles), dtype=np.uint32, count=count),
            np.fromiter((p[2] for p in profiles), dtype=np.uint8, count=count),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        """The vocabulary as plain arrays (the words one UTF-8 run, separated by newlines)."""
        joined = "\n".join(self.words).encode("utf-8", "surrogatepass")
        return {"words": np.frombuffer(joined, dtype=np.uint8), "freqs": self.freqs,
                "once": self.once, "twice": self.twice, "excess": self.excess}

    @classmethod
    def from_arrays(cls, a: Mapping[str, np.ndarray]) -> Vocabulary | None:
        """The vocabulary :meth:`arrays` gave, or None when the arrays do not fit together."""
        try:
            raw = a["words"].tobytes()
            words = raw.decode("utf-8", "surrogatepass").split("\n") if raw else []
            parts = (a["freqs"].astype(np.float64, copy=False), a["once"].astype(np.uint32, copy=False),
                     a["twice"].astype(np.uint32, copy=False), a["excess"].astype(np.uint8, copy=False))
        except (KeyError, UnicodeDecodeError, ValueError):
            return None
        if any(p.ndim != 1 or p.shape[0] != len(words) for p in parts):
            return None
        return cls(words, *parts)


@functools.lru_cache(maxsize=8)
def wordfreq_dictionary(language: str = "en", size: int = 50000) -> dict[str, float]:
    """The ``size`` most frequent words of ``language`` from wordfreq, normalised and split
    as core.normalize splits text ("don't" adds "don"; combining marks stay in their words,
    so Hindi "नहीं" stays whole), word -> frequency."""
    import wordfreq  # imported here: loading its data takes a noticeable moment

    if language not in LANGUAGES:
        raise ValueError(f"language: {language!r} is not one of {', '.join(LANGUAGES)}")
    freqs = wordfreq.get_frequency_dict(language, wordlist="best")
    top = heapq.nlargest(int(size), freqs.items(), key=lambda kv: (kv[1], kv[0]))
    out: dict[str, float] = {}
    for entry, freq in top:
        for tok in tokens(normalize(entry)):
            if freq > out.get(tok, -1.0):
                out[tok] = freq
    return out


def wordfreq_vocabulary(language: str = "en", size: int = 50000) -> Vocabulary:
    """:func:`wordfreq_dictionary` as a :class:`Vocabulary`, kept in the user's cache
    folder (``core.disk_cache``) after its first use: reading and normalising wordfreq's
    list and profiling its words take about a second in every process that corrects words
    (each extraction worker and verification helper of a hybrid scan), loading the saved
    arrays a few milliseconds. The file's stamp names wordfreq's list file and the code
    that derives the vocabulary from it, so either changing makes it again."""
    if language not in LANGUAGES:
        raise ValueError(f"language: {language!r} is not one of {', '.join(LANGUAGES)}")
    name, stamp = f"vocabulary-{language}-{int(size)}", _vocabulary_stamp(language, int(size))
    saved = disk_cache.load(name, stamp)
    vocab = Vocabulary.from_arrays(saved) if saved is not None else None
    if vocab is None:
        vocab = Vocabulary.build(wordfreq_dictionary(language, size))
        disk_cache.save(name, stamp, vocab.arrays())
    return vocab


def _vocabulary_stamp(language: str, size: int) -> str:
    """What a saved vocabulary was derived from: wordfreq's word list file for the language
    (its size and time), this module and the normalisation (their source, else the
    package's version), and the Unicode version of the normalisation's character data."""
    import importlib.util

    import xxhash

    from .. import __version__

    parts = [f"format 1; {language}; {size}; unicode {unicodedata.unidata_version}; python {sys.version_info[:2]}"]
    spec = importlib.util.find_spec("wordfreq")
    data = Path(spec.origin).parent / "data" if spec is not None and spec.origin else None
    for kind in ("large", "small"):
        try:
            st = (data / f"{kind}_{language}.msgpack.gz").stat() if data is not None else None
        except OSError:
            st = None
        if st is not None:
            parts.append(f"{kind} {st.st_size} {st.st_mtime_ns}")
    here = Path(__file__).parent
    for module in ("vocabulary.py", "normalize.py", "code_point_classes.py"):
        try:
            parts.append(xxhash.xxh64_hexdigest((here / module).read_bytes()))
        except OSError:
            parts.append(f"{module} {__version__}")
    return "; ".join(parts)
