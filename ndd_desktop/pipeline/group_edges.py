"""The edges groups are formed from at a threshold: the pairs at it, with the reviewer's
verdicts and the rule for texts cut at the size limit applied, over a prepared pair graph.

Pairs at or above the threshold are edges, strongest first (then by their documents); a
reviewer's "not duplicate" removes its pair and becomes a cannot-link constraint; a
reviewer's "duplicate" is an edge whatever its score (its stored score, or 1.0 when none was
stored; as a link between two members it has no value then). A document whose text was cut
at the size limit joins others only through a file of the very same bytes, unless a
reviewer joined them. Everything is over the graph's positions; the verdicts (few) are the
only Python loop.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .pair_graph import PairGraph

_BIG = np.iinfo(np.int64).max  # the place of a pair that is not stored


@dataclass(frozen=True)
class Edges:
    """The edges at a threshold, in order of value descending then positions: endpoints
    ``a`` and ``b`` (positions in the graph), ``value`` (what forms the groups), ``link``
    (the value a link between two members shows: NaN for a reviewer's join of a pair with
    no stored score); ``present`` (per position: a document of a pair at the threshold or
    of a join, grouped or not), ``cut`` (those of them whose text was cut) and ``cannot``
    (the reviewer's "not duplicate" pairs, an (m, 2) array of positions)."""

    a: np.ndarray
    b: np.ndarray
    value: np.ndarray
    link: np.ndarray
    present: np.ndarray
    cut: np.ndarray
    cannot: np.ndarray


def edges_at(graph: PairGraph, measure: str, threshold: float, verdicts: dict[tuple[int, int], str]) -> Edges:
    """The edges of ``graph`` at ``threshold`` under ``measure``, with ``verdicts`` ((a, b)
    with a < b -> "duplicate" or "not_duplicate") applied; see the module docstring."""
    n = graph.n
    by = graph.by_value(measure)
    top = by.count_at(threshold)  # the pairs at the threshold are the first top, best first
    ea, eb, ev = by.a_pos[:top], by.b_pos[:top], by.sorted[:top]
    present = np.zeros(n, dtype=bool)
    present[ea[ea >= 0]] = True
    present[eb[eb >= 0]] = True
    keep = (ea >= 0) & (eb >= 0)  # both documents still there
    dup = np.zeros(top, dtype=bool)  # joined by a reviewer's "duplicate"
    cannot: list[tuple[int, int]] = []
    extra: list[tuple[float, int, int, float]] = []  # (value, a, b, link) of joins below the threshold
    if verdicts:
        pairs = list(verdicts.items())
        va = np.asarray([a for (a, _), _ in pairs], dtype=np.int64)
        vb = np.asarray([b for (_, b), _ in pairs], dtype=np.int64)
        idx = graph.pair_index(va, vb)
        at = np.where(idx >= 0, by.place[np.maximum(idx, 0)], _BIG)  # place among the pairs by value
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
                    extra.append((1.0 if k < 0 else stored, x, y, stored))
                present[[z for z in (x, y) if z >= 0]] = True
    cut = graph.truncated & present
    if not keep.all():
        ea, eb, ev, dup = ea[keep], eb[keep], ev[keep], dup[keep]
    link = ev
    if extra:
        ea, eb, ev, link, dup = _merge(n, ea, eb, ev, dup, extra)
    if cut.any():
        touch = np.flatnonzero((cut[ea] | cut[eb]) & ~dup)
        ids, docs = graph.ids, graph.docs
        drop = [k for k, a, b in zip(touch.tolist(), ids[ea[touch]].tolist(), ids[eb[touch]].tolist())
                if docs[a].sha256 != docs[b].sha256]
        if drop:
            ok = np.ones(ea.shape[0], dtype=bool)
            ok[drop] = False
            ea, eb, ev, link = ea[ok], eb[ok], ev[ok], link[ok]
    return Edges(ea, eb, ev, link, present, cut, np.asarray(cannot, dtype=np.int64).reshape(-1, 2))


def _merge(n: int, ea: np.ndarray, eb: np.ndarray, ev: np.ndarray, dup: np.ndarray,
           extra: list[tuple[float, int, int, float]]):
    """The edges with the joins below the threshold put in their places (value descending,
    then positions): ``(a, b, value, link, dup)``."""
    extra.sort(key=lambda e: (-e[0], e[1], e[2]))
    codes = ea * n + eb
    neg = -ev
    at = []
    for v, a, b, _ in extra:
        lo = int(np.searchsorted(neg, -v, side="left"))
        hi = int(np.searchsorted(neg, -v, side="right"))
        at.append(lo + int(np.searchsorted(codes[lo:hi], a * n + b)))
    xa = np.asarray([e[1] for e in extra], dtype=np.int64)
    xb = np.asarray([e[2] for e in extra], dtype=np.int64)
    xv = np.asarray([e[0] for e in extra], dtype=np.float64)
    xl = np.asarray([e[3] for e in extra], dtype=np.float64)
    return (np.insert(ea, at, xa), np.insert(eb, at, xb), np.insert(ev, at, xv), np.insert(ev, at, xl),
            np.insert(dup, at, True))
