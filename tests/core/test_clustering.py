"""Tests of core.clustering: union-find, components with cannot-link, principal groups."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.clustering import (
    Group,
    UnionFind,
    component_groups,
    connected_components,
    group_labels,
    principal_groups,
)


def test_union_find_basics():
    uf = UnionFind(5)
    assert uf.union(0, 1)
    assert not uf.union(1, 0)
    assert uf.union(3, 4)
    assert uf.find(1) == uf.find(0)
    assert uf.find(2) == 2
    assert list(uf.labels()) == [0, 0, 1, 2, 2]


def test_union_find_forbid_survives_merges():
    uf = UnionFind(6)
    uf.forbid(0, 5)
    uf.union(0, 1)
    uf.union(4, 5)
    uf.union(2, 1)
    assert not uf.union(2, 4)  # 2 is with 0, 4 is with 5
    assert uf.union(3, 4)
    assert not uf.union(3, 0)
    assert not uf.connected(0, 5)


def test_chain_is_one_component_but_principal_groups_show_it():
    # A~B (0.9), B~C (0.9), A not like C; A is the longest.
    a, b, c = 0, 1, 2
    i, j, s = np.array([a, b]), np.array([b, c]), np.array([0.9, 0.8])
    labels = connected_components(3, i, j)
    assert labels[a] == labels[b] == labels[c]
    groups = principal_groups(3, i, j, s, lengths=np.array([300, 200, 100]))
    assert len(groups) == 1
    g = groups[0]
    assert g.principal == a
    assert list(g.members) == [a, b]
    assert list(g.scores) == [1.0, 0.9]
    gl = group_labels(groups, 3)
    assert gl[a] == gl[b] != gl[c]
    assert gl[c] == -1


def test_chain_with_middle_longest_takes_both_ends():
    i, j, s = np.array([0, 1]), np.array([1, 2]), np.array([0.9, 0.8])
    groups = principal_groups(3, i, j, s, lengths=np.array([10, 50, 20]))
    assert len(groups) == 1
    assert groups[0].principal == 1
    assert list(groups[0].members) == [1, 0, 2]
    assert list(groups[0].scores) == [1.0, 0.9, 0.8]


def test_two_groups_in_one_component():
    # 0-1, 1-2, 2-3, 3-4: longest 0 takes 1; then 2 takes 3; then 4 has 3 taken -> none.
    i, j = np.array([0, 1, 2, 3]), np.array([1, 2, 3, 4])
    groups = principal_groups(5, i, j, np.full(4, 0.7), lengths=np.array([9, 8, 7, 6, 5]))
    assert [g.principal for g in groups] == [0, 2]
    assert [list(g.members) for g in groups] == [[0, 1], [2, 3]]


def test_cannot_link_keeps_two_apart():
    # A~B 0.9, B~C 0.8; reviewer says A is not C: the weaker edge B~C is skipped.
    i, j, s = np.array([0, 1]), np.array([1, 2]), np.array([0.9, 0.8])
    labels = connected_components(3, i, j, cannot_link=np.array([[0, 2]]))
    assert labels[0] == labels[1] != labels[2]
    groups = principal_groups(3, i, j, s, lengths=np.array([1, 5, 3]), cannot_link=[[2, 0]])
    assert [list(g.members) for g in groups] == [[1, 0]]


def test_cannot_link_respects_edge_order():
    # The same edges in the other order: B~C merges first, A~B is skipped.
    i, j = np.array([1, 0]), np.array([2, 1])
    labels = connected_components(3, i, j, cannot_link=np.array([[0, 2]]))
    assert labels[1] == labels[2] != labels[0]


def test_cannot_link_through_a_long_path():
    # 0-1-2-3-4 in order; 0 and 4 must stay apart: the last edge (3,4) is skipped.
    i, j = np.arange(4), np.arange(1, 5)
    labels = connected_components(5, i, j, cannot_link=[[4, 0]])
    assert len(set(labels[:4])) == 1 and labels[4] != labels[0]


def test_labels_are_compact_and_ordered():
    labels = connected_components(6, [5, 2], [4, 3])
    assert list(labels) == [0, 1, 2, 2, 3, 3]


def test_empty_and_invalid():
    assert list(connected_components(3, [], [])) == [0, 1, 2]
    assert principal_groups(3, [], [], [], [1, 2, 3]) == []
    assert list(group_labels([], 2)) == [-1, -1]
    with pytest.raises(ValueError):
        connected_components(2, [0], [2])


def test_repeated_edge_keeps_highest_score():
    groups = principal_groups(2, [0, 1], [1, 0], [0.4, 0.6], [5, 1])
    assert len(groups) == 1 and list(groups[0].scores) == [1.0, 0.6]


def test_large_random_graph_is_fast():
    import time

    rng = np.random.default_rng(1)
    n, m = 100_000, 1_000_000
    i, j, s = rng.integers(0, n, m), rng.integers(0, n, m), rng.random(m)
    start = time.perf_counter()
    principal_groups(n, i, j, s, rng.integers(1, 1000, n))
    assert time.perf_counter() - start < 15  # about 1 s on the reference machine


edges = st.integers(min_value=2, max_value=30).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=60),
    )
)


def _reference_components(n, pairs):
    parent = list(range(n))

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    return [root(x) for x in range(n)]


@settings(max_examples=200, deadline=None)
@given(edges)
def test_labels_match_union_of_edges(case):
    n, pairs = case
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    labels = connected_components(n, i, j)
    ref = _reference_components(n, pairs)
    for a in range(n):
        for b in range(n):
            assert (labels[a] == labels[b]) == (ref[a] == ref[b])


@settings(max_examples=200, deadline=None)
@given(edges, st.data())
def test_principal_groups_properties(case, data):
    n, pairs = case
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    s = np.array(data.draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs))))
    lengths = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    cl = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    groups = principal_groups(n, i, j, s, lengths, cannot_link=cl or None)
    comp = connected_components(n, i, j, cannot_link=cl or None)
    edge_set = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}
    seen: set[int] = set()
    for g in groups:
        assert isinstance(g, Group) and len(g) >= 2
        assert g.members[0] == g.principal and g.scores[0] == 1.0
        assert len(set(g.members.tolist())) == len(g)
        for m, sc in zip(g.members[1:].tolist(), g.scores[1:].tolist()):
            assert (g.principal, m) in edge_set  # every member has an edge to the principal
            best = max(s[k] for k, p in enumerate(pairs) if p in ((g.principal, m), (m, g.principal)))
            assert sc == best
        assert len({comp[m] for m in g.members.tolist()}) == 1
        assert not seen & set(g.members.tolist())
        seen |= set(g.members.tolist())
    for a, b in cl:
        if a != b:
            assert comp[a] != comp[b]
    labels = group_labels(groups, n)
    assert set(np.flatnonzero(labels >= 0).tolist()) == seen


def test_component_groups_keep_a_chain_together_around_its_hub():
    # Two partial copies (0 and 2) of a source (1): each is similar to the source, not to
    # each other. The longest document is a copy (0), the most linked is the source.
    (g,) = component_groups(3, [0, 1], [1, 2], [0.6, 0.7], lengths=[90, 50, 40])
    assert g.principal == 1
    assert g.members.tolist() == [1, 2, 0] and g.scores.tolist() == [1.0, 0.7, 0.6]
    # principal groups split the same chain (the longest document leads, 2 is left alone)
    (p,) = principal_groups(3, [0, 1], [1, 2], [0.6, 0.7], lengths=[90, 50, 40])
    assert p.members.tolist() == [0, 1]


def test_component_groups_mark_members_reached_only_through_others():
    # 0-1, 1-2, 2-3: degrees 1, 2, 2, 1; the hub tie between 1 and 2 goes to the longer (2).
    (g,) = component_groups(4, [0, 1, 2], [1, 2, 3], [0.9, 0.8, 0.7], lengths=[1, 5, 6, 1])
    assert g.principal == 2
    assert g.members.tolist() == [2, 1, 3, 0]
    assert g.scores[:3].tolist() == [1.0, 0.8, 0.7] and np.isnan(g.scores[3])


def test_component_groups_respect_cannot_link_and_order_by_smallest_member():
    groups = component_groups(5, [3, 0, 1], [4, 1, 2], [0.9, 0.9, 0.8], [1] * 5, cannot_link=[(0, 2)])
    assert [sorted(g.members.tolist()) for g in groups] == [[0, 1], [3, 4]]
    assert component_groups(3, [], [], [], [1, 1, 1]) == []


@settings(max_examples=200, deadline=None)
@given(edges, st.data())
def test_component_groups_are_the_connected_components(case, data):
    n, pairs = case
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    s = np.array(data.draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs))))
    lengths = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    groups = component_groups(n, i, j, s, lengths)
    ref = _reference_components(n, pairs)
    linked = {a for a, b in pairs if a != b} | {b for a, b in pairs if a != b}
    want = {}
    for x in sorted(linked):
        want.setdefault(ref[x], set()).add(x)
    assert sorted(sorted(g.members.tolist()) for g in groups) == sorted(sorted(v) for v in want.values())
    neighbours = {x: {b for a, b in pairs if a == x and b != x} | {a for a, b in pairs if b == x and a != x}
                  for x in range(n)}
    for g in groups:
        hub = g.principal
        assert all(len(neighbours[hub]) >= len(neighbours[m]) for m in g.members.tolist())
        for m, sc in zip(g.members[1:].tolist(), g.scores[1:].tolist()):
            if m in neighbours[hub]:
                assert sc == max(s[k] for k, p in enumerate(pairs) if set(p) == {hub, m})
            else:
                assert np.isnan(sc)
