"""Character q-gram overlap (DDD: Montanari & Puglisi, source 000).

The text is reduced to its letters and digits (white space and punctuation removed, the
paper's Tw), cut into overlapping q-grams (q = 4, the paper's best), and the sketch is the
*set* of their 32-bit values (uint32, ``core.hashing.char_gram_values``), sorted; two
q-grams collide with probability 2^-31, negligible for sets of a few thousand values.
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

import hashlib

from ..hashing import char_gram_values
from ..inverted_index import (
    FeatureIndex,
    overlap_join,
    overlap_scores,
    shared_count,
    shared_counts,
    sorted_unique,
)
from ..method import MEASURES, Method, PairScores
from ..normalize import strip_to_letters
from ..params import param


def positional_qgrams(s: str, q: int) -> list[tuple[int, str]]:
    """The paper's positional q-grams: (1-based position, q-gram) for all |s| - q + 1 windows.

    No partial q-grams: a string shorter than q has none.
    """
    return [(k + 1, s[k : k + q]) for k in range(len(s) - q + 1)]


def qgram_hashes_many(texts: Sequence[str], q: int) -> list[np.ndarray]:
    """Sorted distinct 32-bit values (uint32) of the q-grams of ``strip_to_letters(text)``
    for each text; a non-empty text shorter than q has one value (of the whole text)."""
    stripped = [strip_to_letters(t) for t in texts]
    values, starts, counts = char_gram_values(stripped, q)
    return [sorted_unique(values[s : s + c]) for s, c in zip(starts.tolist(), counts.tolist())]


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
    max_df: float = param(
        0.5,
        help="Leave q-grams found in more than this share of documents out of the candidate "
        "index (collections of 50+ documents); scores stay exact, recall may drop.",
        label="max document frequency",
        minimum=0.01,
        maximum=1.0,
        affects_sketch=False,
    )


class SetOverlapMethod(Method):
    """Base of methods whose sketch is a sorted set of features (qgram: uint32, bottomk: uint64).

    Scores come from shared counts (:func:`core.inverted_index.overlap_scores`); candidates
    and scores from :func:`core.inverted_index.overlap_join`. Subclasses set the class
    attributes and :meth:`sketch`; their ``Params`` have ``measure`` and ``max_df`` (and
    optionally ``window_hours``).
    """

    #: Collections smaller than this are never clipped.
    min_docs_to_clip = 50

    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """doc_q (or containment); 0.0 when either sketch is empty."""
        score, _, _ = overlap_scores(a.shape[0], b.shape[0], shared_count(a, b), params.measure)
        return float(score)

    def containment(self, a: np.ndarray, b: np.ndarray, params: Any) -> tuple[float, float]:
        """(shared / |A|, shared / |B|)."""
        _, cij, cji = overlap_scores(a.shape[0], b.shape[0], shared_count(a, b), params.measure)
        return float(cij), float(cji)

    def _join(self, sketches, params, floor, dates):
        window = float(getattr(params, "window_hours", 0.0)) * 3600.0
        return overlap_join(
            sketches,
            floor,
            measure=params.measure,
            dates=dates,
            window_seconds=window,
            max_df=float(getattr(params, "max_df", 1.0)),
            min_docs_to_clip=self.min_docs_to_clip,
            recall_score=self.default_threshold,
        )

    def candidate_pairs(
        self, sketches: Sequence[np.ndarray], params: Any, floor: float, dates: np.ndarray | None = None
    ) -> np.ndarray:
        """Pairs (m, 2) found by the inverted index (already known to reach ``floor``)."""
        res = self._join(sketches, params, floor, dates)
        return np.stack([res.i, res.j], axis=1) if len(res.i) else np.empty((0, 2), np.int64)

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Exact scores of the given pairs, vectorised over a feature index."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        if pairs.shape[0] == 0:
            return PairScores.empty()
        index = FeatureIndex(sketches)
        i, j = pairs[:, 0], pairs[:, 1]
        shared = shared_counts(index, i, j)
        score, cij, cji = overlap_scores(index.lengths[i], index.lengths[j], shared, params.measure)
        return PairScores(i.copy(), j.copy(), score, cij, cji)

    def find_pairs(
        self, sketches: Sequence[np.ndarray], params: Any, floor: float, dates: np.ndarray | None = None
    ) -> PairScores:
        """Every pair >= floor in one pass: the join's shared counts are exact, so they are
        scored directly (no second intersection)."""
        res = self._join(sketches, params, floor, dates)
        if len(res.i) == 0:
            return PairScores.empty()
        lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
        score, cij, cji = overlap_scores(lens[res.i], lens[res.j], res.shared, params.measure)
        return PairScores(res.i, res.j, score, cij, cji)


class QGramMethod(SetOverlapMethod):
    """Shared distinct character q-grams over the larger set (DDD)."""

    name = "qgram"
    description = "Character q-grams without spaces and punctuation; shared / larger set (DDD)"
    Params = QGramParams
    default_threshold = 0.7
    source = "000_3cffc09d603309b4.txt"
    sketch_dtype = np.dtype(np.uint32)
    #: Version of the sketch values (2: 32-bit q-gram values, core.hashing's
    #: ``char_gram_values``; 1 was 64-bit hashes). Part of the sketch key, so sketches
    #: stored by an older version are recomputed rather than compared with new ones.
    sketch_version = 2

    def sketch_key(self, params: Any) -> str:
        """The parameter hash of the base class, mixed with :attr:`sketch_version`."""
        base = super().sketch_key(params)
        return hashlib.sha1(f"{base}:v{self.sketch_version}".encode("ascii")).hexdigest()[:16]

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """Sorted distinct q-gram values (uint32) of the letters and digits of ``text``."""
        return qgram_hashes(text, params.q)

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketches of many texts, their q-grams hashed in one pass per batch."""
        out: list[np.ndarray] = []
        for s in range(0, len(texts), 512):
            out.extend(qgram_hashes_many(texts[s : s + 512], params.q))
        return out
