"""pipeline.lineage: version order of stored groups, the keeper rule ``latest``, the cache."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ndd_desktop.pipeline import lineage
from ndd_desktop.pipeline.grouping import groups_at
from ndd_desktop.pipeline.lineage import group_orders, order_member_lists
from ndd_desktop.store import DocWrite, Root, Store

WORDS = "deed lease survey map plan rent wage fund loan grant mill farm court clerk river bridge".split()


def _doc(rel: str, text: str, date: float) -> DocWrite:
    return DocWrite(root="/new", file_relpath=rel, file_size=len(text), file_mtime_ns=1, file_xxh128=rel,
                    relpath=rel, container=None, size=len(text), mtime_ns=1, date=date, format="txt", xxh128=rel,
                    sha256=rel, text_length=len(text), status="ok", reason="", text=text)


def _versions(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    lines = [" ".join(rng.choice(WORDS) for _ in range(10)) for _ in range(30)]
    out = []
    for k in range(n):
        out.append(f"Version {k + 1}.0\n" + "\n".join(lines))
        del lines[rng.randrange(len(lines))]  # shrinking: only the version numbers tell the direction
    return out


@pytest.fixture
def vstore():
    """Two histories stored in shuffled order, all file dates equal; pairs link each history."""
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/new")])
    docs, truth = [], []
    for h, n in ((1, 6), (2, 3)):
        for k, text in enumerate(_versions(h, n)):
            docs.append(_doc(f"h{h}_{random.Random(k + 10 * h).randrange(10**6)}.txt", text, 100.0))
            truth.append((h, k + 1))
    order = list(range(len(docs)))
    random.Random(4).shuffle(order)
    ids = s.scans.write_documents([docs[k] for k in order], "m", "k")
    place = {doc_id: truth[k] for doc_id, k in zip(ids, order)}
    a, b = [], []
    for x in ids:
        for y in ids:
            if x < y and place[x][0] == place[y][0]:
                a.append(x)
                b.append(y)
    n = len(a)
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", {"a": np.array(a), "b": np.array(b), "score": np.full(n, 0.9),
                                                  "cont_ab": np.full(n, 0.9), "cont_ba": np.full(n, 0.9)})
    yield s, place
    s.close()


def test_group_orders_follow_the_versions(vstore):
    s, place = vstore
    grouping = groups_at(s, "m", "pk", 0.5)
    orders = group_orders(s, grouping.groups)
    assert all(g is None for g in grouping.groups._made)  # read from the GroupList's arrays
    assert group_orders(s, list(grouping.groups)) == orders  # as from the groups themselves
    assert sorted(len(o.order) for o in orders.values()) == [3, 6]
    for g in grouping.groups:
        o = orders[g.group_id]
        assert set(o.order) == set(g.members)
        assert [place[m][1] for m in o.order] == list(range(1, len(o.order) + 1))
        assert place[o.latest][1] == len(o.order) and o.place(o.latest) == len(o.order)


def test_keeper_rule_latest_keeps_the_highest_version(vstore):
    s, place = vstore
    for g in groups_at(s, "m", "pk", 0.5, keeper_rule="latest").groups:
        assert place[g.keeper][1] == len(g.members)
    # the reviewer's own keeper still wins over the rule
    g = groups_at(s, "m", "pk", 0.5).groups[0]
    chosen = next(m for m in g.members if place[m][1] == 1)
    s.review.set_keeper(chosen, True, reviewer="ann")
    assert groups_at(s, "m", "pk", 0.5, keeper_rule="latest").groups[0].keeper == chosen


def test_chains_are_cached_per_members_and_contents(vstore, monkeypatch):
    s, _ = vstore
    lineage._cache.clear()
    lineage._cache_cells = 0
    members = [[g for g in groups_at(s, "m", "pk", 0.5).groups[0].members]]
    calls = []
    real = s.documents.texts
    monkeypatch.setattr(s.documents, "texts", lambda ids: calls.append(ids) or real(ids))
    first = order_member_lists(s, members)
    second = order_member_lists(s, members)
    assert len(calls) == 1 and first[0].order == second[0].order
