"""The edges groups are formed from at a threshold: the pairs at it, with the reviewer's
verdicts and the rule for texts cut at the size limit applied, over a prepared pair graph.

Pairs at or above the threshold are edges, strongest first (then by their documents); a
reviewer's "not duplicate" removes its pair and becomes a cannot-link constraint; a
reviewer's "duplicate" is an edge whatever its score (its stored score, or 1.0 when none was
stored; as a link between two members it has no value then). A document whose text was cut
at the size limit joins others only through a file of the very same bytes, unless a
reviewer joined them.

An edge joins a group both ways, but it lets a kept document cover (stand in for, at export)
the other only where that other is found in it (``a_covers_b``, ``b_covers_a``): at least
:data:`COVERED_SHARE` of it, and the threshold. A pair whose smaller share reaches both
(every pair at a threshold of 0.5 or more when the score is the smaller share, the default)
has each text found in the other, so it covers both ways, with one exception. A pair at the
threshold through its larger share (``measure=containment``, or the grouping's measure
"containment") covers only the document of which that much is found in the other: a letter
quoted in a report is covered by the report, never the report by the letter. So does a pair
at a threshold below half with the default score: at 0.3, two texts with a third of each in
the other group together, and neither stands in for the other. A reviewer's "duplicate" below
the threshold covers where that holds, and else the more contained of the two (both ways
when no shares are stored). The exception: a document that lies wholly in the other
(:data:`WHOLE_SHARE` of it) never stands in for that other when the other has text of its
own beyond it (:data:`OWN_MARGIN` more of it is its own: a reply that quotes the message
it answers, a book and its abridged edition): keeping the container loses nothing,
keeping the contained one loses the container's own text.

Everything is over the graph's positions; the verdicts (few) are the only Python loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .pair_graph import PairGraph

_BIG = np.iinfo(np.int64).max  # the place of a pair that is not stored
#: The share of a document that must be found in a kept one for it to be left out as its
#: duplicate, whatever the measure and threshold: half of it, the "same document" default
#: (``core.text_share.DEFAULT_SHARE``); a lower threshold groups partial copies (from a fifth
#: with containment), which an export keeps.
COVERED_SHARE = 0.5
#: A document this much of which is found in the other lies wholly in it (edits of a few
#: words aside): it never stands in for an other that has text of its own beyond it.
WHOLE_SHARE = 0.95
#: ... when at least this much more of the other is its own (two near copies that each
#: hold a line the other lacks, 0.95 and 0.94 of each in the other, still cover both ways).
OWN_MARGIN = 0.05
_EPS = 1e-9  # a score stored as the smaller share equals it; this much below still counts as equal


@dataclass(frozen=True)
class Edges:
    """The edges at a threshold, in order of value descending then positions: endpoints
    ``a`` and ``b`` (positions in the graph), ``value`` (what forms the groups), ``link``
    (the value a link between two members shows: NaN for a reviewer's join of a pair with
    no stored score), ``a_covers_b`` and ``b_covers_a`` (whether a kept ``a`` may leave
    ``b`` out as its duplicate, and the other way); ``present`` (per position: a document of
    a pair at the threshold or of a join, grouped or not), ``cut`` (those of them whose text
    was cut) and ``cannot`` (the reviewer's "not duplicate" pairs, an (m, 2) array of
    positions)."""

    a: np.ndarray
    b: np.ndarray
    value: np.ndarray
    link: np.ndarray
    a_covers_b: np.ndarray
    b_covers_a: np.ndarray
    present: np.ndarray
    cut: np.ndarray
    cannot: np.ndarray


#: The two shares ``(a in b, b in a)`` of document pairs given by id, from their texts: for
#: a reviewer's "duplicate" on a pair that has no stored score (``pipeline.grouping``).
SharesOf = Callable[[np.ndarray, np.ndarray], "tuple[np.ndarray, np.ndarray]"]


def edges_at(graph: PairGraph, measure: str, threshold: float, verdicts: dict[tuple[int, int], str],
             shares_of: SharesOf | None = None) -> Edges:
    """The edges of ``graph`` at ``threshold`` under ``measure``, with ``verdicts`` ((a, b)
    with a < b -> "duplicate" or "not_duplicate") applied; see the module docstring.
    ``shares_of`` gives the shares of a reviewer's join whose pair has no stored score
    (None: such a join covers both ways)."""
    n = graph.n
    by = graph.by_value(measure)
    top = by.count_at(threshold)  # the pairs at the threshold are the first top, best first
    ea, eb, ev = by.a_pos[:top], by.b_pos[:top], by.sorted[:top]
    pi = by.order[:top]  # the index of each edge's pair in the pair arrays (-1: a join of none)
    with np.errstate(invalid="ignore"):  # the edges that may cover one way only
        low = _one_way(by.smaller_share[:top], by.larger_share[:top], threshold)
    present = np.zeros(n, dtype=bool)
    present[ea[ea >= 0]] = True
    present[eb[eb >= 0]] = True
    keep = (ea >= 0) & (eb >= 0)  # both documents still there
    dup = np.zeros(top, dtype=bool)  # joined by a reviewer's "duplicate"
    cannot: list[tuple[int, int]] = []
    # (value, a, b, link, pair index, looked at for its directions) of the joins below the threshold
    extra: list[tuple[float, int, int, float, int, bool]] = []
    if verdicts:
        pairs = list(verdicts.items())
        va = np.asarray([a for (a, _), _ in pairs], dtype=np.int64)
        vb = np.asarray([b for (_, b), _ in pairs], dtype=np.int64)
        idx = graph.pair_index(va, vb)
        # place among the pairs by value (none: a pair set may hold no pair at all)
        at = (np.where(idx >= 0, by.place[np.maximum(idx, 0)], _BIG) if by.place.shape[0]
              else np.full(idx.shape[0], _BIG, dtype=np.int64))
        xs, ys = graph.positions(va).tolist(), graph.positions(vb).tolist()
        for (_, verdict), k, x, y, p in zip(pairs, idx.tolist(), xs, ys, at.tolist()):
            if verdict == "not_duplicate":
                if p < top:
                    keep[p] = False
                if x >= 0 and y >= 0:
                    cannot.append((x, y))
            elif verdict == "duplicate":
                if p < top:
                    dup[p] = True
                    continue
                if x >= 0 and y >= 0:
                    stored = float(by.value[k]) if k >= 0 else math.nan
                    extra.append((1.0 if k < 0 else stored, x, y, stored, k,
                                  k < 0 or bool(_one_way(by.smaller_share[by.place[k]],
                                                         by.larger_share[by.place[k]], threshold))))
                present[[z for z in (x, y) if z >= 0]] = True
    cut = graph.truncated & present
    if not keep.all():
        ea, eb, ev, dup, pi, low = ea[keep], eb[keep], ev[keep], dup[keep], pi[keep], low[keep]
    link = ev
    if extra:
        ea, eb, ev, link, dup, pi, low = _merge(n, ea, eb, ev, dup, pi, low, extra)
    if cut.any():
        touch = np.flatnonzero((cut[ea] | cut[eb]) & ~dup)
        ids, docs = graph.ids, graph.docs
        drop = [k for k, a, b in zip(touch.tolist(), ids[ea[touch]].tolist(), ids[eb[touch]].tolist())
                if docs[a].sha256 != docs[b].sha256]
        if drop:
            ok = np.ones(ea.shape[0], dtype=bool)
            ok[drop] = False
            ea, eb, ev, link, dup, pi, low = ea[ok], eb[ok], ev[ok], link[ok], dup[ok], pi[ok], low[ok]
    a_covers_b, b_covers_a = _directions(graph, threshold, ea, eb, ev, pi, dup, low, shares_of)
    return Edges(ea, eb, ev, link, a_covers_b, b_covers_a, present, cut,
                 np.asarray(cannot, dtype=np.int64).reshape(-1, 2))


def _directions(graph: PairGraph, threshold: float, ea: np.ndarray, eb: np.ndarray, ev: np.ndarray,
                pi: np.ndarray, dup: np.ndarray, low: np.ndarray,
                shares_of: SharesOf | None) -> tuple[np.ndarray, np.ndarray]:
    """Per edge, whether a kept ``a`` covers ``b`` and the other way (the module docstring).
    Only the edges flagged ``low`` are looked at (:func:`_one_way`, or a join with no stored
    pair): the others have each text found in the other at the threshold's share, and
    neither lies wholly in the other beside text of the other's own."""
    m = ea.shape[0]
    a_covers_b, b_covers_a = np.ones(m, dtype=bool), np.ones(m, dtype=bool)
    k = np.flatnonzero(low)
    if k.shape[0] == 0:
        return a_covers_b, b_covers_a
    a_in_b, b_in_a = np.full(k.shape[0], np.nan), np.full(k.shape[0], np.nan)
    pa, idx = graph.arrays, pi[k]
    stored = np.flatnonzero(idx >= 0)
    if stored.shape[0]:
        at = idx[stored]
        same = graph.ids[ea[k[stored]]] == pa.a[at]  # the edge's a is the stored pair's a
        a_in_b[stored] = np.where(same, pa.cont_ab[at], pa.cont_ba[at])
        b_in_a[stored] = np.where(same, pa.cont_ba[at], pa.cont_ab[at])
    unstored = np.flatnonzero((idx < 0) & dup[k])
    if unstored.shape[0] and shares_of is not None:
        a_in_b[unstored], b_in_a[unstored] = shares_of(graph.ids[ea[k[unstored]]], graph.ids[eb[k[unstored]]])
    need = max(threshold, COVERED_SHARE)
    joined = dup[k]
    with np.errstate(invalid="ignore"):
        smaller = np.fmin(a_in_b, b_in_a)
        # each text found in the other at the threshold's share and at half of it (the value
        # says the first only when it is the smaller share; neither says the second below 0.5)
        both = smaller >= need - _EPS
        # b may be left out for a: enough of b is in a, and a does not lie wholly in b
        # beside text of b's own (a share not known covers, as before)
        enough_b = both | (b_in_a >= need) | (joined & (b_in_a >= a_in_b))
        enough_a = both | (a_in_b >= need) | (joined & (a_in_b >= b_in_a))
        a_inside_b = (a_in_b >= WHOLE_SHARE) & (b_in_a <= a_in_b - OWN_MARGIN)
        b_inside_a = (b_in_a >= WHOLE_SHARE) & (a_in_b <= b_in_a - OWN_MARGIN)
        a_covers_b[k] = np.isnan(b_in_a) | (enough_b & ~a_inside_b)
        b_covers_a[k] = np.isnan(a_in_b) | (enough_a & ~b_inside_a)
    return a_covers_b, b_covers_a


