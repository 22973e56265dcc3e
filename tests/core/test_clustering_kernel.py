"""core.clustering's array forms (compiled loops) against plain Python references of the same
rules, on hand-checked cases and random graphs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from kernel_loops import loops  # noqa: F401  (the autouse fixture: plain and compiled loops)

from ndd_desktop.core import clustering_kernel
from ndd_desktop.core.clustering import (
    component_group_arrays,
    connected_components,
    principal_group_arrays,
)


def _best_links(n, i, j, s, cannot_link):
    """{x: {y: highest score}} of the edges inside one component (self-loops dropped)."""
    labels = connected_components(n, i, j, cannot_link)
    best: dict[int, dict[int, float]] = {}
    for a, b, v in zip(i, j, s):
        if a == b or labels[a] != labels[b]:
            continue
        for x, y in ((a, b), (b, a)):
            held = best.setdefault(x, {}).get(y)
            if held is None or v > held:
                best[x][y] = v
    return best, labels


def _reference_principal(n, i, j, s, lengths, cannot_link=None):
    best, _ = _best_links(n, i, j, s, cannot_link)
    assigned: set[int] = set()
    groups = []
    for leader in sorted(best, key=lambda x: (-lengths[x], x)):
        if leader in assigned:
            continue
        free = sorted(((y, v) for y, v in best[leader].items() if y not in assigned), key=lambda t: (-t[1], t[0]))
        if not free:
            continue
        assigned.add(leader)
        assigned.update(y for y, _ in free)
        groups.append(([leader] + [y for y, _ in free], [1.0] + [v for _, v in free]))
    return groups


def _reference_components(n, i, j, s, lengths, cannot_link=None):
    best, labels = _best_links(n, i, j, s, cannot_link)
    by_label: dict[int, list[int]] = {}
    for x in sorted(best):
        by_label.setdefault(int(labels[x]), []).append(x)
    groups = []
    for nodes in by_label.values():
        hub = min(nodes, key=lambda x: (-len(best[x]), -lengths[x], x))
        direct = sorted(((y, v) for y, v in best[hub].items()), key=lambda t: (-t[1], t[0]))
        rest = sorted(set(nodes) - {hub} - {y for y, _ in direct})
        groups.append(([hub] + [y for y, _ in direct] + rest,
                       [1.0] + [v for _, v in direct] + [float("nan")] * len(rest)))
    groups.sort(key=lambda g: min(g[0]))
    return groups


def _as_lists(ga):
    bounds = ga.offsets.tolist()
    return [(ga.members[lo:hi].tolist(), ga.scores[lo:hi].tolist()) for lo, hi in zip(bounds[:-1], bounds[1:])]


def _same(got, want):
    assert len(got) == len(want)
    for (gm, gs), (wm, ws) in zip(got, want):
        assert gm == wm
        np.testing.assert_array_equal(np.asarray(gs), np.asarray(ws))


def test_hub_group_by_hand():
    # 0-1 (0.5), 1-2 (0.9), 1-3 (0.5), 3-4 (0.7): the hub is 1 (three links); 0 and 3 tie
    # on 0.5 and come by index; 4 is reached only through 3. 5-6 make a second group.
    ga = component_group_arrays(7, [0, 1, 1, 3, 6], [1, 2, 3, 4, 5], [0.5, 0.9, 0.5, 0.7, 0.8], [1] * 7)
    got = _as_lists(ga)
    assert [m for m, _ in got] == [[1, 2, 0, 3, 4], [5, 6]]
    assert got[0][1][:4] == [1.0, 0.9, 0.5, 0.5] and np.isnan(got[0][1][4])
    assert got[1][1] == [1.0, 0.8]
    assert ga.principals().tolist() == [1, 5]
    assert ga.group_of(8).tolist() == [0, 0, 0, 0, 0, 1, 1, -1]


def test_principal_groups_by_hand_with_a_repeated_edge():
    # 2 is longest and takes 0 (the repeated edge keeps 0.8) and 1; then 3 takes 4.
    ga = principal_group_arrays(5, [2, 0, 2, 3, 1], [0, 2, 1, 4, 3], [0.6, 0.8, 0.8, 0.4, 0.9], [1, 1, 9, 5, 1])
    assert _as_lists(ga) == [([2, 0, 1], [1.0, 0.8, 0.8]), ([3, 4], [1.0, 0.4])]


def test_no_edges_no_groups():
    for form in (component_group_arrays, principal_group_arrays):
        ga = form(3, [], [], [], [1, 2, 3])
        assert len(ga) == 0 and ga.offsets.tolist() == [0] and ga.as_groups() == []


def test_sort_by_score_puts_nan_last_and_breaks_ties_by_node(loops):
    for count in (6, 60):  # the insertion sort and the merge sort
        rng = np.random.default_rng(count)
        nodes = rng.permutation(count).astype(np.int64)
        scores = rng.choice([0.2, 0.5, 0.9, np.nan], count)
        want = sorted(zip(nodes.tolist(), scores.tolist()), key=lambda t: (np.isnan(t[1]), -np.nan_to_num(t[1]), t[0]))
        full_n, full_s = np.concatenate(([99], nodes, [98])), np.concatenate(([7.0], scores, [8.0]))
        clustering_kernel.functions(0 if loops == "compiled" else 1).sort_by_score(full_n, full_s, 1, count + 1)
        assert full_n[1:-1].tolist() == [x for x, _ in want]
        np.testing.assert_array_equal(full_s[1:-1], [v for _, v in want])
        assert (full_n[0], full_n[-1]) == (99, 98)  # outside the range: untouched


@pytest.mark.parametrize("seed", range(40))
def test_random_graphs_match_the_references(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    m = int(rng.integers(0, 3 * n))
    if seed % 4 == 0:  # one hub with many neighbours: groups longer than the insertion sort
        i = np.zeros(m, dtype=np.int64)
        j = rng.integers(0, n, m)
    else:
        i, j = rng.integers(0, n, m), rng.integers(0, n, m)
    s = np.round(rng.random(m), 1)  # ties on purpose
    lengths = rng.integers(0, 4, n)
    cl = rng.integers(0, n, (int(rng.integers(0, 4)), 2)) if seed % 3 == 0 else None
    _same(_as_lists(component_group_arrays(n, i, j, s, lengths, cl)), _reference_components(n, i, j, s, lengths, cl))
    _same(_as_lists(principal_group_arrays(n, i, j, s, lengths, cl)), _reference_principal(n, i, j, s, lengths, cl))
    # each pair of documents once (in either order): the caller may say so and save the search for repeats
    _, first = np.unique(np.minimum(i, j) * n + np.maximum(i, j), return_index=True)
    di, dj, ds = i[first], j[first], s[first]
    flip = rng.random(di.shape[0]) < 0.5
    di, dj = np.where(flip, dj, di), np.where(flip, di, dj)
    _same(_as_lists(component_group_arrays(n, di, dj, ds, lengths, cl, distinct=True)),
          _reference_components(n, di, dj, ds, lengths, cl))
    # the leaders' order handed in (all documents, longest first), as the pipeline keeps it
    by_length = np.argsort(-lengths, kind="stable")
    _same(_as_lists(principal_group_arrays(n, i, j, s, lengths, cl, by_length=by_length)),
          _reference_principal(n, i, j, s, lengths, cl))


def test_loading_the_kernels_leaves_scipy_linalg_unimported():
    code = (
        "import sys\n"
        "from ndd_desktop.core import clustering_kernel, cover_kernel\n"
        "clustering_kernel.load()\n"
        "cover_kernel.load()\n"
        "print('scipy.linalg' in sys.modules, 'scipy.linalg.cython_blas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
