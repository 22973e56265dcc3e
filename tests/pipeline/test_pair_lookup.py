"""PairLookup answers like a dict of every stored pair."""

from __future__ import annotations

import numpy as np

from ndd_desktop.pipeline.pair_lookup import PairLookup


def test_lookup_equals_a_dict_of_every_pair():
    rng = np.random.default_rng(3)
    a = rng.integers(1, 400, 3000)
    b = a + rng.integers(1, 300, 3000)
    keep = np.unique(a * 1000 + b, return_index=True)[1]  # each pair once
    a, b = a[keep], b[keep]
    value = rng.random(a.shape[0])
    lookup = PairLookup(a, b, value)
    want = {(int(x), int(y)): float(v) for x, y, v in zip(a, b, value)}
    probes = list(want)[:500] + [(int(x), int(y)) for x, y in rng.integers(0, 800, (500, 2))] + [(-1, 3), (5, 10**6)]
    for pair in probes:
        assert lookup.get(pair) == want.get(pair)
    assert lookup.get((10**6, 1), 1.0) == 1.0  # the default for an unknown pair
    pa, pb = np.array([p[0] for p in probes]), np.array([p[1] for p in probes])
    many = lookup.values(pa, pb)
    assert [None if np.isnan(v) else v for v in many.tolist()] == [want.get(p) for p in probes]
    empty = PairLookup(np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0))
    assert empty.get((1, 2)) is None and np.isnan(empty.values(np.array([1]), np.array([2]))).all()


def test_indices_find_each_pair_where_it_was_given_and_distinct_tells_repeats():
    a = np.array([5, 1, 3, 1, 2])
    b = np.array([9, 4, 7, 2, 8])
    lookup = PairLookup(a, b)
    assert lookup.indices(np.array([1, 5, 2, 1, 0, -1]), np.array([2, 9, 8, 9, 1, 3])).tolist() == [3, 0, 4, -1, -1, -1]
    assert lookup.distinct
    assert not PairLookup(np.array([1, 2, 1]), np.array([4, 5, 4])).distinct
