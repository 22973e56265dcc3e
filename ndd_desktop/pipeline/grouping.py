"""Groups of near-duplicates at a threshold, with the document to keep in each.

Shared by the command line, the window and the export so that all three agree on what a
group is. Pairs at or above the threshold are edges, strongest first; a reviewer's
"not duplicate" is a cannot-link constraint (that pair never ends in one group) and a
reviewer's "duplicate" is an edge whatever its score.

Two ways to form groups (``grouping``):

* ``"components"`` (the default): one group per connected component, led by its hub (the
  document with the most direct links). Partial copies of one source that share nothing with
  each other meet in the source's group; members linked only through others are shown with
  their stored score to the principal (below the threshold) or none when it was below the
  floor. Measured on labelled collections in docs/quality.md.
* ``"principal"``: the longest document leads a group of the documents directly similar to
  it (``core.clustering.principal_groups``), so every member is similar to its principal.

The work is done over arrays (``pipeline.pair_graph``: the pair set and its documents as
columns; ``pipeline.group_edges``: the edges at the threshold with the verdicts applied;
``core.clustering``'s and ``core.cover``'s compiled loops: every group, keeper and cover at
once), and the groups come back as a ``pipeline.group_list.GroupList``, which makes each
``DocGroup`` when it is read: a regrouping of 50,000 groups costs tens of milliseconds, not
seconds.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..core.clustering import (
    GroupArrays,
    component_group_arrays,
    principal_group_arrays,
)
from ..core.cover import CoverArrays, cover_groups
from ..core.unique import sorted_unique
from ..store import DocumentInfo, PairArrays, Store
from .group_edges import edges_at
from .group_list import GroupList
from .join_shares import shares_from_texts
from .group_rules import GROUPINGS, KEEPER_RULES  # noqa: F401 - the names, as before
from .pair_graph import PairGraph

MEASURES = ("score", "containment")


@dataclass(frozen=True)
class DocGroup:
    """One group: its principal, members (principal first), score to the principal, keeper,
    and whether each member is directly similar to the principal.

    ``keepers``: every member an export keeps, the group's keeper first, then the extra
    keepers a chained group needs (see :mod:`ndd_desktop.core.cover`); ``covered_by`` maps
    each member left out to the kept document it duplicates directly and their score (or
    None for a reviewer's "duplicate" on a pair with no stored score); ``to_keeper``: each
    member's stored score with the keeper (None: below the floor). ``group_id`` counts from
    1 in the order the groups were formed.
    """

    group_id: int
    principal: int
    members: list[int]
    scores: dict[int, float | None]  # None: no stored pair with the principal (below the floor)
    keeper: int
    direct: dict[int, bool] = field(default_factory=dict)  # False: linked only through others
    keepers: tuple[int, ...] = ()
    covered_by: dict[int, tuple[int, float | None]] = field(default_factory=dict)
    to_keeper: dict[int, float | None] = field(default_factory=dict)

    def linked(self, member: int) -> bool:
        """Whether ``member`` is directly similar to the principal (not only through others)."""
        return self.direct.get(member, True)

    @property
    def left_out(self) -> list[int]:
        """The members an export leaves out, in member order: each duplicates a keeper directly."""
        return [m for m in self.members if m in self.covered_by]

    def is_extra_keeper(self, member: int) -> bool:
        """Whether ``member`` is kept besides the group's keeper (nothing kept covers it)."""
        return member != self.keeper and member in self.keepers


@dataclass(frozen=True)
class Grouping:
    """The groups at one threshold; ``left_out``: documents with an edge but in no group
    (kept apart by a reviewer's "not duplicate"); ``partial``: documents kept out of every
    group because their text was truncated (compared on a prefix only) and no document of
    the same bytes matched them; ``pair_count``: the edges used."""

    groups: Sequence[DocGroup]  # a GroupList from groups_at; any list of DocGroup will do
    left_out: set[int] = field(default_factory=set)
    pair_count: int = 0
    partial: set[int] = field(default_factory=set)

    def group(self, group_id: int) -> DocGroup | None:
        """The group with ``group_id``, or None (a GroupList finds its row without making
        the groups before it)."""
        row_of = getattr(self.groups, "row_of", None)
        if row_of is not None:
            row = row_of(group_id)
            return None if row is None else self.groups[row]
        return next((g for g in self.groups if g.group_id == group_id), None)

    def member_count(self) -> int:
        """The documents in all groups."""
        count = getattr(self.groups, "member_count", None)
        return count() if count is not None else sum(len(g.members) for g in self.groups)

    def covered_count(self) -> int:
        """The members an export leaves out, over all groups (each duplicates a keeper)."""
        count = getattr(self.groups, "covered_count", None)
        return count() if count is not None else sum(len(g.covered_by) for g in self.groups)


def _date(d: DocumentInfo) -> float:
    return d.date if d.date is not None and not math.isnan(d.date) else math.inf


def _under(path: str, folder: str) -> bool:
    folder = folder.rstrip("/\\")
    return path == folder or path.startswith(folder + os.sep) or path.startswith(folder + "/")


def keeper_key(rule: str, folder_priority: Sequence[str] = (),
               version_rank: dict[int, int] | None = None) -> Callable[[DocumentInfo], tuple]:
    """The sort key that puts the document to keep first under ``rule``.

    ``latest`` keeps the last version written: the highest place in ``version_rank``
    (document id -> place in its group's version order, ``pipeline.lineage``), then the
    newest date. Documents alike under the rule go by root, then path there: the same
    keeper in every scan of the same files (a document's id follows the order in which
    the extraction workers finished with it, which differs between two fresh scans).

    Raises:
        ValueError: an unknown rule.
    """
    if rule == "reference-oldest":
        return lambda d: (not d.reference, _date(d), d.root, d.relpath, d.id)
    if rule == "oldest":
        return lambda d: (_date(d), d.root, d.relpath, d.id)
    if rule == "newest":
        return lambda d: (-_date(d) if _date(d) != math.inf else math.inf, d.root, d.relpath, d.id)
    if rule == "longest":
        return lambda d: (-d.text_length, _date(d), d.root, d.relpath, d.id)
    if rule == "folder-priority":
        folders = [os.path.abspath(f) for f in folder_priority]

        def rank(d: DocumentInfo) -> tuple:
            path = os.path.join(d.root, *d.relpath.split("/"))
            pos = next((k for k, f in enumerate(folders) if _under(path, f)), len(folders))
            return (pos, not d.reference, _date(d), d.root, d.relpath, d.id)

        return rank
    if rule == "latest":
        ranks = version_rank or {}
        return lambda d: (-ranks.get(d.id, 0), -_date(d) if _date(d) != math.inf else math.inf, d.root,
                          d.relpath, d.id)
    raise ValueError(f"unknown keeper rule {rule!r} (known: {', '.join(KEEPER_RULES)})")


def load_kernels(pairs: int | None = None) -> None:
    """Load the compiled loops a large grouping runs (numba's import and its cache: about a
    second, once per process) now rather than in the first grouping; the window does it on a
    worker once it has read a pair set. ``pairs``: the size of that pair set; one too small to
    need them (its groups are formed by the same loops as plain Python) loads nothing."""
    from ..core import clustering_kernel, cover_kernel

    if pairs is not None and 3 * pairs < clustering_kernel.SMALL:
        return
    clustering_kernel.load()
    cover_kernel.load()


def groups_at(
    store: Store,
    method: str,
    pairs_key: str,
    threshold: float,
    *,
    measure: str = "score",
    keeper_rule: str = "reference-oldest",
    folder_priority: Sequence[str] = (),
    grouping: str = "components",
    arrays: PairArrays | None = None,
    docs: dict[int, DocumentInfo] | None = None,
    graph: PairGraph | None = None,
) -> Grouping:
    """Group the stored pairs of (method, pairs_key) at ``threshold``.

    ``measure`` is "score" (the method's score) or "containment" (the larger of the two
    containments; the score where the method has none). A reviewer's keeper choice in a
    group wins over ``keeper_rule``. ``grouping`` is "components" or "principal" (see the
    module docstring). ``arrays``: the pair set already read with ``store.pair_arrays``
    (the window keeps it, so moving the threshold does not read it again); ``docs``: documents
    already read, by id (the rest are read from the store); ``graph``: both already prepared
    (``pipeline.pair_graph.PairGraph``; the window keeps one per pair set, so a regrouping
    redoes only what depends on the threshold).

    Raises:
        ValueError: an unknown measure, grouping or keeper rule.
    """
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r} (known: {', '.join(MEASURES)})")
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r} (known: {', '.join(GROUPINGS)})")
    keeper_key(keeper_rule, folder_priority)  # an unknown rule raises before anything is read
    verdicts = store.review.verdicts()
    if graph is None:
        pa = arrays if arrays is not None else store.pairs.arrays(method, pairs_key)
        graph = _graph_at(store, pa, docs, measure, threshold, verdicts)
    named = {x for pair in verdicts for x in pair}
    if named:
        unknown = sorted(x for x, p in zip(sorted(named), graph.positions(sorted(named)).tolist()) if p < 0)
        found = store.documents.all(unknown) if unknown else []
        if found:  # documents of a verdict the graph does not hold: a graph with them too
            graph = PairGraph(graph.arrays, {**graph.docs, **{d.id: d for d in found}})
    return _group(store, graph, float(threshold), measure, keeper_rule, tuple(folder_priority), grouping, verdicts)