def _one_way(smaller, larger, threshold: float):
    """Whether a pair with these shares may cover one way only: its smaller share is below
    the threshold or below :data:`COVERED_SHARE` (whatever the pair's value: the larger share
    with containment), or one text lies wholly in the other beside text of the other's own."""
    return ((smaller < max(threshold, COVERED_SHARE) - _EPS)
            | ((larger >= WHOLE_SHARE) & (smaller <= larger - OWN_MARGIN)))


def may_stand_in(left_in_kept: float | None, kept_in_left: float | None, threshold: float) -> bool:
    """Whether a kept document may stand in for another (leave it out as its duplicate),
    given the share of the other found in the kept one and the share of the kept one found
    in the other: the rule of :func:`_directions` for one pair (``None``: no share stored,
    e.g. a reviewer's join, which stands in as before). For the leave-outs an export adds
    beyond its groups (covered folders), so that they follow the groups' rule."""
    if left_in_kept is None or math.isnan(left_in_kept):
        return True
    if left_in_kept < max(threshold, COVERED_SHARE) - _EPS:
        return False
    if kept_in_left is None or math.isnan(kept_in_left):
        return True
    return not (kept_in_left >= WHOLE_SHARE and left_in_kept <= kept_in_left - OWN_MARGIN)


def _merge(n: int, ea: np.ndarray, eb: np.ndarray, ev: np.ndarray, dup: np.ndarray, pi: np.ndarray,
           low: np.ndarray, extra: list[tuple[float, int, int, float, int, bool]]):
    """The edges with the joins below the threshold put in their places (value descending,
    then positions): ``(a, b, value, link, dup, pair index, low)``."""
    extra.sort(key=lambda e: (-e[0], e[1], e[2]))
    codes = ea * n + eb
    neg = -ev
    at = []
    for v, a, b, _, _, _ in extra:
        lo = int(np.searchsorted(neg, -v, side="left"))
        hi = int(np.searchsorted(neg, -v, side="right"))
        at.append(lo + int(np.searchsorted(codes[lo:hi], a * n + b)))
    xa = np.asarray([e[1] for e in extra], dtype=np.int64)
    xb = np.asarray([e[2] for e in extra], dtype=np.int64)
    xv = np.asarray([e[0] for e in extra], dtype=np.float64)
    xl = np.asarray([e[3] for e in extra], dtype=np.float64)
    xi = np.asarray([e[4] for e in extra], dtype=np.int64)
    xlow = np.asarray([e[5] for e in extra], dtype=bool)
    return (np.insert(ea, at, xa), np.insert(eb, at, xb), np.insert(ev, at, xv), np.insert(ev, at, xl),
            np.insert(dup, at, True), np.insert(pi, at, xi), np.insert(low, at, xlow))
