"""MinHash: Broder's resemblance of shingle sets, estimated from t min-wise permutations.

Source: 004 (Broder, "Identifying and Filtering Near-Duplicate Documents"). A document is
its set of w-shingles (w consecutive words, or character n-grams), each fingerprinted to
64 bits; the sketch keeps the minimum of each of t permutations of the fingerprints, and
the share of equal minima estimates the resemblance |A n B| / |A u B|. Candidate pairs come
from Broder's features (k groups of s minima, a pair is a candidate when it shares >= r
features; r = 1 is LSH banding). See docs/methods/minhash.md.

A document without shingles (an empty text, or with unit = words a text without a word
character: only punctuation, symbols, emoji) scores 0 against every document, itself
included, and is left out of the candidate search, as qgram and hybrid do with empty sketches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, Sequence

import numpy as np

from .. import minhash_kernel
from ..lsh import acceptance_probability, bucket_pairs, choose_filter, feature_keys
from ..method import MEASURES, Method, PairScores
from ..minhash_sketch import containment_from, resemblance_rows, sketch_extracted, sketch_matrix
from ..params import ignore_param, param

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
    t: int = param(128, minimum=16, maximum=1024, help="Number of min-wise permutations (sketch length); standard error sqrt(J(1-J)/t), at most 1/(2 sqrt(t)).")
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
    r: int = param(1, minimum=1, maximum=64, affects_sketch=False, label="shared features (r)", help="Features a pair must share to be compared; r <= k.")
    ignore: str = ignore_param()

    def __post_init__(self) -> None:
        """With candidates = features, refuse filters that cannot work: k * s minima must fit
        in the sketch, and a pair cannot share more than k features (r > k finds no pair).
        With candidates = auto, k, s and r are not used and not checked."""
        if self.candidates != "features":
            return
        if self.k * self.s > self.t:
            raise ValueError(f"k * s = {self.k} * {self.s} = {self.k * self.s} exceeds t = {self.t} (features need k * s minima)")
        if self.r > self.k:
            raise ValueError(f"r = {self.r} exceeds k = {self.k} (a pair cannot share more features than there are)")


class MinHashMethod(Method):
    """Broder's MinHash resemblance with feature-based candidate filtering."""

    name: ClassVar[str] = "minhash"
    description: ClassVar[str] = "Broder MinHash: resemblance of word shingle sets from t min-wise permutations"
    Params: ClassVar[type] = MinHashParams
    default_threshold: ClassVar[float] = 0.5
    source: ClassVar[str] = "004_6b52261d4be05971.txt"
    sketch_dtype: ClassVar[np.dtype] = np.dtype(np.uint32)
    #: Version of the sketch values (2: 32-bit shingle values of core.hashing's
    #: ``word_shingle_values`` / ``char_gram_values``; 3: combining marks are word
    #: characters, so words with vowel signs are no longer split); part of the sketch key, so
    #: sketches stored by an older version are recomputed rather than compared with new ones.
    sketch_version: ClassVar[int] = 3

    # -- keys ---------------------------------------------------------------------------
    @staticmethod
    def _in_use(params: Any) -> Any:
        """``params`` with the shingle size the unit does not use (q for words, w for
        characters) at its default, so that changing it changes no key."""
        unused = "q" if params.unit == "words" else "w"
        return replace(params, **{unused: MinHashParams.__dataclass_fields__[unused].default})

    def sketch_key(self, params: Any) -> str:
        """As Method.sketch_key, over the parameters the unit uses."""
        return super().sketch_key(self._in_use(params))

    def pairs_key(self, params: Any) -> str:
        """As Method.pairs_key, over the parameters the unit uses."""
        return super().pairs_key(self._in_use(params))

    # -- sketches -----------------------------------------------------------------------
    def sketch(self, text: str, params: Any) -> np.ndarray:
        """t minima and the distinct shingle count of one normalised text (uint32)."""
        return self.sketch_many([text], params)[0]

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """Sketches of many texts, computed in batches (see core.minhash_sketch)."""
        size = params.w if params.unit == "words" else params.q
        matrix = sketch_matrix(list(texts), params.unit, size, params.t)
        return list(matrix)

    def load_sketch_kernels(self, params: Any) -> None:
        """The compiled loop of word sketches (``core.minhash_kernel``), when unit = words."""
        if params.unit == "words":
            minhash_kernel.functions(minhash_kernel.FROM_TEXTS)

    def sketch_extracted(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """As Method.sketch_extracted; the compiled loop reads an ASCII text's words
        without its white space collapsed first (``core.minhash_sketch.sketch_extracted``)."""
        size = params.w if params.unit == "words" else params.q
        return list(sketch_extracted(list(texts), params.unit, size, params.t, params.ignore))

    # -- comparing ----------------------------------------------------------------------
    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """Estimated resemblance, or the larger containment with measure = containment; 0
        when either document has no shingle."""
        r = float(resemblance_rows(a, b))
        if params.measure == "containment":
            ca, cb = containment_from(r, a[-1], b[-1])
            return float(max(ca, cb))
        return r

    def containment(self, a: np.ndarray, b: np.ndarray, params: Any) -> tuple[float, float]:
        """(share of a in b, share of b in a) from the resemblance and the shingle counts."""
        ca, cb = containment_from(resemblance_rows(a, b), a[-1], b[-1])
        return float(ca), float(cb)

    decodes_together = True  # one size a sketch (t + 1 values): one matrix

    def from_bytes_many(self, blobs: Sequence[bytes]) -> np.ndarray | Sequence[np.ndarray]:
        """The stored sketches as one (documents, t + 1) matrix, read from their bytes
        joined: 0.01-0.02 s for 20,000, where decoding each and stacking the rows took
        0.08-0.09 s, and the search stacked them twice (its candidates, then their scores)."""
        sizes = {len(b) for b in blobs}
        if len(sizes) > 1:  # not one size (never written so): the rows as they are
            return super().from_bytes_many(blobs)
        width = sizes.pop() // self.sketch_dtype.itemsize if sizes else 0
        return np.frombuffer(b"".join(blobs), dtype=self.sketch_dtype).reshape(len(blobs), width).copy()

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
        """The (k, s, r) feature filter used at this floor (k * s <= t and r <= k are
        checked when the parameters are made)."""
        if params.candidates == "auto":
            return choose_filter(floor, params.t)
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
        Documents without shingles (score 0) are left out: their identical ``EMPTY`` minima
        would otherwise pair every one of them with every other.
        """
        if len(sketches) < 2:
            return np.empty((0, 2), dtype=np.int64)
        matrix = _stack(sketches)
        t = matrix.shape[1] - 1
        keep = np.flatnonzero(matrix[:, t] > 0)
        if keep.shape[0] < 2:
            return np.empty((0, 2), dtype=np.int64)
        k, s, r = self.filter_for(params, floor)
        # a view when every document has shingles (a copy of a million rows is 0.5 GB)
        keys = feature_keys(matrix[:, :t] if keep.shape[0] == matrix.shape[0] else matrix[keep, :t], k, s)
        return keep[bucket_pairs(keys, r)]

    def complete_from(self, params: Any, floor: float) -> float | None:
        """None with measure = resemblance: the filter is designed for resemblance at the
        floor (>= 99% recall with candidates = auto). 1.0 with measure = containment: the
        filter still selects on resemblance, and a pair of high containment can have any
        resemblance (a short text inside a long one), so no containment score, not even
        1.0, is guaranteed to be searched for."""
        return 1.0 if params.measure == "containment" else None


def _stack(sketches: Sequence[np.ndarray]) -> np.ndarray:
    if isinstance(sketches, np.ndarray) and sketches.ndim == 2:
        return sketches
    return np.stack([np.asarray(s) for s in sketches])