def _graph_at(store: Store, pa: PairArrays, docs: dict[int, DocumentInfo] | None, measure: str,
              threshold: float, verdicts: dict[tuple[int, int], str]) -> PairGraph:
    """A graph of the pairs with the documents of those at ``threshold`` and of the verdicts
    (the others cannot become edges), reading from the store those ``docs`` lacks."""
    value = PairGraph(pa, {}).by_value(measure).value
    keep = value >= threshold
    wanted = sorted_unique(np.concatenate((pa.a[keep], pa.b[keep],
                                           np.asarray([x for pair in verdicts for x in pair], dtype=np.int64))))
    known = docs or {}
    have = {i: known[i] for i in wanted.tolist() if i in known}
    missing = [i for i in wanted.tolist() if i not in have]
    if missing:
        have.update((d.id, d) for d in store.documents.all(missing))
    return PairGraph(pa, have)


_BIG = np.iinfo(np.int64).max  # a rank above every document's


def _group(store: Store, graph: PairGraph, threshold: float, measure: str, keeper_rule: str,
           folder_priority: tuple[str, ...], grouping: str, verdicts: dict[tuple[int, int], str]) -> Grouping:
    """groups_at over a prepared graph; see there."""
    n = graph.n
    e = edges_at(graph, measure, threshold, verdicts, shares_from_texts(store, graph.docs))
    ea, eb, ev, link, present, cut, cannot = e.a, e.b, e.value, e.link, e.present, e.cut, e.cannot
    value = graph.by_value(measure).value
    if not present.any():
        return Grouping(GroupList(graph, value, _no_groups(), np.empty(0, dtype=np.int64), _no_cover(n)), set(), 0)
    cl = cannot if len(cannot) else None
    if grouping == "components":  # edges of distinct stored pairs, and joins of pairs not among them
        groups = component_group_arrays(n, ea, eb, ev, graph.length, cl, distinct=graph.distinct)
    else:
        groups = principal_group_arrays(n, ea, eb, ev, graph.length, cl, by_length=graph.by_length())
    sizes = np.diff(groups.offsets)
    rank = graph.rank(keeper_rule)
    if rank is None:
        rank = _rank_by_key(store, graph, groups, keeper_rule, folder_priority)
    chosen = np.zeros(n, dtype=bool)
    chosen_pos = graph.positions(sorted(store.review.keepers()))
    chosen[chosen_pos[chosen_pos >= 0]] = True
    keepers = _keepers(groups, rank, chosen)
    fixed = chosen.copy()
    fixed[keepers] = True
    # a reference keeper never leaves out another reference document
    fixed[groups.members] |= graph.reference[groups.members] & np.repeat(graph.reference[keepers], sizes)
    # every edge is a link; those between two groups (or out of any) are ignored by the cover
    cover = cover_groups(n, groups.offsets, groups.members, rank, keepers, fixed, ea, eb, link,
                         e.a_covers_b, e.b_covers_a)
    grouped = np.zeros(n, dtype=bool)
    grouped[groups.members] = True
    partial = cut & ~grouped
    # kept apart by a verdict: a document of a "not duplicate" pair that is in no group (one
    # linked only to members other than the principal, under the grouping around the
    # principal, is in no group by that grouping's own rule: the window said "kept apart by
    # your verdicts" of it with no verdict stored)
    in_verdict = np.zeros(n, dtype=bool)
    if len(cannot):
        both = cannot[present[cannot[:, 0]] & present[cannot[:, 1]]]  # a pair of two documents at the threshold
        in_verdict[both.ravel()] = True
    left_out = present & ~grouped & ~partial & in_verdict
    return Grouping(GroupList(graph, value, groups, keepers, cover), set(graph.ids[left_out].tolist()),
                    int(ea.shape[0]), set(graph.ids[partial].tolist()))


