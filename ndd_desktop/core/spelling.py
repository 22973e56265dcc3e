"""Typo correction for the hybrid method: collapse repeated letters, then replace each
word missing from a dictionary by the dictionary word of highest Jaro similarity.

The approach follows source document 003 (hybrid typo-tolerant shingling): letters
repeated more than twice become two ("Gooood" -> "Good"); an unknown word becomes the
dictionary word with the highest Jaro similarity if that is at least a threshold (0.8 in
the source), ties going to the more frequent word. The dictionary and the frequencies come
from the ``wordfreq`` package (:mod:`core.vocabulary`), or are injected.

Speed: each distinct word is corrected once (a per-corrector cache); unknown words are
taken in batches of one length; candidates are limited to the lengths that can reach the
threshold and then to the words whose character overlap can (a bit-mask bound computed as
a matrix operation); rapidfuzz computes the Jaro similarity of the surviving pairs in one
call (``process.cpdist``). The filters are exact: they never drop a word that could reach
the threshold, so the result equals a scan of the whole dictionary with jellyfish.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Jaro

from .normalize import tokens
from .unique import sorted_unique
from .vocabulary import MAX_WORD_LEN, Vocabulary, letter_profile, wordfreq_vocabulary

_REPEATS = re.compile(r"(.)\1\1+", re.DOTALL)  # any run of 3+; letters are checked on a hit
_EPS = 1e-9
_CACHE_LIMIT = 1_000_000  # unknown words remembered per corrector before starting afresh
_BATCH = 512  # words of one length corrected together
_FILTER_CELLS = 1 << 21  # (words x dictionary rows) per filter step


def collapse_repeats(text: str) -> str:
    """Letters repeated more than twice in a row become two: "Gooood Woorkkk" -> "Good Woorkk"."""
    return _REPEATS.sub(_two_if_letter, text) if _may_repeat(text) else text


def _may_repeat(text: str) -> bool:
    """Whether ``text`` may hold a letter three times in a row: a run of three of one
    character above "@" (every letter is) among its code points. A quick test, ten times
    faster than the expression's scan, which then runs only on the texts it lets through."""
    if len(text) < 3:
        return False
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    mid = cps[1:-1]
    return bool(np.any((cps[2:] == mid) & (mid == cps[:-2]) & (mid > 0x40)))


def collapse_repeats_many(texts: Sequence[str]) -> list[str]:
    """:func:`collapse_repeats` of each text; the texts that may hold a letter three times
    in a row are found in one pass over them all (the expression then runs on those only)."""
    if not texts:
        return []
    joined = "\x00".join(texts)  # a separator below "@" never extends a run
    if joined.isascii():
        cps = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
    else:
        cps = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    mid = cps[1:-1]
    hits = np.flatnonzero((cps[2:] == mid) & (mid == cps[:-2]) & (mid > 0x40))
    out = list(texts)
    if hits.shape[0]:
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        starts = np.cumsum(lengths + 1) - (lengths + 1)
        for k in sorted_unique(np.searchsorted(starts, hits + 1, side="right") - 1).tolist():
            out[k] = _REPEATS.sub(_two_if_letter, texts[k])
    return out


def _two_if_letter(match: re.Match) -> str:
    run = match.group(0)
    return run[:2] if run[0].isalpha() else run


def jaro_formula(len1: int, len2: int, matches: int, transpositions: int) -> float:
    """Jaro similarity from its parts: (m/|s1| + m/|s2| + (m - t)/m) / 3, 0 when m = 0."""
    if matches == 0:
        return 0.0
    return (matches / len1 + matches / len2 + (matches - transpositions) / matches) / 3.0


def jaro_length_bounds(length: int, threshold: float) -> tuple[int, int]:
    """Lengths a word may have to reach Jaro ``threshold`` against a word of ``length``.

    With m <= min(|s1|, |s2|) and no transpositions, Jaro <= (2 + short/long) / 3, so
    short/long >= 3t - 2; below t = 2/3 every length can qualify.
    """
    ratio = 3.0 * threshold - 2.0
    if ratio <= 0:
        return 1, 1 << 30
    return max(1, math.ceil(length * ratio - _EPS)), math.floor(length / ratio + _EPS)


def is_correctable(word: str, min_length: int = 3) -> bool:
    """Whether a word is a candidate for correction: long enough and letters only
    (combining marks allowed), so numbers and codes like "a4" are left alone."""
    if not min_length <= len(word) <= MAX_WORD_LEN:
        return False
    return all(unicodedata.category(ch)[0] in "LM" for ch in word)


