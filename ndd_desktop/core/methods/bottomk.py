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

Candidates: the same inverted index as qgram, over the sketch values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..hashing import hash_char_ngrams
from ..inverted_index import sorted_unique
from ..method import MEASURES
from ..params import param
from .qgram import SetOverlapMethod


def bottom_k(hashes: np.ndarray, k: int) -> np.ndarray:
    """The k smallest distinct values of ``hashes``, sorted (all of them when fewer)."""
    if hashes.shape[0] > 4 * k:
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
        help="resemblance: shared / K; containment: share of the smaller sketch found in the other (estimate).",
        choices=MEASURES,
        affects_sketch=False,
    )
    max_df: float = param(
        0.5,
        help="Leave sketch values found in more than this share of documents out of the candidate "
        "index (collections of 50+ documents); scores stay exact, recall may drop.",
        label="max document frequency",
        minimum=0.01,
        maximum=1.0,
        affects_sketch=False,
    )


class BottomKMethod(SetOverlapMethod):
    """K smallest distinct n-gram hashes; shared values / K (NDDSig)."""

    name = "bottomk"
    description = "K smallest character n-gram hashes per document; shared values / K"
    Params = BottomKParams
    default_threshold = 0.7
    source = "001_bf6adac85a5212be.txt"
    sketch_dtype = np.dtype(np.uint64)

    def sketch(self, text: str, params: Any) -> np.ndarray:
        """The K smallest distinct hashes of the character n-grams of ``text``."""
        return bottom_k(hash_char_ngrams(text, params.n), params.k)
