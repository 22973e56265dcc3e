"""Which members of a group to keep so that every one left out duplicates something kept.

A group formed by chaining (A like B, B like C, A not like C) is one group to browse, but
keeping A alone would drop C, which duplicates nothing that was kept. The keepers of a group
are therefore chosen greedily: take the first document in keeper order, set aside the
members it is directly linked to, then take the first of the rest in the same order, and so
on until every member is a keeper or directly linked to one. This is the classic greedy
dominating set of the group's graph, in the order the keeper rule gives, so the keeper rule
still decides which version is kept first and the extra keepers are the ones it would have
preferred among what is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence


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
        links: ``links[x][y]``: the value of the direct link x-y (symmetric); members
            with no entry have no links.
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
