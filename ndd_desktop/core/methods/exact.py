"""Exact duplicates: a 128-bit hash of the normalised text.

The sketch is xxh3-128 of the UTF-8 normalised text as two uint64 (high, low). Two
documents score 1.0 when the hashes are equal and 0.0 otherwise. Candidates are a
group-by on the hash: only documents with the same hash are paired. An empty text has an
empty sketch and matches nothing (documents without text are not duplicates of each other).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import xxhash

from ..method import Method, PairScores
from ..params import ignore_param


@dataclass(frozen=True)
class ExactParams:
    """The exact method has only the parameter every method has (what to leave out)."""

    ignore: str = ignore_param()


def pairs_within_groups(labels: np.ndarray) -> np.ndarray:
    """All pairs (i < j) of positions that share a label, as an (m, 2) int64 array."""
    labels = np.asarray(labels)
    if labels.shape[0] < 2:
        return np.empty((0, 2), dtype=np.int64)
    order = np.argsort(labels, kind="stable")  # stable: positions ascend within a group
    sorted_labels = labels[order]
    new = np.concatenate(([True], sorted_labels[1:] != sorted_labels[:-1]))
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, labels.shape[0]))
    ends = np.repeat(starts + sizes, sizes)
    after = ends - np.arange(labels.shape[0]) - 1
    total = int(after.sum())
    if total == 0:
        return np.empty((0, 2), dtype=np.int64)
    first = np.repeat(np.arange(labels.shape[0]) + 1, after)
    within = np.arange(total) - np.repeat(np.cumsum(after) - after, after)
    i = np.repeat(order, after)
    j = order[first + within]
    return np.stack([i, j], axis=1).astype(np.int64)


class ExactMethod(Method):
    """Identical normalised text (xxh3-128)."""

    name = "exact"
    description = "Identical text after normalisation (xxh3-128 hash)"
    Params = ExactParams
    default_threshold = 1.0
    source = ""
    sketch_dtype = np.dtype(np.uint64)

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """xxh3-128 of the text as [high, low] uint64; empty for an empty text."""
        if not text:
            return np.empty(0, dtype=np.uint64)
        h = xxhash.xxh3_128_intdigest(text.encode("utf-8", "surrogatepass"))
        return np.array([h >> 64, h & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)

    def score(self, a: np.ndarray, b: np.ndarray, params: Any) -> float:
        """1.0 when the hashes are equal (and not empty), else 0.0."""
        return 1.0 if a.shape[0] == 2 and b.shape[0] == 2 and bool(np.array_equal(a, b)) else 0.0

    def candidate_pairs(
        self, sketches: Sequence[np.ndarray], params: Any, floor: float, dates: np.ndarray | None = None
    ) -> np.ndarray:
        """Pairs of documents with the same hash (a group-by, never all N^2 pairs)."""
        keep = np.flatnonzero(np.fromiter((s.shape[0] == 2 for s in sketches), dtype=bool, count=len(sketches)))
        if keep.shape[0] < 2 or floor > 1.0:
            return np.empty((0, 2), dtype=np.int64)
        hashes = np.stack([sketches[k] for k in keep]).astype(np.uint64)
        # One label per distinct (high, low): unique rows of the (n, 2) array.
        _, labels = np.unique(hashes, axis=0, return_inverse=True)
        pairs = pairs_within_groups(labels.reshape(-1))
        return keep[pairs] if pairs.shape[0] else pairs

    def score_pairs(self, sketches: Sequence[np.ndarray], pairs: np.ndarray, params: Any) -> PairScores:
        """Scores of the given pairs (1.0 or 0.0); containment is not defined (NaN)."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        if pairs.shape[0] == 0:
            return PairScores.empty()
        # One (n, 2) table of hashes, an empty text as a row that equals nothing.
        full = np.fromiter((s.shape[0] == 2 for s in sketches), dtype=bool, count=len(sketches))
        table = np.zeros((len(sketches), 2), dtype=np.uint64)
        if full.any():
            table[full] = np.stack([sketches[k] for k in np.flatnonzero(full)])
        i, j = pairs[:, 0], pairs[:, 1]
        same = full[i] & full[j] & (table[i] == table[j]).all(axis=1)
        score = same.astype(np.float64)
        nan = np.full(pairs.shape[0], np.nan)
        return PairScores(pairs[:, 0].copy(), pairs[:, 1].copy(), score, nan, nan.copy())
