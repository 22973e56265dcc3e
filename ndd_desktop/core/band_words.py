"""One band group's keys as sortable words, and the documents that share a key.

The banded search (:mod:`core.set_lsh`) gives every document ``bins`` band keys per group
of rounds; two documents sharing one key become a candidate. Below 2^24 documents a key
and its document are packed into one 64-bit word (the key's top 40 bits, the document in
the low 24; a rare false match of 40 bits only adds a candidate, which the caller
verifies), so the group-by is one sort of words. Beyond, the whole keys are sorted with
their documents beside them.

The packed words are sorted on all cores by a radix sort for uniform words
(:mod:`core.word_sort`), and a compiled pass pairs the documents of each run of equal keys.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .feature_index import sorted_unique
from .key_runs import run_pair_codes
from .word_sort import sort_words

#: Low bits of a packed word that hold the document.
DOC_BITS = 24


def band_words(keys: np.ndarray, docs: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(words, owners) of a batch's band keys (one row per document of ``docs``) in a
    collection of ``n`` documents: below 2^24 documents one word per key, its top 40 bits
    and the document (owners None), beyond the whole key and its document apart."""
    if n >= 1 << DOC_BITS:
        return keys.reshape(-1), np.repeat(docs.astype(np.int64), keys.shape[1])
    words = (keys >> np.uint64(DOC_BITS)) << np.uint64(DOC_BITS) | docs.astype(np.uint64)[:, None]
    return words.reshape(-1), None


def band_match_keys(keys: np.ndarray, n: int) -> np.ndarray:
    """What of a band key two documents must share, in a collection of ``n`` documents:
    its top 40 bits below 2^24 documents (:func:`band_words`), the whole key beyond."""
    return keys if n >= 1 << DOC_BITS else keys >> np.uint64(DOC_BITS)


def band_word_codes(words: np.ndarray, owners: np.ndarray | None, n: int, shared_bits: int = 0) -> np.ndarray:
    """Sorted distinct codes ``a * n + b`` (a < b) of the documents sharing a key among one
    group's words (:func:`band_words`), for words holding every word of each of their keys
    (the whole group, or a shuffle partition of it). Packed words are sorted in place;
    ``shared_bits``: the top bits they all share (a part of :mod:`core.word_parts`)."""
    if words.shape[0] < 2:
        return np.empty(0, np.int64)
    if owners is not None:
        order = np.argsort(words, kind="stable")
        ordered = words[order]
        return run_pair_codes(owners[order], ordered[1:] == ordered[:-1], n)
    sort_words(words, shared_bits=shared_bits)
    return sorted_word_codes(words, n)


def sorted_word_codes(words: np.ndarray, n: int) -> np.ndarray:
    """:func:`band_word_codes` of packed words that are already sorted."""
    return sorted_unique(_packed_pair_codes(words, np.uint64(DOC_BITS), n))  # np.unique hashes: 20x slower


@njit(cache=True, nogil=True)
def _packed_pair_codes(words: np.ndarray, doc_bits: np.uint64, n: int) -> np.ndarray:
    """Codes a * n + b (a < b, with repeats) of every two documents of a run of sorted
    packed words with equal keys; two words of one document are not a pair."""
    limit = np.uint64(1) << doc_bits
    mask = limit - np.uint64(1)
    m = words.shape[0]
    total = 0
    s = 0
    while s < m:  # count first, so the codes are one array
        e = s + 1
        while e < m and (words[e] ^ words[s]) < limit:
            e += 1
        total += (e - s) * (e - s - 1) // 2
        s = e
    out = np.empty(total, dtype=np.int64)
    k = 0
    s = 0
    while s < m:
        e = s + 1
        while e < m and (words[e] ^ words[s]) < limit:
            e += 1
        for x in range(s, e):
            a = np.int64(words[x] & mask)
            for y in range(x + 1, e):
                b = np.int64(words[y] & mask)
                if a != b:
                    out[k] = min(a, b) * n + max(a, b)
                    k += 1
        s = e
    return out[:k]
