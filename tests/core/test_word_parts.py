"""Uniform words parted by their top bits into temporary files and read back part by part
(``core.word_parts``), as the banded search holds a large group's band words."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ndd_desktop.core.word_parts import MAX_PARTS, WordParts, parts_for


def test_the_parts_are_the_least_power_of_two_that_holds_the_words():
    assert [parts_for(w, 100) for w in (0, 100, 101, 200, 201, 1000, 1600, 1601)] == [1, 1, 2, 2, 4, 16, 16, 32]
    assert parts_for(10**12, 1) == MAX_PARTS


def test_words_added_from_threads_come_back_each_in_the_part_of_its_top_bits():
    rng = np.random.default_rng(3)
    batches = [rng.integers(0, 2**64 - 1, int(rng.integers(0, 5000)), dtype=np.uint64, endpoint=True)
               for _ in range(24)]
    batches[5] = batches[4].copy()  # the same words twice: both kept
    with WordParts(8) as held:
        threads = [threading.Thread(target=lambda k=k: [held.add(b) for b in batches[k::4]]) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(held.sizes()) == sum(b.shape[0] for b in batches)
        parts = list(held.read())
        assert held.sizes() == [0] * 8  # read once: the files are emptied
    assert len(parts) == 8
    for p, words in enumerate(parts):
        assert words.dtype == np.uint64 and np.all(words >> np.uint64(61) == p)
    assert np.array_equal(np.sort(np.concatenate(parts)), np.sort(np.concatenate(batches)))


def test_a_batch_of_rows_and_an_empty_batch():
    with WordParts(2) as held:
        held.add(np.array([[1, 2**63], [2**64 - 1, 5]], dtype=np.uint64))
        held.add(np.empty(0, dtype=np.uint64))
        assert [w.tolist() for w in held.read()] == [[1, 5], [2**63, 2**64 - 1]]


def test_the_files_go_when_it_closes():
    held = WordParts(4)
    held.add(np.arange(10, dtype=np.uint64))
    files = list(held._files)
    held.close()
    assert all(f.closed for f in files)


@pytest.mark.parametrize("parts", [0, 1, 3, 6, 2 * MAX_PARTS])
def test_parts_must_be_a_power_of_two_from_two(parts):
    with pytest.raises(ValueError):
        WordParts(parts)