def jaro_similarity(s1: str, s2: str) -> float:
    """Jaro similarity as source 003 defines it (matches within max(|s1|, |s2|)/2 - 1
    positions, half the out-of-order matches are transpositions; see :func:`jaro_formula`),
    computed by rapidfuzz; equal to ``jellyfish.jaro_similarity``."""
    return float(Jaro.similarity(s1, s2))


class SpellingCorrector:
    """Corrects words against a dictionary {word: frequency} by Jaro similarity.

    Args:
        words: the dictionary, word -> frequency (any positive scale; only the order of
            frequencies matters, to break ties), or a :class:`Vocabulary` built from one.
            Words over 32 characters are ignored.
        threshold: the least Jaro similarity a replacement must reach (0.8 in the source).
        min_length: shorter words are never corrected.
    """

    def __init__(self, words: Mapping[str, float] | Vocabulary, threshold: float = 0.8, min_length: int = 3) -> None:
        self.threshold = float(threshold)
        self.min_length = int(min_length)
        vocab = words if isinstance(words, Vocabulary) else Vocabulary.build(words)
        ordered = vocab.words
        self.frequency = dict(zip(ordered, vocab.freqs.tolist()))
        self._words = ordered
        self._lengths = np.fromiter(map(len, ordered), dtype=np.int64, count=len(ordered))
        self._freqs = vocab.freqs
        self._word_array = np.array(ordered, dtype=object)  # picked by row for rapidfuzz
        self._once, self._twice, self._excess = vocab.once, vocab.twice, vocab.excess
        self._need: dict[int, np.ndarray] = {}
        # word -> corrected word; known words map to themselves from the start so that a
        # token costs one lookup. Cleared back to that when it grows past _CACHE_LIMIT.
        self._cache: dict[str, str] = {w: w for w in ordered}

    def __len__(self) -> int:
        return len(self._words)

    def __contains__(self, word: str) -> bool:
        return word in self.frequency

    def _needed_overlap(self, a: int) -> np.ndarray:
        """Per dictionary word, the least character overlap c with a word of length a
        for which (c/a + c/b + 1)/3 can reach the threshold (uint8, 255 = never)."""
        need = self._need.get(a)
        if need is None:
            b = self._lengths.astype(np.float64)
            c = np.ceil((3.0 * self.threshold - 1.0) * a * b / (a + b) - _EPS)
            c = np.maximum(c, 1.0)
            c[c > np.minimum(a, b)] = 255.0
            need = c.astype(np.uint8)
            self._need[a] = need
        return need

    def _candidate_pairs(self, words: list[str]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Chunks of (word index, dictionary row) of every pair that passes the length bound and the
        character-overlap bound; all ``words`` have one length.

        The multiset overlap c of two words is at most (buckets both hold once) + (buckets
        both hold twice) + min(what each holds beyond two); the Jaro match count m is at
        most c, and (m/a + m/b + 1)/3 must reach the threshold.
        """
        a = len(words[0])
        lo, hi = jaro_length_bounds(a, self.threshold)
        start, stop = (int(x) for x in np.searchsorted(self._lengths, [lo, hi + 1]))
        if start >= stop:
            return
        profiles = [letter_profile(w) for w in words]
        q_once = np.array([p[0] for p in profiles], dtype=np.uint32)[:, None]
        q_twice = np.array([p[1] for p in profiles], dtype=np.uint32)[:, None]
        q_excess = np.array([p[2] for p in profiles], dtype=np.uint8)[:, None]
        need = self._needed_overlap(a)
        step = max(1, _FILTER_CELLS // len(words))
        for s0 in range(start, stop, step):
            s1 = min(s0 + step, stop)
            overlap = np.bitwise_count(self._once[None, s0:s1] & q_once)
            overlap += np.bitwise_count(self._twice[None, s0:s1] & q_twice)
            overlap += np.minimum(self._excess[None, s0:s1], q_excess)
            flat = np.flatnonzero(overlap >= need[None, s0:s1])
            wi, ri = np.divmod(flat.astype(np.int64), s1 - s0)
            yield wi, ri + s0

    def candidates(self, word: str) -> list[str]:
        """Dictionary words that might reach the threshold (a superset of those that do):
        within :func:`jaro_length_bounds` and with enough characters in common."""
        if not word or len(word) > MAX_WORD_LEN:
            return []
        return [self._words[r] for _, rows in self._candidate_pairs([word]) for r in rows.tolist()]

    def best_matches(self, words: Iterable[str]) -> dict[str, tuple[str, float]]:
        """For each word, the dictionary word of highest Jaro similarity >= threshold and
        that similarity (ties: the more frequent, then the shorter, then the alphabetically
        first); words with no such match are left out."""
        out: dict[str, tuple[str, float]] = {}
        by_length: dict[int, list[str]] = {}
        for w in dict.fromkeys(words):
            if 0 < len(w) <= MAX_WORD_LEN:
                by_length.setdefault(len(w), []).append(w)
        for _, group in sorted(by_length.items()):
            for g0 in range(0, len(group), _BATCH):
                out.update(self._best_of_batch(group[g0 : g0 + _BATCH]))
        return out

    def _best_of_batch(self, words: list[str]) -> dict[str, tuple[str, float]]:
        queries = np.array(words, dtype=object)
        kept_w, kept_r, kept_s = [], [], []
        for wi, ri in self._candidate_pairs(words):
            # One C call for every surviving pair. No score_cutoff: rapidfuzz's early exit
            # drops pairs a rounding error below it (aaaaa/aa = 0.7999... at 0.8 - 1e-9).
            sims = process.cpdist(queries[wi], self._word_array[ri], scorer=Jaro.similarity,
                                  dtype=np.float64, workers=1)
            wi, ri, sims = self._best_per_word(wi, ri, sims)
            kept_w.append(wi)
            kept_r.append(ri)
            kept_s.append(sims)
        if not kept_w:
            return {}
        wi, ri, sims = self._best_per_word(np.concatenate(kept_w), np.concatenate(kept_r), np.concatenate(kept_s))
        return {words[w]: (self._words[r], s) for w, r, s in zip(wi.tolist(), ri.tolist(), sims.tolist())}

    def _best_per_word(self, wi: np.ndarray, ri: np.ndarray, sims: np.ndarray) -> tuple[np.ndarray, ...]:
        """The best pair per word among those reaching the threshold (see best_matches)."""
        ok = sims >= self.threshold - _EPS
        wi, ri, sims = wi[ok], ri[ok], np.round(sims[ok], 12)
        order = np.lexsort((ri, -self._freqs[ri], -sims, wi))
        wi, ri, sims = wi[order], ri[order], sims[order]
        first = np.ones(wi.shape[0], dtype=bool)
        first[1:] = wi[1:] != wi[:-1]
        return wi[first], ri[first], sims[first]

    def best_match(self, word: str) -> tuple[str, float] | None:
        """The best dictionary word for ``word`` and its Jaro similarity (see
        :meth:`best_matches`), or None when no word reaches the threshold."""
        return self.best_matches([word]).get(word)

    def correct_words(self, words: Iterable[str]) -> dict[str, str]:
        """word -> corrected word for each distinct word: itself when known, too short,
        not all letters or without a match; the best match otherwise. Cached."""
        cache = self._cache
        distinct = dict.fromkeys(words)
        todo = [w for w in distinct if w not in cache]
        if todo:
            if len(cache) + len(todo) > len(self._words) + _CACHE_LIMIT:
                cache = self._cache = {w: w for w in self._words}
            wanted = [w for w in todo if is_correctable(w, self.min_length)]
            matches = self.best_matches(wanted) if wanted else {}
            for w in todo:
                match = matches.get(w)
                cache[w] = w if match is None else match[0]
        return {w: cache[w] for w in distinct}

    def unchanged_words(self) -> list[str]:
        """The words known to stay as they are: the dictionary's, and those looked at so far
        that are too short, not all letters or without a match."""
        return [w for w, c in self._cache.items() if w == c]

    def correct_word(self, word: str) -> str:
        """One word corrected (see :meth:`correct_words`)."""
        return self.correct_words([word])[word]

    def correct_tokens(self, words: Iterable[str]) -> list[str]:
        """Correct a token list; each distinct token is looked at once."""
        words = list(words)
        fixed = self.correct_words(words)
        return [fixed[w] for w in words]

    def correct_text(self, text: str) -> list[str]:
        """Tokens of a normalised text after collapsing repeats and correcting words."""
        return self.correct_tokens(tokens(collapse_repeats(text)))


@functools.lru_cache(maxsize=8)
def get_corrector(language: str = "en", size: int = 50000, threshold: float = 0.8, min_length: int = 3) -> SpellingCorrector:
    """A shared corrector (with its cache of corrected words) per dictionary and settings;
    its vocabulary comes from :func:`wordfreq_vocabulary`."""
    return SpellingCorrector(wordfreq_vocabulary(language, size), threshold, min_length)
