"""Clustering of scored pairs: connected components with cannot-link constraints, and
principal groups that keep chains (A~B~C with A not like C) visible.

Edges arrive as parallel arrays ``i, j`` (and ``score``) of document indices in ``[0, n)``.
Without constraints the components are found with vectorised hooking and pointer jumping;
with constraints only the components that hold a cannot-link pair are replayed edge by edge
through a :class:`UnionFind`, so the Python loop runs over the few edges that need it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class UnionFind:
    """Disjoint sets over ``0..n-1`` with path compression, union by size and optional
    cannot-link constraints (:meth:`forbid`), which make :meth:`union` refuse a merge."""

    def __init__(self, n: int) -> None:
        self._parent = list(range(n))
        self._size = [1] * n
        # root -> set of roots it must never be merged with (kept symmetric and up to date).
        self._forbidden: dict[int, set[int]] = {}

    def __len__(self) -> int:
        return len(self._parent)

    def find(self, x: int) -> int:
        """The root of ``x``'s set."""
        parent = self._parent
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def forbid(self, a: int, b: int) -> bool:
        """Declare that ``a`` and ``b`` must never share a set; False if they already do."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self._forbidden.setdefault(ra, set()).add(rb)
        self._forbidden.setdefault(rb, set()).add(ra)
        return True

    def union(self, a: int, b: int) -> bool:
        """Merge the sets of ``a`` and ``b``; False when already merged or forbidden."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        forbidden = self._forbidden
        fa = forbidden.get(ra)
        if fa is not None and rb in fa:
            return False
        if self._size[ra] < self._size[rb]:
            ra, rb = rb, ra  # ra is the larger set and becomes the root
        self._parent[rb] = ra
        self._size[ra] += self._size[rb]
        fb = forbidden.pop(rb, None)
        if fb:
            # Every root that forbade rb now forbids ra instead; merge the sets.
            for other in fb:
                peer = forbidden[other]
                peer.discard(rb)
                peer.add(ra)
            forbidden.setdefault(ra, set()).update(fb)
        return True

    def connected(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are in one set."""
        return self.find(a) == self.find(b)

    def roots(self) -> np.ndarray:
        """The root of every element, as an int64 array."""
        return np.fromiter((self.find(x) for x in range(len(self._parent))), dtype=np.int64, count=len(self._parent))

    def labels(self) -> np.ndarray:
        """Component label of every element: 0, 1, ... in order of each set's smallest element."""
        return _compact(self.roots())


def _compact(roots: np.ndarray) -> np.ndarray:
    """Relabel arbitrary component ids as 0..k-1, numbered by each component's first element."""
    if roots.shape[0] == 0:
        return roots.astype(np.int64)
    _, first, inverse = np.unique(roots, return_index=True, return_inverse=True)
    rank = np.empty(first.shape[0], dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0], dtype=np.int64)
    return rank[inverse.reshape(-1)]


def _as_edges(n: int, i, j) -> tuple[np.ndarray, np.ndarray]:
    i = np.asarray(i, dtype=np.int64).reshape(-1)
    j = np.asarray(j, dtype=np.int64).reshape(-1)
    if i.shape != j.shape:
        raise ValueError("i and j must have the same length")
    if i.shape[0] and (min(i.min(), j.min()) < 0 or max(i.max(), j.max()) >= n):
        raise ValueError(f"edge endpoints must lie in [0, {n})")
    return i, j


