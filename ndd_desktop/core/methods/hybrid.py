"""Typo-tolerant word shingling (source 003, "hybrid" approach).

The normalised text has letters repeated more than twice collapsed to two, every word
missing from a dictionary replaced by its closest dictionary word by Jaro similarity
(>= 0.8 in the source; ties go to the more frequent word), and is then cut into word
w-shingles (w = 3, which the source found best). The sketch is the sorted set of distinct
64-bit shingle hashes; two documents score their Jaccard similarity (resemblance) or, with
``measure = containment``, the larger of shared/|A| and shared/|B|.

Choices the source leaves open:

* The dictionary is the ``dictionary_size`` most frequent words of ``language`` from
  wordfreq (the source uses an English dictionary and COCA frequencies). Web-derived lists
  contain some frequent misspellings ("recieve" ranks about 40,000th in English); a
  smaller dictionary leaves them out, so they get corrected, at the price of correcting
  rare real words too (harmless here: both copies of a text are corrected alike).
* Words shorter than ``min_word_length`` (3), numbers and words with non-letters are never
  corrected: short words have too many close neighbours, codes and numbers are not typos.
* The default threshold is 0.5. With w = 3 each differing word breaks up to three
  shingles, so a copy with a fraction p of its words still different after correction
  scores about (1-p)^3 / (2 - (1-p)^3): 0.75 at p = 5 %, 0.57 at 10 %, 0.44 at 15 %.
  0.5 keeps copies with up to about 12 % of their words changed.

Candidates: the inverted index of core.inverted_index over the shingle hashes. Its
"resemblance" join keeps pairs with shared / max(|A|, |B|) >= floor, a superset of the
pairs with Jaccard >= floor (Jaccard <= shared / max), so the pairs are then scored with
the exact Jaccard from the join's exact shared counts and filtered again.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..batch_hashing import WordSpans, word_spans
from ..hashing import shingles_of_token_hashes
from ..inverted_index import least_jaccard
from ..method import MEASURES
from ..params import ignore_param, max_df_param, param
from ..set_overlap_method import SetOverlapMethod
from ..spelling import (
    SpellingCorrector,
    collapse_repeats,
    collapse_repeats_many,
    get_corrector,
)
from ..u64_set import U64Set
from ..unique import sorted_unique
from ..utf8_words import word_tokens
from ..vocabulary import LANGUAGES


@dataclass(frozen=True)
class HybridParams:
    """Parameters of the hybrid (typo-tolerant shingling) method."""

    w: int = param(3, help="Words per shingle (the source finds 3 best).", label="shingle words", minimum=1, maximum=10)
    jaro_threshold: float = param(
        0.8,
        help="Least Jaro similarity for replacing an unknown word by a dictionary word (the source: 0.8).",
        minimum=0.5,
        maximum=1.0,
    )
    language: str = param("en", help="Language of the dictionary (wordfreq word lists).", choices=LANGUAGES)
    dictionary_size: int = param(
        50000,
        help="Number of most frequent words in the dictionary; words outside it are corrected.",
        minimum=1000,
        maximum=300000,
    )
    min_word_length: int = param(
        3, help="Shorter words are never corrected.", label="shortest word corrected", minimum=1, maximum=20
    )
    measure: str = param(
        "resemblance",
        help="resemblance: Jaccard of the shingle sets; containment: the larger of shared/|A| and shared/|B|.",
        choices=MEASURES,
        affects_sketch=False,
    )
    max_df: float = max_df_param("shingles")
    ignore: str = ignore_param()


def corrector_for(params: HybridParams) -> SpellingCorrector:
    """The shared spelling corrector for these parameters (built once, then cached)."""
    return get_corrector(params.language, params.dictionary_size, params.jaro_threshold, params.min_word_length)


def _scores(len_i, len_j, shared, measure: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(score, cont_ij, cont_ji): Jaccard or max containment; 0 where a sketch is empty."""
    len_i = np.asarray(len_i, dtype=np.float64)
    len_j = np.asarray(len_j, dtype=np.float64)
    shared = np.asarray(shared, dtype=np.float64)
    union = len_i + len_j - shared
    with np.errstate(divide="ignore", invalid="ignore"):
        cij = np.where(len_i > 0, shared / len_i, 0.0)
        cji = np.where(len_j > 0, shared / len_j, 0.0)
        jac = np.where(union > 0, shared / union, 0.0)
    score = np.maximum(cij, cji) if measure == "containment" else jac
    return score, cij, cji


