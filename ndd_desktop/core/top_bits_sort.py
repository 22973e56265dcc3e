"""Sort 64-bit words that are uniform hashes with numpy alone, by their top 16 bits first.

numpy sorts 64-bit integers with a vectorised sort on many machines (5-10 ns a word) but
not on all: on the AMD build machine its sort is scalar, 50-80 ns a word, and the
feature search of a minhash scan of 20,000 documents (840,000 band words, sorted where
numba is not loaded: ``core.lsh._sort_uniform``) spent 67 ms of its 95 in that sort.
numpy sorts 16-bit keys by a radix sort (its stable sort of types up to 16 bits), so
words whose top bits are uniform are sorted in two steps that need no comparison sort of
the whole:

1. a stable argsort of the words' top 16 bits and one gather order them by those bits,
   which leaves runs of about n / 65,536 words that are in order with one another;
2. numpy's stable sort (a timsort) of the result finds and merges those runs.

840,000 words take 18-20 ms so here against numpy's 46 ms (warm); 4 million 136 against
234 ms. Where numpy's own sort is vectorised it is the faster, so the first sort of a
process large enough to matter times both on a sample (a few milliseconds) and keeps the
faster (:func:`chosen`). Words that are not uniform are still sorted, only more slowly.
"""

from __future__ import annotations

import threading

import numpy as np

from .hashing import mix64
from .sort_timing import quickest

#: Below this many words numpy's sort is taken: the radix pass's 65,536 counters cost more.
SMALL = 1 << 16
#: Words of the sample :func:`chosen` times both sorts on.
SAMPLE_WORDS = 1 << 15
_TOP = np.uint64(48)
_LITTLE = np.little_endian

_chosen: str | None = None
_choosing = threading.Lock()


def sort_uniform(words: np.ndarray) -> None:
    """Sort the uint64 ``words`` in place, by their top bits first where that is faster."""
    if words.shape[0] < SMALL or chosen() == "numpy":
        words.sort()
        return
    words[...] = by_top_bits(words)


def by_top_bits(words: np.ndarray) -> np.ndarray:
    """The uint64 ``words`` sorted (a new array): ordered by their top 16 bits, then by a
    stable sort that merges the runs this leaves."""
    if _LITTLE and words.flags.c_contiguous:
        top = words.view(np.uint16)[3::4]  # the top 16 bits of each word, without a copy
    else:
        top = (words >> _TOP).astype(np.uint16)
    order = np.argsort(top, kind="stable")
    out = words[order]
    del order
    out.sort(kind="stable")
    return out


def chosen() -> str:
    """"top bits" or "numpy": which sorts uniform words faster on this machine, timed once
    a process on :data:`SAMPLE_WORDS` words (the better of two runs each)."""
    global _chosen
    with _choosing:
        if _chosen is None:
            sample = mix64(np.arange(SAMPLE_WORDS, dtype=np.uint64), 1)  # numpy.random's import is 13 ms
            _chosen = quickest({"numpy": np.ndarray.sort, "top bits": by_top_bits}, sample)
        return _chosen
