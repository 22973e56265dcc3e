"""Direction from edits that several groups share.

Documents of one collection are often edited together: a heading dropped from every
policy, a company renamed in every letter, a footer changed in every template. Such an
edit leaves the same shingles added (or removed) along the chains of many groups. A group
whose direction its own clues leave open can borrow it from the groups whose direction is
known: if the shingles its chain adds going one way are the ones the other groups add
going forward (and removes the ones they remove), that way is forward.

:func:`shared_edit_votes` turns this into one vote per group, in the form
:func:`core.lineage.decide_order` takes as an extra clue ("shared_edits"): (tau along the
group's path in [-1, 1], share in [0, 1]). A group's own edits never vote for itself
(leave-one-out), and each group teaches with the weight of its own decided direction.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .lineage import VersionChain, VersionOrder

MATCHES_FOR_FULL_SHARE = 3  # shingles an edit must share with other groups to count fully


def path_edits(sets: Sequence[np.ndarray], path: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(shingle hashes, net count) of the edits along ``path``: +1 each time a shingle is
    added from one version to the next, -1 each time one is removed."""
    hashes, signs = [], []
    for u, v in zip(path[:-1], path[1:]):
        # (setdiff1d's isin chose its lookup-table method for sets of one value, and NumPy
        # 2.0 then overflowed on a 64-bit hash above the signed range: kind="sort" always)
        added = sets[v][~np.isin(sets[v], sets[u], assume_unique=True, kind="sort")]
        removed = sets[u][~np.isin(sets[u], sets[v], assume_unique=True, kind="sort")]
        hashes += [added, removed]
        signs += [np.ones(added.shape[0]), -np.ones(removed.shape[0])]
    if not hashes:
        return np.empty(0, np.uint64), np.empty(0)
    h = np.concatenate(hashes)
    s = np.concatenate(signs)
    uniq, inv = np.unique(h, return_inverse=True)
    net = np.bincount(inv, weights=s, minlength=uniq.shape[0])
    keep = net != 0
    return uniq[keep], net[keep]


def _forward(chain: VersionChain, order: VersionOrder) -> float:
    """+1 when ``order`` runs the way of the chain's path, -1 when it runs against it."""
    rank = order.rank()
    return 1.0 if rank[chain.path[0]] <= rank[chain.path[-1]] else -1.0


def shared_edit_votes(chains: Sequence[VersionChain], orders: Sequence[VersionOrder]) -> list[tuple[float, float] | None]:
    """One vote per group on the direction of its path (see the module docstring), None
    where the group shares no edit with a group of known direction. ``chains`` must have
    been made with ``keep_edits=True``; ``orders`` are the first decisions on them."""
    none = (np.empty(0, np.uint64), np.empty(0))
    edits = [c.edits if c.edits is not None and len(c.path) > 1 else none for c in chains]
    lessons = [e[1] * (_forward(c, o) * o.direction) if len(c.path) > 1 else e[1] * 0.0
               for c, o, e in zip(chains, orders, edits)]
    if not edits:
        return []
    all_h = np.concatenate([e[0] for e in edits])
    if all_h.shape[0] == 0:
        return [None] * len(chains)
    all_w = np.concatenate(lessons)
    uniq, inv = np.unique(all_h, return_inverse=True)
    known = np.bincount(inv, weights=all_w, minlength=uniq.shape[0])
    out: list[tuple[float, float] | None] = []
    for (h, net), lesson in zip(edits, lessons):
        if h.shape[0] == 0:
            out.append(None)
            continue
        others = known[np.searchsorted(uniq, h)] - lesson  # leave this group's own edits out
        matched = np.abs(others) > 1e-9
        if not matched.any():
            out.append(None)
            continue
        score = float((net * others).sum())
        scale = float((np.abs(net) * np.abs(others)).sum())
        share = min(1.0, int(matched.sum()) / MATCHES_FOR_FULL_SHARE)
        out.append((score / scale, share) if scale > 0 else None)
    return out


def order_groups(chains: Sequence[VersionChain], rounds: int = 2) -> list[VersionOrder]:
    """Decide the order of every group with the shared-edit vote of the others
    (:func:`shared_edit_votes`).

    The first teachers are the groups whose direction rests on clues that say when a text
    was written (dates, version numbers, file dates and names), not on length alone: length
    is the weakest clue and a collection-wide deletion fools it in every group at once.
    Then every group, decided with the shared vote, teaches the others for ``rounds - 1``
    more rounds.
    """
    from .lineage import decide_order

    teachers = [decide_order(c, ignore=("length",)) for c in chains]
    orders = teachers
    for _ in range(max(1, rounds)):
        votes = shared_edit_votes(chains, teachers)
        orders = [decide_order(c, {"shared_edits": v} if v is not None else None) for c, v in zip(chains, votes)]
        teachers = orders
    return orders