class HybridMethod(SetOverlapMethod):
    """Word shingles after typo correction by Jaro similarity and word frequency."""

    name = "hybrid"
    description = "Word 3-shingles after correcting typos by Jaro similarity and word frequency; Jaccard"
    Params = HybridParams
    default_threshold = 0.5
    source = "003_a4fe638b252c665f.txt"
    sketch_dtype = np.dtype(np.uint64)

    #: Version of the sketch values (2: combining marks are word characters, so words with
    #: vowel signs are whole tokens, in the text and in the dictionary; 3: a token's hash is
    #: its UTF-8 bytes mixed, as ``core.batch_hashing`` finds and hashes the tokens of a
    #: whole batch at once). Part of the sketch key, so sketches stored by an older version
    #: are recomputed.
    sketch_version = 3

    #: Collections smaller than this are never clipped (see ``max_df``).
    min_docs_to_clip = 50
    pair_scores = staticmethod(_scores)  # Jaccard, never above shared / max

    def lsh_design_jaccard(self, params: Any, floor: float) -> float | None:
        """The banded search of very large collections is designed for the floor, not the
        default threshold: Jaccard of word shingles runs low, and typo-corrected pairs sit
        close to the threshold. With resemblance the score is Jaccard itself, so the floor
        is the design Jaccard; with containment, the least Jaccard its shared / max allows."""
        return floor if params.measure == "resemblance" else least_jaccard(floor)

    def corrected_tokens(self, text: str, params: Any) -> list[str]:
        """The words of a normalised text as the sketch sees them (after correction)."""
        return corrector_for(params).correct_text(text)

    verifies_as_read = False  # its pairs are verified on the words it compared, typos corrected

    def texts_to_verify(self, texts: Sequence[str], params: Any) -> list[str]:
        """The texts with their typos corrected, as the sketches read them: the verified
        share of two texts with different typos is the share of their corrected words."""
        corrector = corrector_for(params)
        collapsed = collapse_repeats_many(texts)
        # a text whose every token is a kept word reads as it is (the verification reads
        # its words); the others are corrected word by word
        spans = word_spans(collapsed)
        unknown = ~_kept_hashes(corrector).holds(spans.keys())
        for k in sorted_unique(_text_of_token(spans, np.flatnonzero(unknown))).tolist():
            f, c = int(spans.first[k]), int(spans.counts[k])
            toks = spans.words(np.arange(f, f + c))
            fixed = corrector.correct_words(toks)
            collapsed[k] = " ".join(fixed[w] for w in toks)
        return collapsed

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """Sorted distinct hashes of the word w-shingles of the corrected text."""
        return self.sketch_many([text], params)[0]

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketch a batch without a Python list of words per text: the tokens of all texts
        are found and hashed at once (``core.batch_hashing.word_spans``) and only those
        whose hash is not among the words the corrector keeps as they are
        (:class:`_KeptHashes`) are looked at, the batch's together; a corrected token's
        hash is replaced by its correction's. The shingles of the hashes are those of the
        corrected words. A text whose correction is not one token goes the way of
        :func:`_sketch_of_words`, a text longer than _PIECE_CHARS a piece at a time."""
        corrector = corrector_for(params)
        kept = _kept_hashes(corrector)
        out: list[np.ndarray | None] = [None] * len(texts)
        short = []
        for k, text in enumerate(texts):
            if len(text) > _PIECE_CHARS:
                out[k] = _sketch_long(text, params, corrector)
            else:
                short.append(k)
        spans = word_spans(collapse_repeats_many([texts[k] for k in short]))
        h = spans.keys()
        look = np.flatnonzero(~kept.holds(h))
        redo = set()
        if look.shape[0]:
            words = spans.words(look)
            fixed = corrector.correct_words(words)
            changed = sorted({c for w, c in fixed.items() if c != w})
            whole, keys = word_spans(changed).whole_tokens()
            one, fix_hash = dict(zip(changed, whole.tolist())), dict(zip(changed, keys.tolist()))
            new_kept = []
            for i, word in zip(look.tolist(), words):
                c = fixed[word]
                if c == word:
                    new_kept.append(int(h[i]))
                elif one[c]:
                    h[i] = fix_hash[c]
                else:  # not one whole token: the corrected words, hashed as a text
                    redo.add(int(_text_of_token(spans, np.array([i]))[0]))
            kept.add_many(new_kept)
        w = params.w
        # every w-shingle of the batch in one pass (those across two texts are never read)
        shingles = shingles_of_token_hashes(h, w) if h.shape[0] >= w else h[:0]
        for pos, (k, f, c) in enumerate(zip(short, spans.first.tolist(), spans.counts.tolist())):
            if pos in redo:
                out[k] = _sketch_of_words(corrector.correct_text(texts[k]), w)
            elif c >= w:
                out[k] = sorted_unique(shingles[f : f + c - w + 1])
            else:  # fewer tokens than a shingle: one shingle of them all (none of none)
                out[k] = sorted_unique(shingles_of_token_hashes(h[f : f + c], w))
        kept.settle()
        return out


def _text_of_token(spans: WordSpans, tokens: np.ndarray) -> np.ndarray:
    """The text each token index belongs to (texts without tokens hold none)."""
    return np.searchsorted(spans.first, tokens, side="right") - 1


def _shingle_hashes(words: list[str], w: int) -> np.ndarray:
    """Hashes of the w-shingles of a token list, with repeats (the same token hashes as
    :meth:`HybridMethod.sketch_many`); fewer than w tokens make one shingle."""
    return shingles_of_token_hashes(word_spans([" ".join(words)]).keys(), w) if words else np.empty(0, np.uint64)


def _sketch_of_words(words: list[str], w: int) -> np.ndarray:
    """The sketch of a corrected token list: its sorted distinct shingle hashes."""
    return sorted_unique(_shingle_hashes(words, w))


class _KeptHashes:
    """The token hashes (``core.batch_hashing.word_spans``) of the words a corrector leaves
    as they are, sorted, to find in one vectorised pass the few tokens of a text that need a
    look. Words the corrector keeps are added as they are met (``add_many``, then
    ``settle``); keeping is a property of the word (too short, not all letters, known, or
    without a match), so the set stays true whatever the corrector's cache forgets. Two
    words with one 64-bit hash would make the second pass unlooked at: a chance far below
    any typo's."""

    def __init__(self, corrector: SpellingCorrector) -> None:
        # the words that are one whole token (a dictionary entry is; a word with other
        # characters in it would hash as its token only)
        whole, keys = word_spans(corrector.unchanged_words()).whole_tokens()
        self._hashes = U64Set(keys[whole])
        self._new: list[int] = []

    def holds(self, h: np.ndarray) -> np.ndarray:
        """Which of the hashes ``h`` are of kept words."""
        return self._hashes.contains(h)  # read once: another thread may settle meanwhile

    def add_many(self, hashes: list[int]) -> None:
        self._new.extend(hashes)

    def settle(self) -> None:
        """Take the words added since the last call into the set."""
        if self._new:
            new, self._new = self._new, []
            self._hashes = self._hashes.union(np.asarray(new, dtype=np.uint64))


