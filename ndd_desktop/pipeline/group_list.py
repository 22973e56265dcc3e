"""The groups of a grouping held as arrays; each ``DocGroup`` is made when it is asked for.

At a million documents a grouping has 50,000 groups; making a ``DocGroup`` with its dicts
for each of them cost more than forming them. A :class:`GroupList` is a sequence of
``DocGroup`` (index it, iterate it, compare it with a list) that keeps the groups, their
keepers and covers as the arrays ``pipeline.grouping.groups_at`` formed them, and makes a
group's ``DocGroup`` the first time it is read (the window reads the rows it shows). What a
view needs of all groups at once (how many documents they hold, how many an export leaves
out, which group holds a document) is answered from the arrays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.clustering import GroupArrays
from ..core.cover import CoverArrays
from .pair_graph import PairGraph


class GroupList(Sequence):
    """The groups at one threshold, by group id (1, 2, ...: row k holds group k + 1)."""

    def __init__(self, graph: PairGraph, value: np.ndarray, groups: GroupArrays, keepers: np.ndarray,
                 cover: CoverArrays):
        self._graph = graph
        self._value = value  # the measure's value of every stored pair
        self._groups = groups  # members as positions in the graph's columns
        self._keepers = keepers  # position of each group's keeper
        self._cover = cover
        self._made: list[Any] = [None] * len(groups)

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[x] for x in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("group row out of range")
        made = self._made[k]
        if made is None:
            made = self._made[k] = self._make(k)
        return made

    def __iter__(self):
        for k in range(len(self)):
            yield self[k]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"GroupList({len(self)} groups)"

    # -- answers from the arrays ------------------------------------------------------------
    def member_ids(self, k: int) -> list[int]:
        """The members of row ``k`` (principal first) without making its ``DocGroup``."""
        g = self._groups
        return self._graph.ids[g.members[g.offsets[k]:g.offsets[k + 1]]].tolist()

    def member_count(self) -> int:
        """The documents in all groups."""
        return int(self._groups.offsets[-1])

    def covered_count(self) -> int:
        """The members an export leaves out, over all groups (each duplicates a keeper)."""
        return int(np.count_nonzero(self._cover.covered_by >= 0))

    def row_of(self, group_id: Any) -> int | None:
        """The row of the group with ``group_id`` (None when there is none)."""
        try:
            row = int(group_id) - 1
        except (TypeError, ValueError):
            return None
        return row if 0 <= row < len(self) else None

    def place_of(self, doc_id: Any) -> tuple[int, int] | None:
        """(row, index in its members) of the group holding ``doc_id``, or None."""
        try:
            pos = int(self._graph.positions([int(doc_id)])[0])
        except (TypeError, ValueError):
            return None
        if pos < 0:
            return None
        g = self._groups
        at = np.flatnonzero(g.members == pos)
        if at.shape[0] == 0:
            return None
        row = int(np.searchsorted(g.offsets, at[0], side="right") - 1)
        return row, int(at[0] - g.offsets[row])

    # -- one group ------------------------------------------------------------------------
    def _make(self, k: int) -> Any:
        from .grouping import DocGroup

        graph, g = self._graph, self._groups
        lo, hi = int(g.offsets[k]), int(g.offsets[k + 1])
        pos = g.members[lo:hi]
        ids = graph.ids[pos]
        members = ids.tolist()
        principal = members[0]
        keeper = int(graph.ids[self._keepers[k]])
        sc = g.scores[lo:hi]
        direct = ~np.isnan(sc)
        to_principal = graph.stored(self._value, ids, np.full(ids.shape[0], principal))
        to_keeper = graph.stored(self._value, ids, np.full(ids.shape[0], keeper))
        scores: dict[int, float | None] = {}
        for m, s, d, p in zip(members, sc.tolist(), direct.tolist(), to_principal.tolist()):
            if d:  # a reviewer's "duplicate" on a pair with no stored score has none
                scores[m] = None if m != principal and math.isnan(p) else s
            else:  # linked through others: its own stored score with the principal, if any
                scores[m] = None if math.isnan(p) else p
        cover = self._cover.cover(k, pos)
        covered_by = {int(graph.ids[m]): (int(graph.ids[c]), v) for m, (c, v) in cover.covered_by.items()}
        return DocGroup(k + 1, principal, members, scores, keeper, dict(zip(members, direct.tolist())),
                        tuple(graph.ids[list(cover.keepers)].tolist()), covered_by,
                        {m: (None if m == keeper or math.isnan(v) else v) for m, v in zip(members, to_keeper.tolist())})
