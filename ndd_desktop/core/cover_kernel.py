"""The compiled loop of :mod:`core.cover`: the keepers of every group at once.

The greedy cover is sequential within a group (each keeper sets aside the members it is
linked to before the next is chosen), so numpy cannot express it; a Python loop with a dict
per group cost seconds for 50,000 groups. Here the groups are slices of flat arrays and the
links one adjacency over all documents, and the state (kept, still open, covered by whom)
lives in arrays indexed by document. The results are those of
:func:`core.cover.choose_keepers` group by group (``tests/core/test_cover_kernel.py``
compares them on random graphs). The functions are plain Python, run as they are for a
few groups; :data:`compiled` are their numba versions for many (``core.kernel_load``;
compiled once per machine, cached beside the module where that folder is writable, and run
without the GIL); :func:`functions` picks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernel_load
from .kernel_load import Compiled, KernelLoader


def link_lists(n: int, a: np.ndarray, b: np.ndarray, value: np.ndarray, a_covers_b: np.ndarray,
               b_covers_a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The links ``a[k] - b[k]`` by node, in the directions a keeper may cover the other:
    ``(start, other, value)`` with the members node x covers once kept at
    ``other[start[x]:start[x + 1]]``, in the order of the edges. ``a_covers_b[k]``: a kept
    ``a[k]`` covers ``b[k]`` (``b_covers_a`` the other way)."""
    m = a.shape[0]
    start = np.zeros(n + 1, dtype=np.int64)
    for k in range(m):
        if a_covers_b[k]:
            start[a[k] + 1] += 1
        if b_covers_a[k]:
            start[b[k] + 1] += 1
    for x in range(n):
        start[x + 1] += start[x]
    fill = start[:-1].copy()
    other = np.empty(start[n], dtype=np.int64)
    val = np.empty(start[n], dtype=np.float64)
    for k in range(m):
        x, y = a[k], b[k]
        if a_covers_b[k]:
            other[fill[x]], val[fill[x]] = y, value[k]
            fill[x] += 1
        if b_covers_a[k]:
            other[fill[y]], val[fill[y]] = x, value[k]
            fill[y] += 1
    return start, other, val


def _sort_by_rank(buf: np.ndarray, count: int, rank: np.ndarray) -> None:
    """Sort ``buf[:count]`` (nodes) by ``rank`` ascending, in place (ranks are distinct)."""
    if count <= 24:
        for a in range(1, count):
            x = buf[a]
            b = a - 1
            while b >= 0 and rank[x] < rank[buf[b]]:
                buf[b + 1] = buf[b]
                b -= 1
            buf[b + 1] = x
        return
    keys = np.empty(count, dtype=np.int64)
    for a in range(count):
        keys[a] = rank[buf[a]]
    order = np.argsort(keys)
    sorted_nodes = buf[:count][order]
    buf[:count] = sorted_nodes


def _keep(k: int, g: int, kept_list: np.ndarray, n_kept: int, kept: np.ndarray, open_: np.ndarray,
          group: np.ndarray, start: np.ndarray, other: np.ndarray, val: np.ndarray,
          cover_by: np.ndarray, cover_val: np.ndarray, cover_seq: np.ndarray, seq: int) -> int:
    """Keep ``k`` (of group ``g``): it leaves the covered, and each member it may cover
    (``link_lists``) is covered by it unless a keeper with a higher value covers it already. Returns the next
    sequence number of a first cover."""
    kept_list[n_kept] = k
    kept[k] = True
    open_[k] = False
    cover_by[k] = -1
    cover_seq[k] = -1
    for p in range(start[k], start[k + 1]):
        x = other[p]
        if group[x] != g or kept[x]:
            continue
        open_[x] = False
        v = val[p]
        if cover_by[x] < 0:
            cover_by[x], cover_val[x], cover_seq[x] = k, v, seq
            seq += 1
        elif not np.isnan(v) and (np.isnan(cover_val[x]) or v > cover_val[x]):
            cover_by[x], cover_val[x] = k, v
    return seq


