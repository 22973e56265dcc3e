"""The Version column of the Groups tab, its sorting, and the keeper rule "latest"."""

from __future__ import annotations

import os
import random

from gui_helpers import scan, wait_idle

from ndd_desktop.gui.cluster_model import VERSION_COLUMN
from ndd_desktop.gui.cluster_tree import DOC_ROLE, HEADERS

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road "
         "church mill farm court clerk deed lease survey map plan rent wage fund loan grant").split()


def histories(folder, seed=2):
    """Two histories of 4 versions under random names, equal file dates."""
    folder.mkdir(parents=True)
    rng = random.Random(seed)
    for h in (1, 2):
        lines = [" ".join(rng.choice(WORDS) for _ in range(12)) for _ in range(40)]
        for place in range(1, 5):
            name = "".join(rng.choice("abcdefghkmnpqrstwxyz") for _ in range(8)) + ".txt"
            (folder / name).write_text(f"Board rules {h}\nLast updated: {2015 + place}-02-0{h}\n\n" + "\n".join(lines))
            os.utime(folder / name, (1.6e9, 1.6e9))
            lines.insert(rng.randrange(len(lines)), " ".join(rng.choice(WORDS) for _ in range(12)))
    return folder


def places_shown(model, group_row):
    head = model.index(group_row, 0)
    docs = [model.index(k, 0, head).data(DOC_ROLE) for k in range(model.rowCount(head))]
    shown = [model.index(k, VERSION_COLUMN, head).data() for k in range(model.rowCount(head))]
    return docs, shown


def test_version_column_numbers_sorts_and_latest_keeper(qtbot, window, tmp_path):
    folder = histories(tmp_path / "docs")
    window.open_folder(str(folder))
    scan(qtbot, window)
    tree, model = window.clusters, window.clusters.model
    assert HEADERS[VERSION_COLUMN] == "Version"
    qtbot.waitUntil(lambda: len(model.orders) == 2, timeout=20000)
    docs = window.collection.data.docs
    rng_truth = {}  # doc id -> true place, read back from the date each version carries
    for g in window.collection.grouping.groups:
        for m in g.members:
            text = open(docs[m].abspath).read()
            rng_truth[m] = int(text.split("Last updated: ")[1][:4]) - 2015
    for row in range(model.rowCount()):
        members, shown = places_shown(model, row)
        assert [s.split()[0] for s in shown] == [str(rng_truth[m]) for m in members]
        assert sum(s.endswith("latest") for s in shown) == 1
        assert model.index(row, VERSION_COLUMN).data().startswith("order ")
        assert "How sure" in model.index(row, VERSION_COLUMN).data(3)  # the tooltip
    # a click on the header sorts the members of every group by their place
    tree.sort_by_version()
    for row in range(model.rowCount()):
        members, shown = places_shown(model, row)
        assert [rng_truth[m] for m in members] == [1, 2, 3, 4]
    tree.sort_by_version(descending=True)
    members, _ = places_shown(model, 0)
    assert [rng_truth[m] for m in members] == [4, 3, 2, 1]
    # selecting a row still works on the sorted tree
    assert tree.select_document(members[2]) and tree.current_document() == members[2]
    # the keeper rule "latest" keeps the last version of each group
    tree.rule.setCurrentIndex(tree.rule.findData("latest"))
    wait_idle(qtbot, window)
    assert window.collection.keeper_rule == "latest"
    assert all(rng_truth[g.keeper] == 4 for g in window.collection.grouping.groups)


def test_model_sorts_members_by_place_and_ignores_a_stale_order(qtbot):
    from PySide6.QtCore import QModelIndex, Qt

    from ndd_desktop.gui.cluster_tree import ClusterTree
    from ndd_desktop.pipeline.grouping import DocGroup, Grouping
    from ndd_desktop.pipeline.lineage import GroupOrder

    tree = ClusterTree()
    qtbot.addWidget(tree)
    grouping = Grouping([DocGroup(1, 1, [1, 2, 3], {1: 1.0, 2: 0.9, 3: 0.8}, 1),
                         DocGroup(2, 4, [4, 5], {4: 1.0, 5: 0.9}, 4)])
    tree.set_grouping(grouping, {})
    m = tree.model
    tree.set_lineage({1: GroupOrder(1, [3, 1, 2], 0.8, "high", {"stamp": 1.0}),
                      2: GroupOrder(2, [4, 9], 0.5, "medium")})  # group 2's order is for other members
    g1, g2 = m.index(0, 0), m.index(1, 0)
    assert [m.index(k, VERSION_COLUMN, g1).data() for k in range(3)] == ["2", "3 latest", "1"]
    assert [m.index(k, VERSION_COLUMN, g2).data() for k in range(2)] == ["", ""]
    assert g1.sibling(0, VERSION_COLUMN).data() == "order high" and g2.sibling(1, VERSION_COLUMN).data() == ""
    assert "stamp +1.00" in m.index(0, VERSION_COLUMN, g1).data(Qt.ItemDataRole.ToolTipRole)
    assert tree.select_document(2)
    tree.sort_by_version()
    assert [m.index(k, 0, g1).data(DOC_ROLE) for k in range(3)] == [3, 1, 2]
    assert tree.current_document() == 2  # the selection followed its row
    tree.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # back to the grouping's order
    assert [m.index(k, 0, g1).data(DOC_ROLE) for k in range(3)] == [1, 2, 3]
    assert m.index(5, 0, g1) == QModelIndex()


def test_a_new_grouping_stops_the_version_order_of_the_old_one(qtbot, window, tmp_path):
    """A regroup while the version order of the previous groups is still being worked out
    cancels that work (minutes on a large collection) and orders the new groups once."""
    window.open_folder(str(histories(tmp_path / "docs")))
    scan(qtbot, window)
    c = window.collection
    qtbot.waitUntil(lambda: len(window.clusters.model.orders) == 2, timeout=20000)
    wait_idle(qtbot, window)
    shown: list = []
    c.lineageChanged.connect(shown.append)
    c.order_versions()
    first = c._lineage_worker
    c.order_versions()  # the groups changed again before the first order arrived
    assert first.cancel_token.cancelled
    qtbot.waitUntil(lambda: c._lineage_worker is None and not c.busy(), timeout=20000)
    assert len(shown) == 1 and sorted(shown[0]) == [g.group_id for g in c.grouping.groups]