_KEPT: weakref.WeakKeyDictionary[SpellingCorrector, _KeptHashes] = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def _kept_hashes(corrector: SpellingCorrector) -> _KeptHashes:
    """The corrector's :class:`_KeptHashes`, made on first use (0.1 s for 50,000 words)."""
    with _KEPT_LOCK:
        kept = _KEPT.get(corrector)
        if kept is None:
            kept = _KEPT[corrector] = _KeptHashes(corrector)
        return kept


#: Texts longer than this are tokenised, corrected and shingled a piece at a time.
_PIECE_CHARS = 1 << 20


def _pieces(text: str):
    """Consecutive pieces of about _PIECE_CHARS characters, each ending before a space (a
    word never spans two pieces; a piece runs on to the next space when there is none)."""
    start, n = 0, len(text)
    while start < n:
        end = min(start + _PIECE_CHARS, n)
        if end < n:
            cut = text.rfind(" ", start, end)
            if cut <= start:
                cut = text.find(" ", end)
            end = n if cut < 0 else cut
        yield text[start:end]
        start = end


def _sketch_long(text: str, params: HybridParams, corrector: SpellingCorrector) -> np.ndarray:
    """The sketch of a long text, a piece at a time: each piece's shingles, the last w - 1
    words of the piece before carried over so that shingles across a cut are kept. The same
    set as the text in one go, with the memory of one piece (a 20 MB text took ~1 GB)."""
    w = params.w
    tail: list[str] = []
    parts, count = [], 0
    for piece in _pieces(text):
        toks = word_tokens(collapse_repeats(piece))
        fixed = corrector.correct_words(toks)
        words = tail + [fixed[t] for t in toks]
        count += len(toks)
        if len(words) >= w:
            parts.append(sorted_unique(_shingle_hashes(words, w)))
        tail = words[len(words) - (w - 1):] if w > 1 else []
    if count < w:  # fewer words than a shingle: one shingle of them all, as for short texts
        return _sketch_of_words(corrector.correct_tokens(word_tokens(collapse_repeats(text))), w)
    return sorted_unique(np.concatenate(parts))