def cover_groups(n: int, offsets: np.ndarray, members: np.ndarray, rank: np.ndarray, first: np.ndarray,
                 fixed: np.ndarray, start: np.ndarray, other: np.ndarray, val: np.ndarray):
    """The greedy cover of each group ``members[offsets[g]:offsets[g + 1]]`` (nodes < n).

    The order of group g is ``first[g]``, then its other members by ``rank``; the members
    with ``fixed`` are kept first, in that order, then each member neither kept nor linked to
    a keeper, in that order. A link's value is ``val`` (NaN: a link without a value, which
    covers but never beats a valued one). Returns ``(kept_offsets, kept, cover_by,
    cover_val, cover_seq)``: each group's keepers in the order chosen at
    ``kept[kept_offsets[g]:kept_offsets[g + 1]]``, and per node the keeper covering it (-1:
    none), that link's value and the number of its first cover (the order a dict would have
    taken them in).
    """
    groups = offsets.shape[0] - 1
    group = np.full(n, -1, dtype=np.int64)
    kept = np.zeros(n, dtype=np.bool_)
    open_ = np.zeros(n, dtype=np.bool_)
    cover_by = np.full(n, -1, dtype=np.int64)
    cover_val = np.full(n, np.nan)
    cover_seq = np.full(n, -1, dtype=np.int64)
    kept_offsets = np.zeros(groups + 1, dtype=np.int64)
    kept_list = np.empty(members.shape[0], dtype=np.int64)
    longest = 0
    for g in range(groups):
        longest = max(longest, offsets[g + 1] - offsets[g])
    order = np.empty(longest, dtype=np.int64)
    n_kept = 0
    seq = 0
    for g in range(groups):
        lo, hi = offsets[g], offsets[g + 1]
        f = first[g]
        count = 0
        for p in range(lo, hi):
            x = members[p]
            group[x] = g
            open_[x] = True
            if x != f:
                order[count] = x
                count += 1
        _sort_by_rank(order, count, rank)
        size = count + 1
        # order[0] is the first member, then the rest by rank
        for q in range(count, 0, -1):
            order[q] = order[q - 1]
        order[0] = f
        for q in range(size):
            if fixed[order[q]]:
                seq = _keep(order[q], g, kept_list, n_kept, kept, open_, group, start, other, val,
                            cover_by, cover_val, cover_seq, seq)
                n_kept += 1
        for q in range(size):
            if open_[order[q]]:
                seq = _keep(order[q], g, kept_list, n_kept, kept, open_, group, start, other, val,
                            cover_by, cover_val, cover_seq, seq)
                n_kept += 1
        kept_offsets[g + 1] = n_kept
    return kept_offsets, kept_list[:n_kept].copy(), cover_by, cover_val, cover_seq


#: the functions numba compiles (each calls the others' compiled versions)
compiled = Compiled(globals(), ('link_lists', '_sort_by_rank', '_keep', 'cover_groups'))


#: Below this much work (edges plus documents) the loops run as plain Python (kernel_load.SMALL).
SMALL = kernel_load.SMALL


def functions(work: int) -> Any:
    """The loops to run ``work`` (edges plus documents) with (``kernel_load.loops_for``)."""
    return kernel_load.loops_for(work, SMALL, __name__, load, compiled)


def _warm() -> None:
    k = compiled()
    a, b, v = np.array([0], dtype=np.int64), np.array([1], dtype=np.int64), np.array([0.5])
    both = np.ones(1, dtype=np.bool_)
    start, other, val = k.link_lists(2, a, b, v, both, both)
    k.cover_groups(2, np.array([0, 2], dtype=np.int64), np.array([0, 1], dtype=np.int64),
                   np.array([0, 1], dtype=np.int64), np.array([0], dtype=np.int64), np.zeros(2, dtype=np.bool_),
                   start, other, val)


#: Load the compiled functions (from numba's cache) now, without SciPy's BLAS; what the
#: first large cover does.
load = KernelLoader(_warm)