def _keepers(groups, rank: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Each group's keeper (a position): its first member in keeper order among those a
    reviewer chose, else among all."""
    if len(groups) == 0:
        return np.empty(0, dtype=np.int64)
    by_rank = np.empty(rank.shape[0], dtype=np.int64)
    by_rank[rank] = np.arange(rank.shape[0], dtype=np.int64)
    starts = groups.offsets[:-1]
    member_rank = rank[groups.members]
    best = np.minimum.reduceat(member_rank, starts)
    best_chosen = np.minimum.reduceat(np.where(chosen[groups.members], member_rank, _BIG), starts)
    return by_rank[np.where(best_chosen < _BIG, best_chosen, best)]


def _rank_by_key(store: Store, graph: PairGraph, groups, keeper_rule: str,
                 folder_priority: tuple[str, ...]) -> np.ndarray:
    """The keeper order of the rules that look at each document (folder priority, latest
    version): the members sorted by ``keeper_key``, then every other position."""
    version_rank = None
    if keeper_rule == "latest":  # the version order of every group, from their texts
        from .lineage import version_ranks

        bounds = groups.offsets.tolist()
        version_rank = version_ranks(store, [graph.ids[groups.members[lo:hi]].tolist()
                                             for lo, hi in zip(bounds[:-1], bounds[1:])])
    key = keeper_key(keeper_rule, folder_priority, version_rank)
    docs, ids = graph.docs, graph.ids
    members = groups.members.tolist()
    ranked = sorted(members, key=lambda p: key(docs[int(ids[p])]))
    rank = np.empty(graph.n, dtype=np.int64)
    in_group = np.zeros(graph.n, dtype=bool)
    in_group[members] = True
    rest = np.flatnonzero(~in_group)
    rank[np.asarray(ranked, dtype=np.int64)] = np.arange(len(ranked), dtype=np.int64)
    rank[rest] = len(ranked) + np.arange(rest.shape[0], dtype=np.int64)
    return rank


def _no_groups() -> GroupArrays:
    return GroupArrays(np.zeros(1, dtype=np.int64), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64))


def _no_cover(n: int) -> CoverArrays:
    return CoverArrays(np.zeros(1, dtype=np.int64), np.empty(0, dtype=np.int64), np.full(n, -1, dtype=np.int64),
                       np.full(n, np.nan), np.full(n, -1, dtype=np.int64))
