"""The compiled loops of :mod:`core.clustering`: components, hub groups and principal groups
formed over arrays, every group at once.

numpy needs a sort of the whole graph for each ordering the groups ask for (hub first, the
direct neighbours by score, the groups by their smallest member) and a Python loop for the
greedy pass of principal groups; here each is one linear pass over the edges, with only the
members of one group sorted at a time. A group comes out as a slice of three flat arrays
(``offsets``, ``members``, ``scores``), the layout :class:`core.clustering.GroupArrays`
keeps. Results are those of the earlier numpy and Python formulation
(``tests/core/test_clustering_kernel.py`` keeps a plain reference). The functions are plain
Python, run as they are for a small graph; :data:`compiled` are their numba versions for a
large one (``core.kernel_load``; compiled once per machine, cached beside the module where
that folder is writable, and run without the GIL); :func:`functions` picks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernel_load
from .kernel_load import Compiled, KernelLoader


def component_roots(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The smallest member of each node's component (union-find: the larger root is hung
    under the smaller, with path halving, so every pointer goes to a smaller node)."""
    parent = np.arange(n)
    for k in range(i.shape[0]):
        a = i[k]
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        b = j[k]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a < b:
            parent[b] = a
        elif b < a:
            parent[a] = b
    for x in range(n):  # parent[x] <= x: the smaller nodes already point at their roots
        parent[x] = parent[parent[x]]
    return parent


def _better(s: float, held: float) -> bool:
    """Whether score ``s`` ranks before ``held`` when scores are ordered highest first with
    NaN last (as an ascending sort of ``-score`` orders them)."""
    if np.isnan(s):
        return False
    return np.isnan(held) or s > held


def _before(s1: float, x1: int, s2: float, x2: int) -> bool:
    """Whether (score s1, node x1) comes before (s2, x2): score descending, NaN last, then node."""
    if s1 == s2 or (np.isnan(s1) and np.isnan(s2)):
        return x1 < x2
    return _better(s1, s2)


def sort_by_score(nodes: np.ndarray, scores: np.ndarray, lo: int, hi: int) -> None:
    """Sort ``nodes[lo:hi]`` with their ``scores[lo:hi]`` in place: score descending (NaN
    last), then node ascending. Insertion sort for a short run, else a merge sort."""
    count = hi - lo
    if count <= 24:
        for a in range(lo + 1, hi):
            x, s = nodes[a], scores[a]
            b = a - 1
            while b >= lo and _before(s, x, scores[b], nodes[b]):
                nodes[b + 1] = nodes[b]
                scores[b + 1] = scores[b]
                b -= 1
            nodes[b + 1] = x
            scores[b + 1] = s
        return
    src_n, src_s = nodes[lo:hi].copy(), scores[lo:hi].copy()
    dst_n, dst_s = np.empty_like(src_n), np.empty_like(src_s)
    width = 1
    while width < count:
        for start in range(0, count, 2 * width):
            mid, end = min(start + width, count), min(start + 2 * width, count)
            a, b, k = start, mid, start
            while a < mid and b < end:
                if _before(src_s[b], src_n[b], src_s[a], src_n[a]):
                    dst_n[k], dst_s[k] = src_n[b], src_s[b]
                    b += 1
                else:
                    dst_n[k], dst_s[k] = src_n[a], src_s[a]
                    a += 1
                k += 1
            while a < mid:
                dst_n[k], dst_s[k] = src_n[a], src_s[a]
                a += 1
                k += 1
            while b < end:
                dst_n[k], dst_s[k] = src_n[b], src_s[b]
                b += 1
                k += 1
        src_n, dst_n = dst_n, src_n
        src_s, dst_s = dst_s, src_s
        width *= 2
    nodes[lo:hi] = src_n
    scores[lo:hi] = src_s


