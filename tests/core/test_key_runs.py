"""core.key_runs.run_pairs: the pairs read off a sorted key list, against brute force."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.key_runs import run_pairs

entries = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 30)), min_size=0, max_size=60)


def sorted_entries(pairs):
    """(keys, rows) sorted by key then row, as the callers' sorts leave them."""
    pairs = sorted(pairs)
    keys = np.array([k for k, _ in pairs], dtype=np.uint64)
    rows = np.array([r for _, r in pairs], dtype=np.int64)
    return keys, rows


def brute(pairs) -> set[tuple[int, int]]:
    return {(min(a, b), max(a, b)) for (ka, a), (kb, b) in combinations(pairs, 2) if ka == kb and a != b}


@settings(max_examples=200, deadline=None)
@given(entries)
def test_every_two_members_of_a_key_once(pairs):
    keys, rows = sorted_entries(pairs)
    a, b = run_pairs(rows, keys[1:] == keys[:-1])
    got = list(zip(a.tolist(), b.tolist()))
    assert set(got) == brute(pairs)
    assert all(x < y for x, y in got)
    # one pair per two entries of a key (rows sharing two keys come twice; callers dedupe)
    assert len(got) == sum(1 for (ka, x), (kb, y) in combinations(sorted(pairs), 2) if ka == kb and x != y)


@settings(max_examples=100, deadline=None)
@given(entries)
def test_rows_packed_in_the_low_bits_give_the_same_pairs(pairs):
    keys, rows = sorted_entries(pairs)
    words = (keys << np.uint64(32)) | rows.astype(np.uint64)
    a, b = run_pairs(words, keys[1:] == keys[:-1], row_mask=0xFFFFFFFF)
    assert set(zip(a.tolist(), b.tolist())) == brute(pairs)


def test_a_long_run_is_capped_but_stays_connected():
    n, cap = 500, 20
    keys = np.concatenate((np.zeros(n, np.uint64), np.ones(3, np.uint64)))
    rows = np.concatenate((np.arange(n), [n, n + 1, n + 2])).astype(np.int64)
    a, b = run_pairs(rows.copy(), keys[1:] == keys[:-1], cap=cap, salt=7)
    pairs = set(zip(a.tolist(), b.tolist()))
    small = {(n, n + 1), (n, n + 2), (n + 1, n + 2)}
    assert small <= pairs  # a run within the cap keeps all its pairs
    big = pairs - small
    assert len(big) <= n * (cap - 1) and len(big) < n * (n - 1) // 2
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for x, y in big:
        parent[find(x)] = find(y)
    assert len({find(x) for x in range(n)}) == 1
    # the order inside the long run is random: not just each row with its next ones
    assert any(y - x >= cap for x, y in big)
    # and reproducible for one salt, different for another
    again = run_pairs(rows.copy(), keys[1:] == keys[:-1], cap=cap, salt=7)
    other = run_pairs(rows.copy(), keys[1:] == keys[:-1], cap=cap, salt=8)
    assert set(zip(*(x.tolist() for x in again))) == pairs
    assert set(zip(*(x.tolist() for x in other))) != pairs


@settings(max_examples=100, deadline=None)
@given(entries)
def test_pair_codes_are_the_distinct_pairs(pairs):
    from ndd_desktop.core.key_runs import run_pair_codes

    keys, rows = sorted_entries(pairs)
    n = 31
    codes = run_pair_codes(rows, keys[1:] == keys[:-1], n)
    assert codes.tolist() == sorted({a * n + b for a, b in brute(pairs)})


def test_a_long_run_can_be_stopped_between_steps():
    import pytest

    from ndd_desktop.core.checkpoint import checkpoints

    class Stop(Exception):
        pass

    calls = []

    def stop_after_three():
        calls.append(1)
        if len(calls) > 3:
            raise Stop

    rows = np.arange(5000, dtype=np.int64)
    same = np.ones(4999, dtype=bool)  # one run of 5,000 members: 4,999 steps
    with checkpoints(stop_after_three), pytest.raises(Stop):
        run_pairs(rows, same)
    assert len(calls) == 4
