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

import itertools
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..hashing import hash_word_shingles, shingle_hashes_of_tokens
from ..inverted_index import least_jaccard
from ..method import MEASURES
from ..set_overlap_method import SetOverlapMethod
from ..params import ignore_param, param
from ..spelling import LANGUAGES, SpellingCorrector, collapse_repeats, get_corrector
from ..utf8_words import word_tokens


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
    max_df: float = param(
        0.5,
        help="Leave shingles found in more than this share of documents out of the candidate "
        "index (collections of 50+ documents); scores stay exact, recall may drop.",
        label="max document frequency",
        minimum=0.01,
        maximum=1.0,
        affects_sketch=False,
    )
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
    #: vowel signs are whole tokens, in the text and in the dictionary). Part of the sketch
    #: key, so sketches stored by an older version are recomputed.
    sketch_version = 2

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

    def texts_to_verify(self, texts: Sequence[str], params: Any) -> list[str]:
        """The texts with their typos corrected, as the sketches read them: the verified
        share of two texts with different typos is the share of their corrected words."""
        corrector = corrector_for(params)
        token_lists = [word_tokens(collapse_repeats(t)) for t in texts]
        fixed = corrector.correct_words(w for toks in token_lists for w in toks)
        return [" ".join(fixed[w] for w in toks) for toks in token_lists]

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """Sorted distinct hashes of the word w-shingles of the corrected text."""
        return np.unique(shingle_hashes_of_tokens(self.corrected_tokens(text, params), params.w))

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketch a batch: the batch's unknown words are corrected together (faster); a
        text in which no word changes is hashed as it is (its words are the tokens the
        hashing finds: no list of corrected words to build and join); a text longer than
        _PIECE_CHARS is sketched on its own, a piece at a time."""
        corrector = corrector_for(params)
        out: list[np.ndarray | None] = [None] * len(texts)
        short = [k for k, t in enumerate(texts) if len(t) <= _PIECE_CHARS]
        collapsed = [collapse_repeats(texts[k]) for k in short]
        token_lists = [word_tokens(t) for t in collapsed]
        fixed = corrector.correct_words(itertools.chain.from_iterable(token_lists))
        changed = {w for w, c in fixed.items() if c != w}
        for k, toks, text in zip(short, token_lists, collapsed):
            if changed.isdisjoint(toks):  # nothing corrected: the shingles of the text's own words
                out[k] = np.unique(hash_word_shingles(text, params.w))
            else:
                out[k] = np.unique(shingle_hashes_of_tokens([fixed[w] for w in toks], params.w))
        for k, text in enumerate(texts):
            if out[k] is None:
                out[k] = _sketch_long(text, params, corrector)
        return out


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
            parts.append(np.unique(shingle_hashes_of_tokens(words, w)))
        tail = words[len(words) - (w - 1):] if w > 1 else []
    if count < w:  # fewer words than a shingle: one shingle of them all, as for short texts
        return np.unique(shingle_hashes_of_tokens(word_tokens(collapse_repeats(text)), w))
    return np.unique(np.concatenate(parts))

