"""core.unique.sorted_unique: the distinct values of integers, sorted, as np.unique gives
them; the expected values come from Python's set and sorted."""

from __future__ import annotations

import numpy as np
import pytest

from ndd_desktop.core.unique import sorted_unique


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.uint32, np.int32, np.uint8])
@pytest.mark.parametrize("size", [0, 1, 2, 7, 1000])
def test_the_distinct_values_sorted(dtype, size):
    rng = np.random.default_rng(size)
    values = rng.integers(0, max(2, size // 3), size).astype(dtype)  # many repeats
    got = sorted_unique(values)
    assert got.dtype == values.dtype
    assert got.tolist() == sorted(set(values.tolist()))


def test_extreme_values_and_a_sequence_and_two_dimensions():
    big = np.array([2**64 - 1, 0, 2**63, 2**64 - 1, 0], dtype=np.uint64)
    assert sorted_unique(big).tolist() == [0, 2**63, 2**64 - 1]
    assert sorted_unique([5, -3, 5, 0, -3]).tolist() == [-3, 0, 5]
    assert sorted_unique(np.array([[3, 1], [1, 2]])).tolist() == [1, 2, 3]  # flattened, as np.unique does
