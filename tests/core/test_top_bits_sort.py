"""The numpy-only sort of uniform 64-bit words (core.top_bits_sort) against numpy's sort,
on the inputs it is built for and on those it is not."""

import numpy as np
import pytest
from uniform_words import check_sorts_a_view_in_place, uniform

from ndd_desktop.core import lsh, top_bits_sort
from ndd_desktop.core.top_bits_sort import by_top_bits, sort_uniform


@pytest.fixture(params=["top bits", "numpy"])
def choice(request, monkeypatch):
    """Each way of sorting, whichever this machine's timing chose."""
    monkeypatch.setattr(top_bits_sort, "_chosen", request.param)
    return request.param


def test_sorts_uniform_words(choice):
    words = uniform(1, 200_003)
    words[:50] = 7  # runs of equal words, and the largest word
    words[50:90] = np.uint64(2**64 - 1)
    want = np.sort(words)
    sort_uniform(words)
    assert np.array_equal(words, want)


@pytest.mark.parametrize("make", [
    lambda: np.arange(100_000, dtype=np.uint64)[::-1].copy(),  # descending, every top bit 0
    lambda: np.random.default_rng(2).integers(0, 1000, 100_000).astype(np.uint64),  # small, many equal
    lambda: np.full(70_000, 2**63 + 5, dtype=np.uint64),  # one value
    lambda: np.concatenate([np.arange(40_000, dtype=np.uint64) << np.uint64(40)] * 2),  # the top bits alone differ
])
def test_sorts_words_that_are_not_uniform(make):
    words = make()
    want = np.sort(words)
    got = by_top_bits(words)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("n", [0, 1, 2, 1000, top_bits_sort.SMALL])
def test_short_inputs(n, choice):
    words = uniform(n, n)
    want = np.sort(words)
    sort_uniform(words)
    assert np.array_equal(words, want)


def test_sorts_a_view_in_place(choice):
    check_sorts_a_view_in_place(sort_uniform, 3, 150_000)


def test_the_feature_search_sorts_with_it_before_numba_is_loaded(monkeypatch, choice):
    monkeypatch.setattr(lsh, "_radix_serves", lambda words, kernel_loaded: False)
    seen = []
    monkeypatch.setattr(lsh, "sort_uniform", lambda words: seen.append(words.shape[0]) or sort_uniform(words))
    keys = uniform(4, 3000 * 5).reshape(3000, 5)
    keys[10] = keys[20]  # rows 10 and 20 share every key, rows 30 and 40 one
    keys[40, 2] = keys[30, 2]
    pairs = lsh.bucket_pairs(keys)
    assert seen == [15_000]
    assert pairs.tolist() == [[10, 20], [30, 40]]


def test_sorts_a_strided_view_in_place(choice):
    base = uniform(5, 300_000)
    odd = base[1::2].copy()
    view = base[::2]  # not contiguous: its top bits are read by a shift instead
    want = np.sort(view)
    sort_uniform(view)
    assert np.array_equal(base[::2], want)
    assert np.array_equal(base[1::2], odd)
