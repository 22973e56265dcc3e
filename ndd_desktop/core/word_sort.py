"""Sort 64-bit words that are uniform hashes (the banded search's packed band words), in
place, on all cores, about three times as fast as numpy's sort.

numpy sorts 64-bit integers at 50-60 ns a word on the 2-core build machine (its SIMD sorts
do not serve this type there), and the band words of a qgram scan are ten million at
20,000 documents and 500 million at a million: their sort was half of the banded search.
Words whose top bits are uniform need no comparison sort:

1. the words are split in place by their top bits, one bit a streaming pass from both
   ends (:func:`_split_by_bit`), until there are parts enough for every core and none is
   larger than ``PART_WORDS``; a pass is ~1-2 ns a word, and each level's parts are split
   on threads;
2. each part is sorted on its thread by one radix pass (:func:`_sort_part`): the words are
   counted by their next ``digit`` bits and scattered, in order, into a buffer the size of
   the largest part (one per thread, so the memory this takes is bounded by
   ``PART_WORDS`` words a core, not by the words), and each bucket, a handful of words on
   average, is sorted by insertion; a bucket larger than ``SMALL_BUCKET`` (words that
   agree on their top bits: many documents sharing a key) is sorted by numpy's sort
   instead, so no input makes the insertion quadratic;
3. the sorted buffer is copied back over the part.

Words that are not uniform are still sorted, only more slowly (they fall to the fallback).

Where numpy's sort is vectorised (its SIMD sorts serve 64-bit integers on many Intel and
ARM machines, not on the AMD build machine), it may beat one radix pass. So the first
large sort of a process times both on the same sample of uniform words (about 20 ms here)
and the parts are sorted, from then on, by whichever was faster (:func:`part_sorter`).
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from .parallel import cores, run_threads
from .sort_timing import quickest

#: The largest part one radix pass sorts: its buffer is this many words (32 MB) a thread.
PART_WORDS = 1 << 22
#: Buckets up to this many words are sorted by insertion; larger ones by numpy's sort.
SMALL_BUCKET = 32
#: Fewer words than this are sorted on one thread (handing out the work costs more).
SMALL_INPUT = 1 << 16
#: At most this many top bits split the words into parts (2^12 parts).
MAX_SPLIT_BITS = 12


def sort_words(words: np.ndarray, parts: int | None = None, shared_bits: int = 0) -> None:
    """Sort uniform 64-bit words in place, on up to ``parts`` threads (default: the cores).
    ``shared_bits``: how many top bits all the words share (one part of
    :class:`core.word_parts.WordParts`); the bits below them are the uniform ones."""
    n = words.shape[0]
    if n < 2:
        return
    threads = max(1, parts or cores()) if n >= SMALL_INPUT else 1
    levels = 0
    while levels < MAX_SPLIT_BITS and ((1 << levels) < threads or n >> levels > PART_WORDS):
        levels += 1
    bounds = [0, n]
    for level in range(levels):  # halve every part by the next top bit
        bit = np.uint64(63 - shared_bits - level)
        spans = list(zip(bounds[:-1], bounds[1:]))
        cuts = run_threads(lambda span, bit=bit: _split_by_bit(words, span[0], span[1], bit), spans, threads)
        bounds = sorted(set(bounds) | set(cuts))
    spans = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b - a > 1]
    if not spans:
        return
    # the parts dealt to the threads in turns, largest first; a buffer of the largest each
    spans.sort(key=lambda s: s[0] - s[1])
    largest = spans[0][1] - spans[0][0]
    shift = 64 - shared_bits - levels
    dealt = [spans[k::threads] for k in range(min(threads, len(spans)))]

    radix = part_sorter() == "radix" if n >= SMALL_INPUT else True

    def sort_dealt(mine: list[tuple[int, int]]) -> None:
        buffer = np.empty(largest if radix else 0, dtype=np.uint64)
        for a, b in mine:
            if radix:
                _sort_part(words, a, b, buffer, shift, min(shift, _digit_bits(b - a)))
            else:
                words[a:b].sort()  # numpy's sort releases the GIL

    run_threads(sort_dealt, dealt, threads)


def is_loaded() -> bool:
    """Whether the radix pass is compiled or loaded in this process (a first call costs
    numba's import and the kernel's load)."""
    return bool(_sort_part.signatures)


#: How this process sorts a part: "radix" or "numpy" (None: not timed yet).
_chosen: str | None = None
_choosing = threading.Lock()
#: Words of the sample :func:`part_sorter` times both sorts on.
SAMPLE_WORDS = 1 << 17


def part_sorter() -> str:
    """"radix" or "numpy": which sorts a part of uniform words faster on this machine,
    timed once a process on SAMPLE_WORDS words (the better of two runs each)."""
    global _chosen
    with _choosing:
        if _chosen is None:
            sample = np.random.default_rng(0).integers(0, 2**64 - 1, SAMPLE_WORDS, dtype=np.uint64, endpoint=True)
            buffer = np.empty_like(sample)
            digit = _digit_bits(SAMPLE_WORDS)
            _chosen = quickest({"radix": lambda words: _sort_part(words, 0, SAMPLE_WORDS, buffer, 64, digit),
                                "numpy": np.ndarray.sort}, sample)
        return _chosen


def _digit_bits(size: int) -> int:
    """Bits of the radix pass over ``size`` words: about four words a bucket, 8 to 18 bits
    (a count array of at most 2 MB: 20 bits, 8 MB, left the cache and cost more)."""
    return int(min(18, max(8, (size // 4).bit_length())))


@njit(cache=True, nogil=True)
def _split_by_bit(words: np.ndarray, lo: int, hi: int, bit: np.uint64) -> int:
    """Reorder words[lo:hi] in place so that those without ``bit`` come first (all words
    there agree on the higher bits); where the others start."""
    flag = np.uint64(1) << bit
    i, j = lo, hi - 1
    while True:
        while i <= j and not words[i] & flag:
            i += 1
        while i <= j and words[j] & flag:
            j -= 1
        if i >= j:
            return i
        words[i], words[j] = words[j], words[i]


@njit(cache=True, nogil=True)
def _sort_part(words: np.ndarray, lo: int, hi: int, buffer: np.ndarray, shift: int, digit: int) -> None:
    """Sort words[lo:hi], which agree on their bits above ``shift``, through ``buffer``: one
    counting pass on the ``digit`` bits below ``shift`` (at most ``shift``), a scatter, the
    buckets sorted."""
    m = hi - lo
    if m < 2 or digit <= 0:
        return
    down = np.uint64(shift - digit)
    mask = (np.uint64(1) << np.uint64(digit)) - np.uint64(1)
    nb = 1 << digit
    start = np.zeros(nb + 1, dtype=np.int64)
    for i in range(lo, hi):
        start[((words[i] >> down) & mask) + np.uint64(1)] += 1
    for d in range(nb):
        start[d + 1] += start[d]
    fill = start[:nb].copy()
    for i in range(lo, hi):
        w = words[i]
        d = (w >> down) & mask
        buffer[fill[d]] = w
        fill[d] += 1
    for d in range(nb):
        a = start[d]
        b = start[d + 1]
        if b - a > SMALL_BUCKET:
            buffer[a:b].sort()
        else:
            for i in range(a + 1, b):
                x = buffer[i]
                j = i - 1
                while j >= a and buffer[j] > x:
                    buffer[j + 1] = buffer[j]
                    j -= 1
                buffer[j + 1] = x
    words[lo:hi] = buffer[:m]
