"""The group-by of band words (core.band_words) against a plain reference: every two
documents that share a key, found by a dictionary."""

import itertools

import numpy as np
import pytest

from ndd_desktop.core.band_words import DOC_BITS, band_word_codes, band_words
from ndd_desktop.core.word_parts import WordParts


def reference_codes(keys: np.ndarray, docs: np.ndarray, n: int, bits: int) -> list[int]:
    """Codes a * n + b (a < b) of the documents whose keys agree on their top ``bits``."""
    by_key: dict[int, set[int]] = {}
    for row, d in zip(keys.tolist(), docs.tolist()):
        for key in row:
            by_key.setdefault(key >> (64 - bits), set()).add(d)
    return sorted({a * n + b for members in by_key.values() for a, b in itertools.combinations(sorted(members), 2)})


def random_keys(seed: int, docs: int, bins: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 2**64 - 1, (docs, bins), dtype=np.uint64)
    pool = keys[: docs // 4].reshape(-1)  # a quarter of the keys reused: runs of 2 and more
    pick = rng.random(keys.shape) < 0.25
    keys[pick] = pool[rng.integers(0, pool.shape[0], int(pick.sum()))]
    keys[3, :5] = keys[3, 7]  # one document holding one key in several bins
    return keys


def test_packed_words_pair_the_documents_that_share_a_key():
    n = 300
    docs = np.random.default_rng(1).permutation(n)[:200]
    keys = random_keys(2, 200, 16)
    words, owners = band_words(keys, docs, n)
    assert owners is None
    got = band_word_codes(words, owners, n)
    assert got.tolist() == reference_codes(keys, docs, n, 64 - DOC_BITS)
    assert got.shape[0] > 100


def test_whole_keys_beyond_two_to_the_24_documents():
    n = 1 << DOC_BITS
    docs = np.arange(0, n, n // 120)[:120]
    keys = random_keys(3, 120, 8)
    keys[5, 0] = keys[6, 0] ^ np.uint64(1)  # equal top 40 bits, different keys: no pair here
    words, owners = band_words(keys, docs, n)
    assert owners is not None
    got = band_word_codes(words, owners, n)
    assert got.tolist() == reference_codes(keys, docs, n, 64)


def test_fewer_than_two_words():
    assert band_word_codes(np.empty(0, np.uint64), None, 10).shape == (0,)
    assert band_word_codes(np.array([5], np.uint64), None, 10).shape == (0,)


def test_words_parted_by_their_top_bits_pair_the_same_documents():
    """The words of a group parted by their top bits (core.word_parts), each part paired
    alone: every part's codes together are the whole group's."""
    n = 300
    docs = np.random.default_rng(4).permutation(n)[:250]
    keys = random_keys(5, 250, 16)
    words, _ = band_words(keys, docs, n)
    with WordParts(8) as held:
        held.add(words[:1000])
        held.add(words[1000:])
        parts = list(held.read())
    assert [np.unique(w >> np.uint64(61)).shape[0] for w in parts] == [1] * 8
    got = np.unique(np.concatenate([band_word_codes(w, None, n, shared_bits=3) for w in parts]))
    assert got.tolist() == reference_codes(keys, docs, n, 64 - DOC_BITS)
