"""The radix sort of uniform 64-bit words (core.word_sort) against numpy's sort, on the
inputs it is built for and on those it is not."""

import numpy as np
import pytest
from uniform_words import check_sorts_a_view_in_place, uniform

from ndd_desktop.core import lsh, word_sort
from ndd_desktop.core.word_sort import sort_words


@pytest.fixture(params=["radix", "numpy"])
def sorter(request, monkeypatch):
    """Each way of sorting the parts, whichever this machine's timing chose."""
    monkeypatch.setattr(word_sort, "_chosen", request.param)
    return request.param


@pytest.mark.parametrize("parts", [1, 2, 3, 4, 16])
def test_sorts_on_any_number_of_threads(parts, sorter):
    words = uniform(parts, 150_001)
    words[:100] = 0  # runs of equal words, and words with and without each top bit
    words[100:200] = np.uint64(2**64 - 1)
    want = np.sort(words)
    sort_words(words, parts)
    assert np.array_equal(words, want)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 31, 1000])
def test_short_inputs(n):
    words = uniform(n, n)
    want = np.sort(words)
    sort_words(words)
    assert np.array_equal(words, want)


def test_many_parts_when_parts_are_small(monkeypatch, sorter):
    # parts of at most 1,000 words: 2^8 parts of 200,000 words, each its own radix pass
    monkeypatch.setattr(word_sort, "PART_WORDS", 1000)
    words = uniform(7, 200_000)
    want = np.sort(words)
    sort_words(words, 2)
    assert np.array_equal(words, want)


def test_words_that_are_not_uniform(sorter):
    rng = np.random.default_rng(3)
    # small integers (every top bit zero), one key's many documents (one huge bucket),
    # and a descending run
    small = rng.integers(0, 5000, 100_000).astype(np.uint64)
    one_key = np.uint64(0xABCDEF0000000000) | rng.integers(0, 1 << 24, 100_000).astype(np.uint64)
    descending = np.arange(100_000, dtype=np.uint64)[::-1] << np.uint64(20)
    for words in (small, one_key, descending, np.concatenate((small, one_key, descending))):
        words = words.copy()
        want = np.sort(words)
        sort_words(words, 2)
        assert np.array_equal(words, want)


def test_words_that_share_their_top_bits_are_split_below_them(monkeypatch, sorter):
    """A part of core.word_parts: its words share their top bits, so the sort splits them
    by the bits below (into halves, not into all and nothing) and still sorts them."""
    words = (uniform(11, 200_000) >> np.uint64(5)) | np.uint64(0b10110 << 59)
    want = np.sort(words)
    cuts = []
    real = word_sort._split_by_bit
    monkeypatch.setattr(word_sort, "_split_by_bit", lambda w, lo, hi, bit: cuts.append(real(w, lo, hi, bit)) or cuts[-1])
    sort_words(words, 2, shared_bits=5)
    assert np.array_equal(words, want)
    assert len(cuts) == 1 and 80_000 < cuts[0] < 120_000


def test_sorts_a_view_in_place(sorter):
    check_sorts_a_view_in_place(lambda view: sort_words(view, 2), 9, 300_000)


def test_the_feature_search_sort_takes_it_for_many_words(monkeypatch):
    monkeypatch.setattr(lsh, "RADIX_WORDS", 0)
    words = uniform(11, 100_000)
    want = np.sort(words)
    lsh._sort_uniform(words)
    assert np.array_equal(words, want)


def test_the_feature_search_takes_the_radix_once_loaded_or_for_many_words():
    assert not lsh._radix_serves(1_300_000, kernel_loaded=False)  # a minhash scan of 20,000
    assert lsh._radix_serves(1_300_000, kernel_loaded=True)
    assert lsh._radix_serves(lsh.RADIX_WORDS, kernel_loaded=False)
    word_sort.sort_words(uniform(14, 10))
    assert word_sort.is_loaded()
