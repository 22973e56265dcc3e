"""Version order of the groups of a collection, shared by ``ndd lineage``, the window's
Version column and the keeper rule ``latest``.

For each group the members' texts, file dates and names are read from the store and
handed to :mod:`core.lineage`; the groups are then decided together
(:func:`core.shared_edits.order_groups`), because an edit several groups share tells the
direction of the groups whose own clues do not. Texts are read one group at a time and
dropped once the group's chain is built, so memory stays bounded; the chains are cached per
(collection file, members, contents), so regrouping at another threshold only measures the
groups that changed.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..core.lineage import VersionChain, level_of, version_chain
from ..core.shared_edits import order_groups
from ..store import Store
from .cancel import CancelToken
from .progress import Progress
from .threads import MESSAGE_FORMATS

#: Distance-matrix cells the cache may hold (8 bytes each): a chain of n members holds n x n,
#: so the cache keeps every group of a big collection of small groups, and few huge ones.
CACHE_CELLS = 16_000_000
_cache: OrderedDict[tuple, VersionChain] = OrderedDict()
_cache_cells = 0
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class GroupOrder:
    """The version order of one group: document ids, oldest first, and how sure it is
    (``confidence`` in [0, 1], ``level`` high/medium/low; see docs/lineage.md)."""

    group_id: int
    order: list[int]
    confidence: float
    level: str
    votes: dict[str, float] = field(default_factory=dict)
    #: every member holds the same text (copies): no order is to be had, and none is needed
    same_text: bool = False

    @property
    def latest(self) -> int:
        """The document written last."""
        return self.order[-1]

    def place(self, doc_id: int) -> int:
        """A member's place in the order, counting from 1 (the oldest)."""
        return self.order.index(doc_id) + 1


def _chain(store: Store, members: Sequence[int], docs: dict) -> VersionChain:
    key = (os.path.abspath(store.path), tuple(members), tuple(docs[m].xxh128 for m in members))
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    texts = store.documents.texts(list(members))
    chain = version_chain(
        [texts.get(m, "") for m in members],
        dates=[docs[m].date for m in members],
        names=[docs[m].relpath for m in members],
        keep_edits=True,
    )
    global _cache_cells
    with _cache_lock:
        if key not in _cache:
            _cache[key] = chain
            _cache_cells += chain.distances.size
        while _cache_cells > CACHE_CELLS and len(_cache) > 1:
            _, old = _cache.popitem(last=False)
            _cache_cells -= old.distances.size
    return chain


def order_member_lists(store: Store, member_lists: Sequence[Sequence[int]], *,
                       progress: Callable[[Progress], None] | None = None,
                       cancel: CancelToken | None = None) -> list[GroupOrder]:
    """The version order of each list of document ids (a group's members), in input order;
    ``group_id`` counts from 1 in that order. ``cancel`` is checked between groups
    (raises ``ScanCancelled``); ``progress`` gets stage "lineage"."""
    docs = {d.id: d for d in store.documents.all([m for ms in member_lists for m in ms], status=None)}
    chains = []
    total = len(member_lists)
    for k, members in enumerate(member_lists):
        if cancel is not None:
            cancel.raise_if_cancelled()
        members = [m for m in members if m in docs]
        chains.append((members, _chain(store, members, docs)))
        if progress is not None and (k % 50 == 0 or k + 1 == total):
            progress(Progress("lineage", k + 1, total, "", 0.0, None))
    orders = order_groups([c for _, c in chains])
    out = []
    for n, ((members, chain), o) in enumerate(zip(chains, orders), start=1):
        same = not chain.distances.any()
        sent = None if same else _by_sending(members, docs)
        if sent is not None:
            out.append(GroupOrder(n, sent, SENT_CONFIDENCE, level_of(SENT_CONFIDENCE), {"sent_date": 1.0}))
        else:
            out.append(GroupOrder(n, [members[i] for i in o.order], o.confidence, o.level, dict(o.votes),
                                  same_text=same))
    return out


#: How sure the order of a group of e-mails by their Date headers is: "high" (the sender's
#: clock wrote each date when the message left; a wrong clock is the exception).
SENT_CONFIDENCE = 0.7


def _by_sending(members: Sequence[int], docs: dict) -> list[int] | None:
    """A group of e-mail messages, each with its Date header, in the order they were sent;
    None for any other group. Messages are not edits of one another: a reply and a forward
    of one message both grow from it, and the chain of smallest edits put a forward before
    the message it forwards two days later (the window called it version 1)."""
    if len(members) < 2 or any(docs[m].format not in MESSAGE_FORMATS or docs[m].date is None
                               or docs[m].date != docs[m].date for m in members):
        return None
    dates = [docs[m].date for m in members]
    if len(set(dates)) < len(dates):
        return None  # two sent at the same second: the dates do not order them
    return [m for _, m in sorted(zip(dates, members))]


def group_orders(store: Store, groups: Sequence, **kwargs) -> dict[int, GroupOrder]:
    """The version order of every ``pipeline.grouping.DocGroup``, by group id (the groups of
    a ``GroupList`` are read from its arrays, without making each group)."""
    member_ids = getattr(groups, "member_ids", None)
    if member_ids is not None:  # a GroupList: row k is group k + 1
        lists, ids = [member_ids(k) for k in range(len(groups))], range(1, len(groups) + 1)
    else:
        lists, ids = [g.members for g in groups], [g.group_id for g in groups]
    orders = order_member_lists(store, lists, **kwargs)
    return {gid: GroupOrder(gid, o.order, o.confidence, o.level, o.votes, o.same_text) for gid, o in zip(ids, orders)}


def version_ranks(store: Store, member_lists: Sequence[Sequence[int]]) -> dict[int, int]:
    """Each document's place in its group's version order (1: the oldest); the hook of the
    keeper rule ``latest``."""
    ranks: dict[int, int] = {}
    for o in order_member_lists(store, member_lists):
        for place, doc_id in enumerate(o.order, start=1):
            ranks[doc_id] = place
    return ranks
