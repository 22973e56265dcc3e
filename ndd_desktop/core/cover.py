"""Which members of a group to keep so that every one left out duplicates something kept.

A group formed by chaining (A like B, B like C, A not like C) is one group to browse, but
keeping A alone would drop C, which duplicates nothing that was kept. The keepers of a group
are therefore chosen greedily: take the first document in keeper order, set aside the
members it is directly linked to, then take the first of the rest in the same order, and so
on until every member is a keeper or directly linked to one. This is the classic greedy
dominating set of the group's graph, in the order the keeper rule gives, so the keeper rule
still decides which version is kept first and the extra keepers are the ones it would have
preferred among what is left.

A link may cover one way only. A letter quoted whole in a report is a duplicate of the
report, but the report is not one of the letter: most of it is in no letter. So a link says
in which directions a kept document covers the other (``pipeline.group_edges`` decides from
the two shares), and a member that no keeper may cover is kept itself.

:func:`choose_keepers` covers one group given as Python mappings; :func:`cover_groups` covers
every group of a grouping at once, over arrays (a compiled loop, ``core.cover_kernel``), with
the same result group by group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

import numpy as np


@dataclass(frozen=True)
class Cover:
    """The keepers of one group and, for every other member, the keeper that covers it.

    ``keepers`` are in the order they were chosen (the group's keeper first);
    ``covered_by`` maps a left-out member to ``(keeper, value)``: the kept document it is
    directly linked to with the highest value (``None`` where the link has no value, as
    with a reviewer's "duplicate" on a pair that has no stored score).
    """

    keepers: tuple[int, ...]
    covered_by: dict[int, tuple[int, float | None]]


def choose_keepers(
    order: Sequence[int],
    links: Mapping[int, Mapping[int, float | None]],
    fixed: Iterable[int] = (),
) -> Cover:
    """Keep the fewest members, greedily in ``order``, so that every member is kept or linked to a keeper.

    Args:
        order: the members, best keeper first (the keeper rule's order).
        links: ``links[x][y]``: the value of the direct link by which a kept x covers y
            (an undirected link is given both ways); members with no entry cover nothing.
        fixed: members kept whatever their links (a reviewer's keepers, reference
            documents that are never left out), taken first in ``order``'s order.
    """
    rank = {m: k for k, m in enumerate(order)}
    keepers: list[int] = []
    kept: set[int] = set()
    best: dict[int, tuple[int, float | None]] = {}
    open_ = set(order)

    def keep(k: int) -> None:
        keepers.append(k)
        kept.add(k)
        open_.discard(k)
        best.pop(k, None)
        for m, v in links.get(k, {}).items():
            if m not in rank or m in kept:
                continue
            open_.discard(m)
            held = best.get(m)
            if held is None or _better(v, held[1]):
                best[m] = (k, v)

    for k in sorted(set(fixed) & rank.keys(), key=rank.__getitem__):
        keep(k)
    for m in order:
        if m in open_:
            keep(m)
    return Cover(tuple(keepers), best)


def _better(v: float | None, held: float | None) -> bool:
    if v is None:
        return False
    return held is None or v > held


@dataclass(frozen=True)
class CoverArrays:
    """The covers of many groups: group k's keepers, in the order chosen, are
    ``kept[kept_offsets[k]:kept_offsets[k + 1]]``; per document, the keeper covering it
    (``covered_by``, -1: none: a keeper, or in no group), the value of that link
    (``value``, NaN: a link without a value) and the number of its first cover
    (``sequence``: the order :attr:`Cover.covered_by` would list it in)."""

    kept_offsets: np.ndarray
    kept: np.ndarray
    covered_by: np.ndarray
    value: np.ndarray
    sequence: np.ndarray

    def cover(self, group: int, members: np.ndarray) -> Cover:
        """Group ``group`` (of ``members``) as a :class:`Cover`, with Python ints and floats
        (None for a link without a value)."""
        kept = self.kept[self.kept_offsets[group]:self.kept_offsets[group + 1]]
        covered = members[self.covered_by[members] >= 0]
        covered = covered[np.argsort(self.sequence[covered], kind="stable")]
        values = self.value[covered].tolist()
        return Cover(tuple(kept.tolist()), {m: (k, None if math.isnan(v) else v) for m, k, v in
                                            zip(covered.tolist(), self.covered_by[covered].tolist(), values)})


def cover_groups(n: int, offsets, members, rank, first, fixed, link_a, link_b, link_value,
                 a_covers_b=None, b_covers_a=None) -> CoverArrays:
    """The keepers of every group ``members[offsets[k]:offsets[k + 1]]`` (documents ``< n``),
    as :func:`choose_keepers` would choose them group by group.

    Args:
        rank: per document, its place in the keeper order (smaller first; distinct within a
            group).
        first: per group, the member taken first in the order (the group's keeper); the
            rest follow by ``rank``.
        fixed: per document (bool), kept whatever its links.
        link_a, link_b, link_value: the direct links, one per pair (value NaN: a link
            without a value); links between two groups are ignored.
        a_covers_b, b_covers_a: per link (bool), whether a kept ``link_a`` covers
            ``link_b`` and the other way; None: every link covers both ways.
    """
    from . import cover_kernel

    offsets = np.asarray(offsets, dtype=np.int64)
    members = np.asarray(members, dtype=np.int64)
    first = np.asarray(first, dtype=np.int64)
    rank = np.asarray(rank, dtype=np.int64)
    fixed = np.asarray(fixed, dtype=np.bool_)
    if rank.shape[0] != n or fixed.shape[0] != n or first.shape[0] != offsets.shape[0] - 1:
        raise ValueError("rank and fixed need n entries and first one per group")
    if first.shape[0]:
        group_of = np.full(n, -1, dtype=np.int64)
        group_of[members] = np.repeat(np.arange(first.shape[0]), np.diff(offsets))
        if (group_of[first] != np.arange(first.shape[0])).any():
            raise ValueError("each group's first member must be one of its members")
    link_a = np.asarray(link_a, dtype=np.int64)
    m = link_a.shape[0]
    a_covers_b = np.ones(m, dtype=np.bool_) if a_covers_b is None else np.asarray(a_covers_b, dtype=np.bool_)
    b_covers_a = np.ones(m, dtype=np.bool_) if b_covers_a is None else np.asarray(b_covers_a, dtype=np.bool_)
    if a_covers_b.shape[0] != m or b_covers_a.shape[0] != m:
        raise ValueError("a_covers_b and b_covers_a need one entry per link")
    loops = cover_kernel.functions(n + m)
    start, other, val = loops.link_lists(n, link_a, np.asarray(link_b, dtype=np.int64),
                                         np.asarray(link_value, dtype=np.float64), a_covers_b, b_covers_a)
    return CoverArrays(*loops.cover_groups(n, offsets, members, rank, first, fixed, start, other, val))
