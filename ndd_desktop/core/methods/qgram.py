"""Character q-gram overlap (DDD: Montanari & Puglisi, source 000).

The text is reduced to its letters and digits (white space and punctuation removed, the
paper's Tw; combining marks such as Indic vowel signs stay with their letters), cut into
overlapping q-grams (q = 4, the paper's best), and the sketch is the *set* of their 32-bit
values (uint32, ``core.batch_hashing.char_gram_values``), sorted; two q-grams collide with
probability 2^-31, negligible for sets of a few thousand values.
Two documents score

    doc_q(A, B) = |A ∩ B| / max(|A|, |B|)

(1.0 is the paper's exact-duplicate flag; the paper's best F1 was at 0.7). With the
``containment`` measure the score is |A ∩ B| / min(|A|, |B|) = max(cont_ij, cont_ji).

Candidates come from an inverted index over the q-grams (:mod:`core.inverted_index`):
the paper's per-document counters when the posting lists are short, prefix filtering with
exact verification otherwise, so the result is every pair >= floor, never all N^2 pairs.
Large collections use banded MinHash (:mod:`core.set_lsh`) designed for the default
threshold, with every candidate verified exactly.

Time window: the paper keeps one index per hour and compares a new document with the
last 24 hourly indexes only, so pairs more than 24 h apart are never compared. That is
the streaming form; on a collection at rest the same rule is a filter on the candidate
pairs (``window_hours``), applied while the pairs are generated. A document without a
date (NaN) is compared with every other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..gram_sets import qgram_sets
from ..method import MEASURES
from ..normalize import ascii_folded, normalize
from ..params import ignore_param, max_df_param, param
from ..set_overlap_method import SetOverlapMethod


def positional_qgrams(s: str, q: int) -> list[tuple[int, str]]:
    """The paper's positional q-grams: (1-based position, q-gram) for all |s| - q + 1 windows.

    No partial q-grams: a string shorter than q has none.
    """
    return [(k + 1, s[k : k + q]) for k in range(len(s) - q + 1)]


def qgram_hashes_many(texts: Sequence[str], q: int) -> list[np.ndarray]:
    """Sorted distinct 32-bit values (uint32) of the q-grams of ``strip_to_letters(text)``
    for each text; a non-empty text shorter than q has one value (of the whole text)
    (:func:`core.gram_sets.qgram_sets`)."""
    return qgram_sets(texts, q)


def qgram_hashes(text: str, q: int) -> np.ndarray:
    """Sorted distinct 32-bit values of the q-grams of ``strip_to_letters(text)``."""
    return qgram_hashes_many([text], q)[0]


@dataclass(frozen=True)
class QGramParams:
    """Parameters of the q-gram method."""

    q: int = param(4, help="Length of the character q-grams (the paper found 4 best).", minimum=2, maximum=8)
    measure: str = param(
        "resemblance",
        help="resemblance: shared / larger q-gram set (doc_q); containment: shared / smaller set.",
        choices=MEASURES,
        affects_sketch=False,
    )
    window_hours: float = param(
        0.0,
        help="Compare only documents dated within this many hours (0 = off; the paper uses 24).",
        minimum=0.0,
        maximum=87600.0,
        affects_sketch=False,
    )
    max_df: float = max_df_param("q-grams")
    ignore: str = ignore_param()


class QGramMethod(SetOverlapMethod):
    """Shared distinct character q-grams over the larger set (DDD)."""

    name = "qgram"
    description = "Character q-grams without spaces and punctuation; shared / larger set (DDD)"
    Params = QGramParams
    default_threshold = 0.7
    partial_search = True  # large collections: bands designed for its own default
    source = "000_3cffc09d603309b4.txt"
    sketch_dtype = np.dtype(np.uint32)
    #: Version of the sketch values (2: 32-bit q-gram values, core.hashing's
    #: ``char_gram_values``; 1 was 64-bit hashes; 3: combining marks are kept as letters).
    #: Part of the sketch key, so sketches stored by an older version are recomputed rather
    #: than compared with new ones. 4: the values are no longer stored (sketch_from_text),
    #: so stores forget the stored ones.
    sketch_version = 4
    sketch_from_text = True

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """Sorted distinct q-gram values (uint32) of the letters and digits of ``text``."""
        return qgram_hashes(text, params.q)

    def texts_to_sketch(self, texts: Sequence[str], ignore: str = "") -> list[str]:
        """As Method.texts_to_sketch, but an ASCII text is only folded
        (``normalize.ascii_folded``: its runs of white space kept as runs of spaces, the
        collapse skipped): its letters, which the q-grams are made of, and its words, which
        the word search's sketches are made of, are those of the normalised text."""
        if ignore:
            return super().texts_to_sketch(texts, ignore)
        return [ascii_folded(t).decode("ascii") if t.isascii() else normalize(t) for t in texts]

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketches of many texts, their q-grams hashed in one pass per batch."""
        out: list[np.ndarray] = []
        for s in range(0, len(texts), 512):
            out.extend(qgram_hashes_many(texts[s : s + 512], params.q))
        return out