def _roots_vectorised(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Root (smallest member) of every node's component, without a per-edge Python loop.

    Hook the larger of two roots under the smaller, then pointer-jump until every node
    points at its root; repeat until no edge joins two different roots. ``parent[x] <= x``
    holds throughout, so no cycle can form.
    """
    parent = np.arange(n, dtype=np.int64)
    keep = i != j
    i, j = i[keep], j[keep]
    while i.shape[0]:
        pi, pj = parent[i], parent[j]
        lo, hi = np.minimum(pi, pj), np.maximum(pi, pj)
        live = lo != hi
        if not live.any():
            break
        lo, hi = lo[live], hi[live]
        i, j = i[live], j[live]  # edges inside one component are done for good
        np.minimum.at(parent, hi, lo)
        while True:
            grand = parent[parent]
            if np.array_equal(grand, parent):
                break
            parent = grand
    return parent


def connected_components(n: int, i, j, cannot_link=None) -> np.ndarray:
    """Component label (int64, 0..k-1 by smallest member) of each of ``n`` documents.

    Edges ``(i[k], j[k])`` are merged in the given order (pass them sorted by score,
    highest first); a merge that would put a pair of ``cannot_link`` (an ``(m, 2)`` array)
    into one component is skipped. Documents without edges are components of one.
    """
    i, j = _as_edges(n, i, j)
    roots = _roots_vectorised(n, i, j)
    cl = _cannot_link_array(n, cannot_link)
    if cl.shape[0] == 0:
        return _compact(roots)
    # Only components holding a cannot-link pair depend on the edge order: replay those.
    conflicted = np.unique(roots[cl[:, 0]][roots[cl[:, 0]] == roots[cl[:, 1]]])
    if conflicted.shape[0] == 0:
        return _compact(roots)
    in_conflict = np.zeros(n, dtype=bool)
    in_conflict[conflicted] = True
    node_conflict = in_conflict[roots]
    uf = UnionFind(n)
    for a, b in cl[node_conflict[cl[:, 0]]].tolist():
        uf.forbid(a, b)
    edge_sel = node_conflict[i]
    for a, b in zip(i[edge_sel].tolist(), j[edge_sel].tolist()):
        uf.union(a, b)
    final = roots.copy()
    members = np.flatnonzero(node_conflict)
    # Replayed components get ids above n so they cannot clash with untouched roots.
    final[members] = n + np.fromiter((uf.find(int(x)) for x in members), dtype=np.int64, count=members.shape[0])
    return _compact(final)


def _cannot_link_array(n: int, cannot_link) -> np.ndarray:
    if cannot_link is None:
        return np.empty((0, 2), dtype=np.int64)
    cl = np.asarray(cannot_link, dtype=np.int64).reshape(-1, 2)
    if cl.shape[0] and (cl.min() < 0 or cl.max() >= n):
        raise ValueError(f"cannot-link indices must lie in [0, {n})")
    return cl[cl[:, 0] != cl[:, 1]]


@dataclass(frozen=True)
class Group:
    """A principal document and the documents directly similar to it.

    ``members`` starts with the principal (score 1.0), then the others by descending
    score; ``scores[k]`` is the score of ``members[k]`` with the principal.
    """

    principal: int
    members: np.ndarray
    scores: np.ndarray

    def __len__(self) -> int:
        return int(self.members.shape[0])


def _component_edges(n: int, i, j, score, lengths, cannot_link):
    """Validated edges inside components (self-loops and edges cut by cannot-link dropped),
    with their scores, the lengths and the component labels."""
    i, j = _as_edges(n, i, j)
    score = np.asarray(score, dtype=np.float64).reshape(-1)
    lengths = np.asarray(lengths).reshape(-1)
    if score.shape != i.shape or lengths.shape[0] != n:
        raise ValueError("score must match the edges and lengths must have n entries")
    labels = connected_components(n, i, j, cannot_link)
    keep = (i != j) & (labels[i] == labels[j])
    return i[keep], j[keep], score[keep], lengths, labels


def principal_groups(n: int, i, j, score, lengths, cannot_link=None) -> list[Group]:
    """Principal groups inside the connected components of the edges.

    Within each component the longest unassigned document (ties: lower index) leads a
    group and takes every unassigned document it shares an edge with; repeat until the
    component is used up. A leader that finds no unassigned neighbour forms no group, so
    every group has at least two members and each member has an edge to its principal.
    Edges across components (skipped because of ``cannot_link``) are ignored. Repeated
    edges keep their highest score. Groups come out in the order they were formed.
    """
    i, j, score, lengths, labels = _component_edges(n, i, j, score, lengths, cannot_link)
    # Adjacency in both directions, grouped by source (repeated edges are resolved later).
    src = np.concatenate((i, j))
    order = np.argsort(src, kind="stable")
    src = src[order]
    dst = np.concatenate((j, i))[order]
    sc = np.concatenate((score, score))[order]
    start = np.searchsorted(src, np.arange(n + 1, dtype=np.int64))

    has_edge = start[1:] > start[:-1]
    nodes = np.flatnonzero(has_edge)
    nodes = nodes[np.lexsort((nodes, -lengths[nodes]))]  # longest first, then lower index
    # The greedy pass is sequential by nature; plain lists keep its per-step cost small.
    dst_l, start_l = dst.tolist(), start.tolist()
    assigned = bytearray(n)
    leaders: list[int] = []
    taken: list[int] = []  # positions into dst/sc of each group's non-principal members
    bounds = [0]
    for leader in nodes.tolist():
        if assigned[leader]:
            continue
        free = [k for k in range(start_l[leader], start_l[leader + 1]) if not assigned[dst_l[k]]]
        if not free:
            continue
        assigned[leader] = 1
        for k in free:
            assigned[dst_l[k]] = 1
        leaders.append(leader)
        taken.extend(free)
        bounds.append(len(taken))
    if not leaders:
        return []
    pos = np.asarray(taken, dtype=np.int64)
    gid = np.repeat(np.arange(len(leaders)), np.diff(bounds))
    # A repeated edge appears twice in a group: keep its highest score.
    order = np.lexsort((-sc[pos], dst[pos], gid))
    pos, gid = pos[order], gid[order]
    first = np.ones(pos.shape[0], dtype=bool)
    first[1:] = (gid[1:] != gid[:-1]) | (dst[pos[1:]] != dst[pos[:-1]])
    pos, gid = pos[first], gid[first]
    order = np.lexsort((dst[pos], -sc[pos], gid))  # per group: score descending, then index
    pos = pos[order]
    bounds = np.searchsorted(gid, np.arange(len(leaders) + 1)).tolist()
    member_parts = np.split(dst[pos], bounds[1:-1])
    score_parts = np.split(sc[pos], bounds[1:-1])
    one = np.ones(1, dtype=np.float64)
    return [
        Group(leader, np.concatenate(([leader], m)).astype(np.int64), np.concatenate((one, s)))
        for leader, m, s in zip(leaders, member_parts, score_parts)
    ]


def component_groups(n: int, i, j, score, lengths, cannot_link=None) -> list[Group]:
    """One group per connected component of the edges, led by its hub.

    The principal of a component is the document with the most distinct neighbours (ties:
    the longer document, then the lower index): in a chain of partial copies the source is
    usually the one every copy touches, and it need not be the longest. ``members`` starts
    with the principal (score 1.0), then its direct neighbours by descending score, then the
    documents reached only through others (score NaN: no edge to the principal), by index.
    Repeated edges keep their highest score. Groups come out by their smallest member.
    """
    i, j, score, lengths, labels = _component_edges(n, i, j, score, lengths, cannot_link)
    if i.shape[0] == 0:
        return []
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    order = np.lexsort((-score, hi, lo))  # per distinct edge, the highest score first
    lo, hi, score = lo[order], hi[order], score[order]
    first = np.ones(lo.shape[0], dtype=bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    lo, hi, score = lo[first], hi[first], score[first]
    degree = np.bincount(np.concatenate((lo, hi)), minlength=n)
    nodes = np.flatnonzero(degree)
    # Per component the best hub: sort by (label, -degree, -length, index), take the first.
    ranked = nodes[np.lexsort((nodes, -lengths[nodes], -degree[nodes], labels[nodes]))]
    lab = labels[ranked]
    starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
    principal_of = np.full(n, -1, dtype=np.int64)  # by component label
    principal_of[lab[starts]] = ranked[starts]
    to_principal = np.full(n, np.nan)
    for a, b in ((lo, hi), (hi, lo)):
        direct = principal_of[labels[a]] == a
        to_principal[b[direct]] = score[direct]
    groups = []
    bounds = np.r_[starts, ranked.shape[0]].tolist()
    for m in range(starts.shape[0]):
        p = int(ranked[bounds[m]])  # ranked puts each component's hub first
        others = ranked[bounds[m] + 1 : bounds[m + 1]]
        s = to_principal[others]
        direct = ~np.isnan(s)
        d_order = np.lexsort((others[direct], -s[direct]))
        members = np.concatenate(([p], others[direct][d_order], np.sort(others[~direct]))).astype(np.int64)
        scores = np.concatenate(([1.0], s[direct][d_order], np.full(int((~direct).sum()), np.nan)))
        groups.append(Group(p, members, scores))
    groups.sort(key=lambda g: int(g.members.min()))
    return groups


def group_labels(groups: list[Group], n: int) -> np.ndarray:
    """Group index of each of ``n`` documents (int64), -1 for documents in no group."""
    labels = np.full(n, -1, dtype=np.int64)
    for k, g in enumerate(groups):
        labels[g.members] = k
    return labels
