"""Methods whose sketch is a sorted set of features, compared by shared counts.

qgram, bottomk and hybrid share this: exact scores from the number of shared values, and
candidates (with those counts) from :func:`core.inverted_index.overlap_join`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

import numpy as np

from .feature_index import shared_count
from .inverted_index import SAMPLE_DOCS, candidate_shared_counts, overlap_join, overlap_scores
from .method import Method, PairScores
from .sketch_batches import sketch_sizes


class SetOverlapMethod(Method):
    """Base of methods whose sketch is a sorted set of features (qgram: uint32, bottomk: uint64).

    Scores come from shared counts (:func:`core.inverted_index.overlap_scores`); candidates
    and scores from :func:`core.inverted_index.overlap_join`. Subclasses set the class
    attributes and :meth:`sketch`; their ``Params`` have ``measure`` and ``max_df`` (and
    optionally ``window_hours``).
    """

    #: Collections smaller than this are never clipped.
    min_docs_to_clip = 50

    @staticmethod
    def pair_scores(len_i, len_j, shared, measure: str):
        """(score, cont_ij, cont_ji) from set sizes and shared counts; subclasses may change
        the score (hybrid: Jaccard), it must never exceed shared / max(len_i, len_j)."""
        return overlap_scores(len_i, len_j, shared, measure)

    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """doc_q (or containment); 0.0 when either sketch is empty."""
        score, _, _ = self.pair_scores(a.shape[0], b.shape[0], shared_count(a, b), params.measure)
        return float(score)

    def containment(self, a: np.ndarray, b: np.ndarray, params: Any) -> tuple[float, float]:
        """(shared / |A|, shared / |B|)."""
        _, cij, cji = self.pair_scores(a.shape[0], b.shape[0], shared_count(a, b), params.measure)
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
            design_jaccard=self.lsh_design_jaccard(params, floor),
        )

    def lsh_design_jaccard(self, params: Any, floor: float) -> float | None:
        """The Jaccard similarity the banded search (very large collections) must find, or
        None for the default: the least Jaccard of a pair at the default threshold (faster
        than designing for the floor; see overlap_join's recall_score)."""
        return None

    def pair_search_warmup(self, documents: int) -> Callable[[], None] | None:
        """The banded search's kernels (``core.set_lsh.warm``) for a collection large
        enough that the join may choose it (more than the documents it samples to decide)."""
        if documents <= SAMPLE_DOCS:
            return None
        return warm_banded_search

    def candidate_pairs(
        self, sketches: Sequence[np.ndarray], params: Any, floor: float, dates: np.ndarray | None = None
    ) -> np.ndarray:
        """Pairs (m, 2) found by the inverted index (already known to reach ``floor``)."""
        res = self._join(sketches, params, floor, dates)
        return np.stack([res.i, res.j], axis=1) if len(res.i) else np.empty((0, 2), np.int64)

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Exact scores of the given pairs, from the sketches of the documents involved only."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        if pairs.shape[0] == 0:
            return PairScores.empty()
        i, j = pairs[:, 0].copy(), pairs[:, 1].copy()
        shared, len_i, len_j = candidate_shared_counts(sketches, i, j)
        score, cij, cji = self.pair_scores(len_i, len_j, shared, params.measure)
        return PairScores(i, j, score, cij, cji)

    def find_pairs(
        self, sketches: Sequence[np.ndarray], params: Any, floor: float, dates: np.ndarray | None = None
    ) -> PairScores:
        """Every pair >= floor in one pass: the join's shared counts are exact, so they are
        scored directly (no second intersection). The join's floor applies to shared / max,
        an upper bound of every score here, so no pair >= floor is lost."""
        res = self._join(sketches, params, floor, dates)
        complete_from = self._complete_from(res, params, floor)
        if len(res.i) == 0:
            return replace(PairScores.empty(), complete_from=complete_from)
        lens = sketch_sizes(sketches)
        score, cij, cji = self.pair_scores(lens[res.i], lens[res.j], res.shared, params.measure)
        return PairScores(res.i, res.j, score, cij, cji, complete_from=complete_from).select(score >= floor)

    def _complete_from(self, res: Any, params: Any, floor: float) -> float | None:
        """The score from which the join searched for every pair (see PairScores): the
        banded search is designed for the default threshold unless lsh_design_jaccard
        says otherwise, and for resemblance only."""
        if res.mode != "lsh":
            return None
        if params.measure == "containment":
            return 1.0
        if self.lsh_design_jaccard(params, floor) is not None:
            return None
        return float(self.default_threshold) if self.default_threshold > floor else None


def warm_banded_search() -> None:
    """``core.set_lsh.warm``, imported by the thread that runs it: importing ``set_lsh``
    imports numba (0.1 s), which the scan's own thread spent before its workers started."""
    from .set_lsh import warm

    warm()
