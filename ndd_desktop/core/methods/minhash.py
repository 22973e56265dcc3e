"""MinHash: Broder's resemblance of shingle sets, estimated from t min-wise permutations.

Source: 004 (Broder, "Identifying and Filtering Near-Duplicate Documents"). A document is
its set of w-shingles (w consecutive words, or character n-grams), each fingerprinted to
64 bits; the sketch keeps the minimum of each of t permutations of the fingerprints, and
the share of equal minima estimates the resemblance |A n B| / |A u B|. Candidate pairs come
from Broder's features (k groups of s minima, a pair is a candidate when it shares >= r
features; r = 1 is LSH banding). See docs/methods/minhash.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import numpy as np

from ..lsh import acceptance_probability, bucket_pairs, choose_filter, feature_keys
from ..method import MEASURES, Method, PairScores
from ..minhash_sketch import containment_from, resemblance_rows, sketch_matrix
from ..params import param

_PAIR_CHUNK = 1 << 16


@dataclass(frozen=True)
class MinHashParams:
    """Parameters of the minhash method."""

    unit: str = param(
        "words",
        choices=("words", "chars"),
        help="Shingle unit: words (w consecutive words) or chars (character n-grams of length q).",
    )
    w: int = param(3, minimum=1, maximum=10, help="Words per shingle (unit = words); each edit changes at most w shingles.")
    q: int = param(5, minimum=2, maximum=16, help="Characters per n-gram (unit = chars).")
    t: int = param(128, minimum=16, maximum=1024, help="Number of min-wise permutations (sketch length); error ~ 1/sqrt(t).")
    measure: str = param(
        "resemblance",
        choices=MEASURES,
        affects_sketch=False,
        help="resemblance: |A n B| / |A u B|; containment: the larger share of one document found in the other.",
    )
    candidates: str = param(
        "auto",
        choices=("auto", "features"),
        affects_sketch=False,
        help="auto: banding tuned so pairs at the floor are found with >= 99% probability; features: use k, s, r.",
    )
    k: int = param(64, minimum=1, maximum=1024, affects_sketch=False, label="features (k)", help="Number of features (bands); k * s <= t.")
    s: int = param(2, minimum=1, maximum=64, affects_sketch=False, label="minima per feature (s)", help="Minima hashed into one feature (rows per band).")
    r: int = param(1, minimum=1, maximum=64, affects_sketch=False, label="shared features (r)", help="Features a pair must share to be compared.")


class MinHashMethod(Method):
    """Broder's MinHash resemblance with feature-based candidate filtering."""

    name: ClassVar[str] = "minhash"
    description: ClassVar[str] = "Broder MinHash: resemblance of word shingle sets from t min-wise permutations"
    Params: ClassVar[type] = MinHashParams
    default_threshold: ClassVar[float] = 0.5
    source: ClassVar[str] = "004_6b52261d4be05971.txt"
    sketch_dtype: ClassVar[np.dtype] = np.dtype(np.uint32)
    #: Version of the sketch values (2: 32-bit shingle values of core.hashing's
    #: ``word_shingle_values`` / ``char_gram_values``); part of the sketch key, so sketches
    #: stored by an older version are recomputed rather than compared with new ones.
    sketch_version: ClassVar[int] = 2

    # -- sketches -----------------------------------------------------------------------
    def sketch(self, text: str, params: Any) -> np.ndarray:
        """t minima and the distinct shingle count of one normalised text (uint32)."""
        return self.sketch_many([text], params)[0]

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketches of many texts, computed in batches (see core.minhash_sketch)."""
        size = params.w if params.unit == "words" else params.q
        matrix = sketch_matrix(list(texts), params.unit, size, params.t)
        return list(matrix)

    # -- comparing ----------------------------------------------------------------------
    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """Estimated resemblance, or the larger containment with measure = containment."""
        r = float(resemblance_rows(a, b))
        if params.measure == "containment":
            ca, cb = containment_from(r, a[-1], b[-1])
            return float(max(ca, cb))
        return r

    def containment(self, a: np.ndarray, b: np.ndarray, params: Any) -> tuple[float, float]:
        """(share of a in b, share of b in a) from the resemblance and the shingle counts."""
        ca, cb = containment_from(resemblance_rows(a, b), a[-1], b[-1])
        return float(ca), float(cb)

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Vectorised scores of the given pairs."""
        if len(pairs) == 0:
            return PairScores.empty()
        matrix = _stack(sketches)
        pairs = np.asarray(pairs, dtype=np.int64)
        res = np.empty(len(pairs))
        for lo in range(0, len(pairs), _PAIR_CHUNK):
            p = pairs[lo : lo + _PAIR_CHUNK]
            res[lo : lo + len(p)] = resemblance_rows(matrix[p[:, 0]], matrix[p[:, 1]])
        t = matrix.shape[1] - 1
        cij, cji = containment_from(res, matrix[pairs[:, 0], t], matrix[pairs[:, 1], t])
        score = np.maximum(cij, cji) if params.measure == "containment" else res
        return PairScores(pairs[:, 0].copy(), pairs[:, 1].copy(), score, cij, cji)

    # -- candidates ---------------------------------------------------------------------
    def filter_for(self, params: Any, floor: float) -> tuple[int, int, int]:
        """The (k, s, r) feature filter used at this floor."""
        if params.candidates == "auto":
            return choose_filter(floor, params.t)
        if params.k * params.s > params.t:
            raise ValueError(f"k * s = {params.k * params.s} exceeds t = {params.t}")
        return params.k, params.s, params.r

    def acceptance_curve(self, params: Any, x: np.ndarray, floor: float = 0.3) -> np.ndarray:
        """Probability that a pair of resemblance x becomes a candidate, P(k, s, r)(x)."""
        k, s, r = self.filter_for(params, floor)
        return acceptance_probability(x, k, s, r)

    def candidate_pairs(
        self,
        sketches: Sequence[np.ndarray],
        params: Any,
        floor: float,
        dates: np.ndarray | None = None,
    ) -> np.ndarray:
        """Pairs sharing >= r of k features (the filter chosen by :meth:`filter_for`).

        The filter targets resemblance: with measure = containment, a pair whose
        resemblance is below the floor but one-sided containment above it can be missed.
        """
        if len(sketches) < 2:
            return np.empty((0, 2), dtype=np.int64)
        matrix = _stack(sketches)
        k, s, r = self.filter_for(params, floor)
        keys = feature_keys(matrix[:, : matrix.shape[1] - 1], k, s)
        return bucket_pairs(keys, r)


def _stack(sketches: Sequence[np.ndarray]) -> np.ndarray:
    if isinstance(sketches, np.ndarray) and sketches.ndim == 2:
        return sketches
    return np.stack([np.asarray(s) for s in sketches])