def _by_source(n: int, src: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A counting sort of edge numbers by ``src``: ``(start, edge)`` with the edges of node x
    at ``edge[start[x]:start[x + 1]]``, in their original order."""
    start = np.zeros(n + 1, dtype=np.int64)
    for k in range(src.shape[0]):
        start[src[k] + 1] += 1
    for x in range(n):
        start[x + 1] += start[x]
    fill = start[:-1].copy()
    edge = np.empty(src.shape[0], dtype=np.int64)
    for k in range(src.shape[0]):
        edge[fill[src[k]]] = k
        fill[src[k]] += 1
    return start, edge


def hub_groups(n: int, i: np.ndarray, j: np.ndarray, score: np.ndarray, lengths: np.ndarray,
               labels: np.ndarray, distinct: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One group per component (``labels``, in ``[0, n_labels)``) of the edges, which all lie
    inside one component and join two different nodes: ``(offsets, members, scores)``.

    The hub leads (most distinct neighbours, then the longer, then the lower node; score
    1.0), then its direct neighbours by score descending then node, then the nodes reached
    only through others by node (score NaN). Repeated edges keep their highest score
    (``distinct``: the caller knows no edge is repeated, and they are not looked for).
    Groups come out by their smallest member.
    """
    m = i.shape[0]
    degree = np.zeros(n, dtype=np.int64)
    if distinct:
        d_lo, d_hi, d_sc, nd = i, j, score, m
        for k in range(m):
            degree[i[k]] += 1
            degree[j[k]] += 1
    else:
        lo = np.minimum(i, j)
        hi = np.maximum(i, j)
        start, edge = _by_source(n, lo)
        # the distinct edges, each with its highest score
        stamp = np.full(n, -1, dtype=np.int64)
        slot = np.zeros(n, dtype=np.int64)
        d_lo = np.empty(m, dtype=np.int64)
        d_hi = np.empty(m, dtype=np.int64)
        d_sc = np.empty(m, dtype=np.float64)
        nd = 0
        for a in range(n):
            for p in range(start[a], start[a + 1]):
                k = edge[p]
                b, s = hi[k], score[k]
                if stamp[b] != a:
                    stamp[b] = a
                    slot[b] = nd
                    d_lo[nd], d_hi[nd], d_sc[nd] = a, b, s
                    degree[a] += 1
                    degree[b] += 1
                    nd += 1
                elif _better(s, d_sc[slot[b]]):
                    d_sc[slot[b]] = s
    n_labels = 0
    for x in range(n):
        n_labels = max(n_labels, labels[x] + 1)
    hub = np.full(n_labels, -1, dtype=np.int64)
    for x in range(n):  # ascending: a tie on degree and length keeps the lower node
        if degree[x] == 0:
            continue
        h = hub[labels[x]]
        if h < 0 or degree[x] > degree[h] or (degree[x] == degree[h] and lengths[x] > lengths[h]):
            hub[labels[x]] = x
    to_hub = np.full(n, np.nan)
    for q in range(nd):
        a, b = d_lo[q], d_hi[q]
        if hub[labels[a]] == a:
            to_hub[b] = d_sc[q]
        elif hub[labels[b]] == b:
            to_hub[a] = d_sc[q]
    # groups numbered by their smallest member; each holds the hub, its direct neighbours, the rest
    group_of_label = np.full(n_labels, -1, dtype=np.int64)
    size = np.zeros(n + 1, dtype=np.int64)
    n_direct = np.zeros(n + 1, dtype=np.int64)
    groups = 0
    for x in range(n):
        if degree[x] == 0:
            continue
        g = group_of_label[labels[x]]
        if g < 0:
            g = group_of_label[labels[x]] = groups
            groups += 1
        size[g] += 1
        if not np.isnan(to_hub[x]) and hub[labels[x]] != x:
            n_direct[g] += 1
    offsets = np.zeros(groups + 1, dtype=np.int64)
    for g in range(groups):
        offsets[g + 1] = offsets[g] + size[g]
    members = np.empty(offsets[groups], dtype=np.int64)
    scores = np.empty(offsets[groups], dtype=np.float64)
    next_direct = offsets[:-1] + 1
    next_other = offsets[:-1] + 1 + n_direct[:groups]
    for x in range(n):
        if degree[x] == 0:
            continue
        g = group_of_label[labels[x]]
        if hub[labels[x]] == x:
            members[offsets[g]], scores[offsets[g]] = x, 1.0
        elif not np.isnan(to_hub[x]):
            members[next_direct[g]], scores[next_direct[g]] = x, to_hub[x]
            next_direct[g] += 1
        else:
            members[next_other[g]], scores[next_other[g]] = x, np.nan
            next_other[g] += 1
    for g in range(groups):
        sort_by_score(members, scores, offsets[g] + 1, offsets[g] + 1 + n_direct[g])
    return offsets, members, scores


def principal_pass(n: int, i: np.ndarray, j: np.ndarray, score: np.ndarray,
                   leaders: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The greedy principal groups: ``(offsets, members, scores)`` in the order formed.

    ``leaders``: the nodes with an edge, best leader first (the longest, then the lower
    node). Each unassigned leader takes every unassigned node it shares an edge with (a
    repeated edge keeps its highest score), sorted by score descending then node; a leader
    with no unassigned neighbour forms no group.
    """
    m = i.shape[0]
    src = np.empty(2 * m, dtype=np.int64)
    src[:m] = i
    src[m:] = j
    start, edge = _by_source(n, src)
    assigned = np.zeros(n, dtype=np.bool_)
    stamp = np.full(n, -1, dtype=np.int64)
    slot = np.zeros(n, dtype=np.int64)
    offsets = np.zeros(leaders.shape[0] + 1, dtype=np.int64)
    members = np.empty(n, dtype=np.int64)
    scores = np.empty(n, dtype=np.float64)
    groups = 0
    used = 0
    for leader in leaders:
        if assigned[leader]:
            continue
        first = used + 1  # room for the leader
        count = 0
        for p in range(start[leader], start[leader + 1]):
            k = edge[p]
            other = j[k] if k < m else i[k - m]
            if k >= m:
                k -= m
            if assigned[other]:
                continue
            if stamp[other] != leader:
                stamp[other] = leader
                slot[other] = first + count
                members[first + count], scores[first + count] = other, score[k]
                count += 1
            elif _better(score[k], scores[slot[other]]):
                scores[slot[other]] = score[k]
        if count == 0:
            continue
        assigned[leader] = True
        members[used], scores[used] = leader, 1.0
        for q in range(first, first + count):
            assigned[members[q]] = True
        sort_by_score(members, scores, first, first + count)
        used = first + count
        groups += 1
        offsets[groups] = used
    return offsets[: groups + 1].copy(), members[:used].copy(), scores[:used].copy()


#: the functions numba compiles (each calls the others' compiled versions)
compiled = Compiled(globals(), ('component_roots', '_better', '_before', 'sort_by_score', '_by_source', 'hub_groups', 'principal_pass'))


#: Below this much work (edges plus documents) the loops run as plain Python (kernel_load.SMALL).
SMALL = kernel_load.SMALL


def functions(work: int) -> Any:
    """The loops to run ``work`` (edges plus documents) with (``kernel_load.loops_for``)."""
    return kernel_load.loops_for(work, SMALL, __name__, load, compiled)


def _warm() -> None:
    k = compiled()
    i, j, s = np.array([0], dtype=np.int64), np.array([1], dtype=np.int64), np.array([0.5])
    roots = k.component_roots(2, i, j)
    k.hub_groups(2, i, j, s, np.ones(2), roots, False)
    k.hub_groups(2, i, j, s, np.ones(2), roots, True)
    k.principal_pass(2, i, j, s, np.array([0, 1], dtype=np.int64))


#: Load the compiled functions (from numba's cache) now, without SciPy's BLAS; what the
#: first large grouping does.
load = KernelLoader(_warm)
