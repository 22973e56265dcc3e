"""Pairs of members that share a key, read off a sorted list: the group-by every candidate
search ends in (Broder's features, the Hamming tables, the exact shingle clustering).

The keys are sorted with their members; ``same[k]`` says that entries k and k + 1 hold one
key, so each group of equal keys is a run of True. Only the True positions are listed: the
pairs at distance d inside a run come from those at distance d - 1 (k and k + d + 1 share a
run when k + d and k + d + 1 do), so after the sort no pass over all entries is made, and
the work follows the number of pairs.
"""

from __future__ import annotations

import numpy as np

from .checkpoint import checkpoint
from .hashing import mix64


def run_pairs(
    members: np.ndarray,
    same: np.ndarray,
    cap: int | None = None,
    salt: int = 0,
    row_mask: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) int64 arrays, a < b: every two entries of one run, once (two rows that share
    two keys come twice; callers deduplicate).

    ``members`` (length len(same) + 1) holds a row number per entry, or a word whose low
    bits are the row when ``row_mask`` is given. Entries of one row are never paired with
    each other. With ``cap``, a run longer than ``cap`` is first put in a random order
    (reproducible, varied by ``salt``) and each member is paired with the next ``cap - 1``
    only: bounded work on a key that half the collection shares, and the run's members
    stay connected. ``members`` is reordered in place inside such runs.
    """
    parts = list(_steps(members, same, cap, salt, row_mask))
    if not parts:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    a = np.concatenate([p[0] for p in parts])
    b = np.concatenate([p[1] for p in parts])
    return np.minimum(a, b), np.maximum(a, b)


def run_pair_codes(members: np.ndarray, same: np.ndarray, n: int, row_mask: int | None = None) -> np.ndarray:
    """The distinct codes ``a * n + b`` (a < b) of :func:`run_pairs` without a cap, built
    step by step (8 bytes a pair instead of 16 while they pile up)."""
    codes = [np.minimum(a, b) * n + np.maximum(a, b) for a, b in _steps(members, same, None, 0, row_mask)]
    checkpoint()  # the sort below is one long call on a near-clique of documents
    if not codes:
        return np.empty(0, np.int64)
    u = np.concatenate(codes)
    u.sort()  # and a mask: np.unique's hash-based path is ~20x slower on millions of codes
    return u[np.concatenate(([True], u[1:] != u[:-1]))] if u.shape[0] > 1 else u


def _steps(members, same, cap, salt, row_mask):
    """(a, b) of the pairs at distance d = 1, 2, ... inside the runs, one array pair per d
    (a checkpoint between steps: a run of thousands of equal keys makes thousands)."""
    pos = np.flatnonzero(same)
    if pos.shape[0] == 0:
        return
    mask = None if row_mask is None else np.asarray(row_mask, dtype=members.dtype)
    if cap is not None:
        _shuffle_long_runs(members, pos, cap, salt, mask)
    d = 1
    while pos.shape[0] and (cap is None or d < cap):
        checkpoint()
        a, b = members[pos], members[pos + d]
        if mask is not None:
            a, b = a & mask, b & mask
        a, b = a.astype(np.int64, copy=False), b.astype(np.int64, copy=False)
        keep = a != b
        yield a[keep], b[keep]
        nxt = pos + d  # k and k + d + 1 share a run when k + d and k + d + 1 do
        ok = nxt < same.shape[0]
        pos = pos[ok]
        pos = pos[same[nxt[ok]]]
        d += 1


def _shuffle_long_runs(members: np.ndarray, pos: np.ndarray, cap: int, salt: int, mask) -> None:
    """Reorder, in place, the members of each run longer than ``cap`` by a hash of their row."""
    # a run of L entries has L - 1 consecutive True positions
    breaks = np.flatnonzero(np.diff(pos) != 1) + 1
    first = pos[np.concatenate(([0], breaks))]
    size = np.diff(np.concatenate(([0], breaks, [pos.shape[0]]))) + 1
    long_runs = size > cap
    if not long_runs.any():
        return
    starts, sizes = first[long_runs], size[long_runs]
    offset = np.repeat(np.cumsum(sizes) - sizes, sizes)
    idx = np.repeat(starts, sizes) + (np.arange(int(sizes.sum())) - offset)
    chosen = members[idx]
    rows = chosen & mask if mask is not None else chosen
    tie = mix64(rows.astype(np.uint64), salt)
    order = np.lexsort((tie, np.repeat(np.arange(starts.shape[0]), sizes)))
    members[idx] = chosen[order]
