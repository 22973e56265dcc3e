"""core.cover.cover_groups (every group at once, compiled) against choose_keepers group by group."""

from __future__ import annotations

import numpy as np
import pytest
from kernel_loops import loops  # noqa: F401  (the autouse fixture: plain and compiled loops)

from ndd_desktop.core.cover import choose_keepers, cover_groups


def _covers(n, groups, rank, first, fixed, links, ways=None):
    """cover_groups on lists: groups (lists of nodes), links ((a, b, value or None), ...),
    ways (per link: (a covers b, b covers a); None: both ways)."""
    offsets = np.cumsum([0] + [len(g) for g in groups])
    members = np.asarray([x for g in groups for x in g], dtype=np.int64)
    a = [x for x, _, _ in links]
    b = [y for _, y, _ in links]
    v = [np.nan if w is None else w for _, _, w in links]
    ab = None if ways is None else [x for x, _ in ways]
    ba = None if ways is None else [y for _, y in ways]
    arrays = cover_groups(n, offsets, members, rank, first, fixed, a, b, v, ab, ba)
    return [arrays.cover(k, np.asarray(g, dtype=np.int64)) for k, g in enumerate(groups)]


def _reference(groups, rank, first, fixed, links, ways=None):
    out = []
    ways = ways or [(True, True)] * len(links)
    for g, f in zip(groups, first):
        inside = set(g)
        mapping: dict[int, dict[int, float | None]] = {}
        for (a, b, v), (ab, ba) in zip(links, ways):
            if a in inside and b in inside:
                if ab:
                    mapping.setdefault(a, {})[b] = v
                if ba:
                    mapping.setdefault(b, {})[a] = v
        order = [f] + sorted((x for x in g if x != f), key=lambda x: rank[x])
        out.append(choose_keepers(order, mapping, [x for x in g if fixed[x]]))
    return out


def test_a_chain_by_hand():
    # group 0: 1 - 2 - 3 kept from 1 (keeps 3 too); group 1: 4 - 5 - 6 kept from its middle 5
    rank = np.arange(7)
    links = [(1, 2, 0.8), (2, 3, 0.8), (4, 5, 0.9), (5, 6, None), (3, 4, 0.99)]  # 3-4 joins two groups: ignored
    got = _covers(7, [[2, 1, 3], [4, 5, 6]], rank, [1, 5], np.zeros(7, dtype=bool), links)
    assert got[0].keepers == (1, 3) and got[0].covered_by == {2: (1, 0.8)}
    assert got[1].keepers == (5,) and got[1].covered_by == {4: (5, 0.9), 6: (5, None)}


def test_fixed_members_are_kept_first_and_a_valued_link_beats_one_without():
    rank = np.array([0, 1, 2, 3])
    fixed = np.array([False, False, True, False])
    links = [(0, 1, None), (2, 1, 0.5), (0, 3, 0.7), (2, 3, 0.6)]
    (got,) = _covers(4, [[0, 1, 2, 3]], rank, [0], fixed, links)
    (want,) = _reference([[0, 1, 2, 3]], rank, [0], fixed, links)
    assert got == want
    assert got.keepers == (2, 0) and got.covered_by == {1: (2, 0.5), 3: (0, 0.7)}
    assert list(got.covered_by) == list(want.covered_by)  # the order first covered, too


def test_a_link_one_way_covers_that_way_only():
    # 0: a letter quoted whole in 1, a report: the report covers the letter, not the other way
    rank = np.arange(3)
    links, ways = [(0, 1, 0.9), (1, 2, 0.8)], [(False, True), (True, True)]
    (got,) = _covers(3, [[0, 1, 2]], rank, [0], np.zeros(3, dtype=bool), links, ways)
    assert got.keepers == (0, 1) and got.covered_by == {2: (1, 0.8)}
    (got,) = _covers(3, [[0, 1, 2]], rank, [1], np.zeros(3, dtype=bool), links, ways)
    assert got.keepers == (1,) and got.covered_by == {0: (1, 0.9), 2: (1, 0.8)}


def test_a_first_member_outside_its_group_is_refused():
    with pytest.raises(ValueError):
        cover_groups(3, [0, 2], [0, 1], np.arange(3), [2], np.zeros(3, dtype=bool), [], [], [])


@pytest.mark.parametrize("seed", range(40))
def test_random_groups_match_choose_keepers(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 120))
    nodes = rng.permutation(n)
    cuts = np.sort(rng.choice(np.arange(1, n), size=min(n - 1, int(rng.integers(1, 6))), replace=False))
    groups = [g.tolist() for g in np.split(nodes, cuts) if len(g) >= 2]
    if not groups:
        return
    rank = rng.permutation(n)
    first = [int(rng.choice(g)) for g in groups]
    fixed = rng.random(n) < 0.1
    m = int(rng.integers(0, 4 * n))
    a, b = rng.integers(0, n, m), rng.integers(0, n, m)
    pairs = {(min(x, y), max(x, y)) for x, y in zip(a.tolist(), b.tolist()) if x != y}
    values = [None if rng.random() < 0.1 else float(np.round(rng.random(), 1)) for _ in pairs]
    links = [(x, y, v) for (x, y), v in zip(sorted(pairs, key=lambda _: rng.random()), values)]
    ways = None if seed % 2 else [(bool(rng.random() < 0.7), bool(rng.random() < 0.7)) for _ in links]
    got = _covers(n, groups, rank, first, fixed, links, ways)
    want = _reference(groups, rank, first, fixed, links, ways)
    assert got == want
    assert [list(c.covered_by) for c in got] == [list(c.covered_by) for c in want]
