"""Clustering of scored pairs: connected components with cannot-link constraints, and
principal groups that keep chains (A~B~C with A not like C) visible.

Edges arrive as parallel arrays ``i, j`` (and ``score``) of document indices in ``[0, n)``.
Without constraints the components are found by a union-find
(``core.clustering_kernel``, compiled for a large graph); with constraints only the components that hold a cannot-link
pair are replayed edge by edge through a :class:`UnionFind`, so the Python loop runs over
the few edges that need it.

The groups come in two forms: :func:`component_group_arrays` and
:func:`principal_group_arrays` return every group at once as slices of flat arrays
(:class:`GroupArrays`, formed by compiled loops: what the pipeline uses at a million
documents), and :func:`component_groups` and :func:`principal_groups` the same groups as a
list of :class:`Group` objects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .unique import sorted_unique


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


def _roots(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Root (smallest member) of every node's component, by the compiled union-find."""
    from . import clustering_kernel

    return clustering_kernel.functions(n + i.shape[0]).component_roots(n, i, j)


def connected_components(n: int, i, j, cannot_link=None) -> np.ndarray:
    """Component label (int64, 0..k-1 by smallest member) of each of ``n`` documents.

    Edges ``(i[k], j[k])`` are merged in the given order (pass them sorted by score,
    highest first); a merge that would put a pair of ``cannot_link`` (an ``(m, 2)`` array)
    into one component is skipped. Documents without edges are components of one.
    """
    i, j = _as_edges(n, i, j)
    return _compact(_component_ids(n, i, j, cannot_link))


def _component_ids(n: int, i: np.ndarray, j: np.ndarray, cannot_link) -> np.ndarray:
    """A component id in ``[0, 2n)`` per document (not compact; see connected_components)."""
    roots = _roots(n, i, j)
    cl = _cannot_link_array(n, cannot_link)
    if cl.shape[0] == 0:
        return roots
    # Only components holding a cannot-link pair depend on the edge order: replay those.
    conflicted = sorted_unique(roots[cl[:, 0]][roots[cl[:, 0]] == roots[cl[:, 1]]])
    if conflicted.shape[0] == 0:
        return roots
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
    return final


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


@dataclass(frozen=True)
class GroupArrays:
    """Groups as slices of flat arrays: group k is ``members[offsets[k]:offsets[k + 1]]``,
    principal first, with ``scores`` alongside (as in :class:`Group`)."""

    offsets: np.ndarray  # int64, one more than there are groups
    members: np.ndarray  # int64 document indices
    scores: np.ndarray  # float64; 1.0 for each principal, NaN: no edge to the principal

    def __len__(self) -> int:
        return int(self.offsets.shape[0] - 1)

    def principals(self) -> np.ndarray:
        """The principal of each group."""
        return self.members[self.offsets[:-1]]

    def group_of(self, n: int) -> np.ndarray:
        """Group index of each of ``n`` documents (int64), -1 for documents in no group."""
        labels = np.full(n, -1, dtype=np.int64)
        labels[self.members] = np.repeat(np.arange(len(self), dtype=np.int64), np.diff(self.offsets))
        return labels

    def as_groups(self) -> list[Group]:
        """The groups as :class:`Group` objects."""
        bounds = self.offsets.tolist()
        return [Group(int(self.members[lo]), self.members[lo:hi], self.scores[lo:hi])
                for lo, hi in zip(bounds[:-1], bounds[1:])]


def _no_groups() -> GroupArrays:
    return GroupArrays(np.zeros(1, dtype=np.int64), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64))


def _component_edges(n: int, i, j, score, lengths, cannot_link):
    """Validated edges inside components (self-loops and edges cut by cannot-link dropped),
    with their scores, the lengths (float64) and the component ids (in ``[0, 2n)``)."""
    i, j = _as_edges(n, i, j)
    score = np.asarray(score, dtype=np.float64).reshape(-1)
    lengths = np.asarray(lengths).reshape(-1)
    if score.shape != i.shape or lengths.shape[0] != n:
        raise ValueError("score must match the edges and lengths must have n entries")
    labels = _component_ids(n, i, j, cannot_link)
    keep = (i != j) & (labels[i] == labels[j])
    if not keep.all():
        i, j, score = i[keep], j[keep], score[keep]
    return i, j, score, lengths.astype(np.float64), labels


def principal_group_arrays(n: int, i, j, score, lengths, cannot_link=None, *,
                           by_length: np.ndarray | None = None) -> GroupArrays:
    """Principal groups inside the connected components of the edges, as arrays.

    Within each component the longest unassigned document (ties: lower index) leads a
    group and takes every unassigned document it shares an edge with; repeat until the
    component is used up. A leader that finds no unassigned neighbour forms no group, so
    every group has at least two members and each member has an edge to its principal.
    Members after the principal come by descending score, then index. Edges across
    components (skipped because of ``cannot_link``) are ignored. Repeated edges keep their
    highest score. Groups come out in the order they were formed. ``by_length``: all ``n``
    documents sorted by length descending, then index, when the caller keeps that order.
    """
    from . import clustering_kernel

    i, j, score, lengths, _ = _component_edges(n, i, j, score, lengths, cannot_link)
    if i.shape[0] == 0:
        return _no_groups()
    has_edge = np.zeros(n, dtype=bool)
    has_edge[i] = True
    has_edge[j] = True
    if by_length is None:
        nodes = np.flatnonzero(has_edge)
        nodes = nodes[np.argsort(-lengths[nodes], kind="stable")]  # longest first, then lower index
    else:
        nodes = by_length[has_edge[by_length]]
    loops = clustering_kernel.functions(n + i.shape[0])
    return GroupArrays(*loops.principal_pass(n, i, j, score, nodes))


def principal_groups(n: int, i, j, score, lengths, cannot_link=None) -> list[Group]:
    """:func:`principal_group_arrays` as a list of :class:`Group` objects."""
    return principal_group_arrays(n, i, j, score, lengths, cannot_link).as_groups()


def component_group_arrays(n: int, i, j, score, lengths, cannot_link=None, *, distinct: bool = False) -> GroupArrays:
    """One group per connected component of the edges, led by its hub, as arrays.

    The principal of a component is the document with the most distinct neighbours (ties:
    the longer document, then the lower index): in a chain of partial copies the source is
    usually the one every copy touches, and it need not be the longest. The members start
    with the principal (score 1.0), then its direct neighbours by descending score (then
    index), then the documents reached only through others (score NaN: no edge to the
    principal), by index. Repeated edges keep their highest score (``distinct``: the caller
    knows that no pair of documents has two edges, in either order; they are then not looked
    for, which saves a pass over the edges). Groups come out by their smallest member.
    """
    from . import clustering_kernel

    i, j, score, lengths, labels = _component_edges(n, i, j, score, lengths, cannot_link)
    if i.shape[0] == 0:
        return _no_groups()
    loops = clustering_kernel.functions(n + i.shape[0])
    return GroupArrays(*loops.hub_groups(n, i, j, score, lengths, labels, bool(distinct)))


def component_groups(n: int, i, j, score, lengths, cannot_link=None) -> list[Group]:
    """:func:`component_group_arrays` as a list of :class:`Group` objects."""
    return component_group_arrays(n, i, j, score, lengths, cannot_link).as_groups()


def group_labels(groups: list[Group], n: int) -> np.ndarray:
    """Group index of each of ``n`` documents (int64), -1 for documents in no group."""
    labels = np.full(n, -1, dtype=np.int64)
    for k, g in enumerate(groups):
        labels[g.members] = k
    return labels
