"""Bottom-k sketch of character n-gram hashes (NDDSig, source 001).

The n-grams of the normalised text (white space kept, collapsed) are hashed to 64 bits,
duplicate hashes are dropped, and the K smallest are kept, sorted: a fixed-size sketch
whatever the document's length. Two documents score the number of values their sketches
share over K. A document with fewer than K distinct n-grams keeps them all, so the score
is generally shared / max(len_a, len_b) (which is shared / K when both sketches are full).

Choices the source leaves open:

* N = 5 (the source: "N=4 or 5"). For documents of a few KB, 4-grams are shared by
  unrelated texts more often (common short words and their junctions); 5-grams separate
  near-duplicates from look-alikes a little better on the source's tweet example.
* K = 128: one kilobyte per sketch; the score's standard error at 0.5 is about
  sqrt(0.25 / 128) = 0.044, fine for thresholds around 0.6-0.8.

What the score estimates: when both sketches are full, a shared n-gram is in both sketches
when its hash is below both documents' K-th smallest hash, so shared / K approximates the
share of the larger document's n-grams found in the other (doc_q of the qgram method,
computed on n-grams of the full text). ``containment`` reports shared / len(A's sketch):
the share of A's sketch values found in B's sketch. It is an *estimate* that is biased low
when B is much longer than A (B's sketch then holds only B's smallest hashes, so A's
values above B's K-th hash can never match).

Candidates: :func:`core.inverted_index.overlap_join`, as for qgram, over the sketch values.
Small collections (<= 1,500 sketches, or whenever the estimated prefix-filter work is
small) get the exact prefix-filter join. Beyond, banded LSH (:mod:`core.set_lsh`): each
round remixes every sketch value once (a seeded 32-bit bijection of the folded value),
deals them into 128 bins and keeps each bin's minimum (one-permutation hashing, empty bins
densified); a band is one bin in each of r rounds. r and the number of bands are the most
selective choice of at most 12 rounds that finds a pair at the default threshold (0.7,
Jaccard of the sketches 0.54) with probability >= 99.5 % (r = 6, 256 bands); every
candidate is verified exactly (its two sketches sorted together), so scores are exact and
the work grows with N (12 hashes per value) plus a small share of random collisions (bands
of 6 values: about 1 in 20,000 unrelated pairs on the benchmark corpus).

Why not exact at any floor: prefix filtering (rarest value first; a pair sharing t of 128
values shares one of the first 128 - t + 1) is exact but its posting lists grow with N:
on the benchmark corpus (Zipf vocabulary) unrelated documents share 18 of 128 values at
the median and up to ~35, so at floor 0.3 (39 shared values) each document's prefix holds
90 values, many of them common, and the join emits 70 M pairs at 10k documents, 285 M at
20k (x4 per doubling). Worse, pairs that reach 0.3 by chance alone are part of what brute
force returns (27 of 1,367 at 10k, growing with N^2): an index can only tell them apart
from the rest of the noise by counting, so no candidate strategy finds them in less than
about N^1.7 (LSH exponent log(1/0.18) / log(1/0.08)). Pairs at or above the default
threshold are found with >= 99.5 % probability; pairs between the floor and 0.7 are found
when they collide (on the benchmark, every pair sharing >= 60 values was found).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .. import native
from ..hashing import hash_char_ngrams
from ..method import MEASURES
from ..params import ignore_param, max_df_param, param
from ..set_overlap_method import SetOverlapMethod
from ..unique import sorted_unique


#: :func:`bottom_k` first looks at the values below this many times k / n of the range.
BELOW_SHARE = 3


def bottom_k(hashes: np.ndarray, k: int) -> np.ndarray:
    """The k smallest distinct values of ``hashes``, sorted (all of them when fewer).

    The values are hashes, uniform over 64 bits, so the k-th smallest of n of them lies
    near k / n of the range. Those below BELOW_SHARE times that (about 3k values, one
    comparison each) are sorted first: when they hold k distinct values, these are the k
    smallest of all, exactly. Otherwise (many repeats, values that are not uniform) the 4k
    smallest are taken by a partition, then all of them. On 4 KB texts (4,000 5-grams)
    47 -> 20 us a document; numpy's partition alone was 34 us of it."""
    n = hashes.shape[0]
    if n > 4 * k:
        limit = np.uint64(min(2**64 - 1, (BELOW_SHARE * k << 64) // n))
        small = hashes[hashes < limit]
        if small.shape[0] >= k:
            small = sorted_unique(small)
            if small.shape[0] >= k:
                return small[:k].copy()
        # Only small values can survive: look at the 4k smallest (with repeats) first.
        small = sorted_unique(np.partition(hashes, 4 * k)[: 4 * k + 1])
        if small.shape[0] >= k:
            return small[:k].copy()
    return sorted_unique(hashes)[:k].copy()


@dataclass(frozen=True)
class BottomKParams:
    """Parameters of the bottom-k method."""

    n: int = param(5, help="Length of the character n-grams (the source: 4 or 5).", minimum=2, maximum=12)
    k: int = param(128, help="Number of smallest n-gram hashes kept per document.", minimum=8, maximum=1024)
    measure: str = param(
        "resemblance",
        help="resemblance: shared / larger sketch (shared / K when both hold K values); "
        "containment: share of the smaller sketch found in the other (estimate).",
        choices=MEASURES,
        affects_sketch=False,
    )
    max_df: float = max_df_param("sketch values")
    ignore: str = ignore_param()


class BottomKMethod(SetOverlapMethod):
    """K smallest distinct n-gram hashes; shared values / K (NDDSig)."""

    name = "bottomk"
    description = "K smallest character n-gram hashes per document; shared values / K"
    Params = BottomKParams
    default_threshold = 0.7
    partial_search = True  # large collections: bands designed for its own default
    source = "001_bf6adac85a5212be.txt"
    sketch_dtype = np.dtype(np.uint64)

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """The K smallest distinct hashes of the character n-grams of ``text``."""
        return bottom_k(hash_char_ngrams(text, params.n), params.k)

    def sketch_many(self, texts: Sequence[str], params: Any) -> list[np.ndarray]:
        """:meth:`sketch` of each text: by one C loop a text where the package's C loops
        are built (``core.native``: the same values; 47 -> 25 us a 4 KB text, which was
        two fifths of a worker's time), else by numpy text by text."""
        if native.LOOPS is None or not texts:
            return [self.sketch(t, params) for t in texts]
        return native.bottom_k_grams(texts, params.n, params.k)

    def _complete_from(self, res: Any, params: Any, floor: float) -> float | None:
        """With containment no search over these sketches is complete, the exact join
        included: a short text's values above a long text's K-th smallest hash can never
        match (the estimate is biased low, see the module docstring), so twelve letters each
        quoted whole in a 2,200-word report were all missed. Say so (1.0: pairs may be
        missing at any containment) instead of storing an empty set as complete."""
        if params.measure == "containment":
            return 1.0
        return super()._complete_from(res, params, floor)
