"""The groups tree on a real grouping (a GroupList): showing it, counting it and finding a
document in it make only the groups the view shows, never all of them."""

from __future__ import annotations

import numpy as np
import pytest

from ndd_desktop.gui.cluster_tree import DOC_ROLE, ClusterTree
from ndd_desktop.pipeline.grouping import groups_at
from ndd_desktop.store import DocWrite, Root, Store

GROUPS = 300


def _made(groups) -> int:
    return sum(g is not None for g in groups._made)


@pytest.fixture
def grouped():
    """GROUPS groups of three documents (a chain: the middle one, the oldest, links both ends)."""
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/new")])
    n = 3 * GROUPS
    ids = s.scans.write_documents([
        DocWrite(root="/new", file_relpath=f"d{k}.txt", file_size=1, file_mtime_ns=1, file_xxh128=f"{k:032x}",
                 relpath=f"d{k}.txt", container=None, size=1, mtime_ns=1, date=float(k % 3 != 1), format="txt",
                 xxh128=f"{k:032x}", sha256="", text_length=10, status="ok", reason="", text="x")
        for k in range(n)], "m", "k")
    first = np.arange(0, n, 3)
    a = np.concatenate((first, first + 1))
    b = np.concatenate((first + 1, first + 2))
    ids = np.asarray(ids)
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", {"a": ids[a], "b": ids[b], "score": np.full(a.shape[0], 0.8),
                                                   "cont_ab": np.full(a.shape[0], np.nan),
                                                   "cont_ba": np.full(a.shape[0], np.nan)})
    docs = {d.id: d for d in s.documents.all(ids.tolist())}
    yield s, ids, docs
    s.close()


def test_showing_and_searching_a_grouping_makes_only_the_groups_shown(qtbot, grouped):
    store, ids, docs = grouped
    grouping = groups_at(store, "m", "pk", 0.5)
    assert len(grouping.groups) == GROUPS and _made(grouping.groups) == 0
    tree = ClusterTree()
    qtbot.addWidget(tree)
    tree.resize(900, 400)
    tree.show()
    tree.set_grouping(grouping, docs)
    qtbot.wait(50)
    assert tree.summary.text() == f"{GROUPS} groups · {3 * GROUPS} documents"
    assert tree.model.rowCount() == GROUPS
    shown = _made(grouping.groups)
    assert shown < GROUPS // 4  # the rows in view, not every group
    # the last group's last document: found in the arrays, only its group is made besides
    last = int(ids[-1])
    assert tree.select_document(last) and tree.current_document() == last
    assert _made(grouping.groups) <= shown + 30
    index = tree.view.currentIndex()
    assert index.data(DOC_ROLE) == last and index.parent().row() == GROUPS - 1
    # the count an export leaves out, from the arrays: the chain is kept from its middle
    assert grouping.covered_count() == 2 * GROUPS
    assert all(g.keeper == g.members[0] and len(g.covered_by) == 2 for g in grouping.groups[:3])
