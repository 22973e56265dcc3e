"""The groups tree over its lazy model: what it shows and does for a known grouping, across
regroups, and for a large grouping (behaviour only: the timings are measured outside the tests)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView

from ndd_desktop.gui.cluster_tree import DOC_ROLE, GROUP_ROLE, ClusterTree
from ndd_desktop.gui.formatting import doc_date, fmt_date, human_size
from ndd_desktop.pipeline.grouping import DocGroup, Grouping
from ndd_desktop.store import DocumentInfo

LONG = "a-very-long-folder-name/" * 6


def _doc(i: int, *, reference: bool = False, name: str = "") -> DocumentInfo:
    rel = name or f"sub/doc{i}.txt"
    return DocumentInfo(i, "/data/coll", rel, f"/data/coll/{rel}", None, 1000 * i, 1_600_000_000 * 10**9 + i,
                        None, "txt", "x", "y", 100 * i, "ok", "", reference)


def _docs(n: int) -> dict[int, DocumentInfo]:
    docs = {i: _doc(i) for i in range(1, n + 1)}
    docs[3] = _doc(3, reference=True)
    docs[5] = _doc(5, name=LONG + "keeper.txt")
    return docs


def _known() -> Grouping:
    return Grouping([
        DocGroup(1, 1, [1, 2, 3], {1: 1.0, 2: 0.9, 3: 0.45}, 3, {3: False}),
        DocGroup(2, 4, [4, 5], {4: 1.0, 5: None}, 5),
    ])


def _many(n_groups: int, size: int = 3, first_id: int = 1) -> Grouping:
    groups, doc = [], 1
    for gid in range(first_id, first_id + n_groups):
        members = list(range(doc, doc + size))
        doc += size
        groups.append(DocGroup(gid, members[0], members, {m: 0.8 for m in members}, members[-1]))
    return Grouping(groups)


@pytest.fixture
def tree(qtbot):
    t = ClusterTree()
    qtbot.addWidget(t)
    t.resize(900, 500)
    t.show()
    return t


def _texts(model, row, parent=None):
    from PySide6.QtCore import QModelIndex
    parent = parent if parent is not None else QModelIndex()
    return [model.index(row, c, parent).data() for c in range(model.columnCount())]


def test_rows_texts_roles_and_fonts_of_a_known_grouping(tree):
    docs = _docs(5)
    tree.set_grouping(_known(), docs)
    m = tree.model
    assert tree.fully_filled() and m.rowCount() == 2 and m.columnCount() == 6
    assert tree.summary.text() == "2 groups · 5 documents"
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(6)] == ["Document", "Score", "Role", "Size",
                                                                                "Date", "Version"]
    g1, g2 = m.index(0, 0), m.index(1, 0)
    assert _texts(m, 0) == ["Group 1 · 3 documents", "", "keep coll/sub/doc3.txt", "", "", ""]
    assert _texts(m, 1)[2] == f"keep coll/{LONG}keeper.txt"
    assert m.index(1, 2).data(Qt.ItemDataRole.ToolTipRole) == f"keep coll/{LONG}keeper.txt"
    assert g1.data(GROUP_ROLE) == 1 and g1.data(DOC_ROLE) is None and g1.data(Qt.ItemDataRole.FontRole).bold()
    assert m.rowCount(g1) == 3 and m.rowCount(g2) == 2
    assert _texts(m, 0, g1) == ["coll/sub/doc1.txt", "1.000", "principal", human_size(1000),
                                fmt_date(doc_date(docs[1])), ""]  # no version order yet
    assert _texts(m, 1, g1)[1:3] == ["0.900", ""]
    assert _texts(m, 2, g1)[1:3] == ["0.450 via others", "★ keeper, reference"]
    assert _texts(m, 1, g2)[1:3] == ["–", "★ keeper"]
    member = m.index(2, 0, g1)
    assert member.parent() == g1 and m.rowCount(member) == 0
    assert member.data(DOC_ROLE) == 3 and member.data(GROUP_ROLE) == 1
    assert all(m.index(2, c, g1).data(DOC_ROLE) == 3 for c in range(5))
    assert member.data(Qt.ItemDataRole.FontRole).bold()  # the keeper
    assert m.index(0, 0, g1).data(Qt.ItemDataRole.FontRole) is None
    assert member.data(Qt.ItemDataRole.ToolTipRole) == "/data/coll/sub/doc3.txt"
    # a member whose document is unknown still shows
    tree.set_grouping(Grouping([DocGroup(7, 8, [8, 9], {8: 1.0, 9: 0.7}, 8)]), {})
    assert _texts(m, 0, m.index(0, 0)) == ["#8", "1.000", "principal, ★ keeper", "–", "–", ""]
    assert _texts(m, 0)[2] == ""


def test_few_groups_open_expanded_and_the_columns_leave_room_for_the_documents(tree):
    tree.set_grouping(_known(), _docs(5))
    assert tree.view.isExpanded(tree.model.index(0, 0)) and tree.view.isExpanded(tree.model.index(1, 0))
    header = tree.view.header()
    assert header.sectionResizeMode(0) == QHeaderView.ResizeMode.Stretch
    assert all(header.sectionResizeMode(c) == QHeaderView.ResizeMode.Interactive for c in range(1, 6))
    # the long 'keep ...' of group 2 does not widen the Role column: the Document column gets the room
    assert header.sectionSize(0) > header.sectionSize(2)
    # more than 30 groups open collapsed, except those expanded before (by group id)
    tree.set_grouping(_many(31), _docs(93))
    assert [r for r in range(31) if tree.view.isExpanded(tree.model.index(r, 0))] == [0, 1]
    tree.clear()
    tree.set_grouping(_many(31), _docs(93))
    assert not any(tree.view.isExpanded(tree.model.index(r, 0)) for r in range(31))


def test_selection_compares_with_the_principal_and_make_keeper_names_the_group(qtbot, tree):
    tree.set_grouping(_known(), _docs(5))
    assert not tree.keep_button.isEnabled()
    with qtbot.waitSignal(tree.memberSelected) as sig:
        assert tree.select_document(2)
    assert sig.args == [1, 2] and tree.current_document() == 2 and tree.keep_button.isEnabled()
    with qtbot.waitSignal(tree.memberSelected) as sig:
        assert tree.select_document(1)  # the principal: compared with the next member
    assert sig.args == [1, 2]
    with qtbot.waitSignal(tree.keeperChosen) as sig:
        tree.keep_button.click()
    assert sig.args == [1, [1, 2, 3]]
    assert not tree.select_document(99)
    # a click on a member row selects it like select_document
    g2 = tree.model.index(1, 0)
    rect = tree.view.visualRect(tree.model.index(1, 0, g2))
    with qtbot.waitSignal(tree.memberSelected) as sig:
        qtbot.mouseClick(tree.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert sig.args == [4, 5]
    # a group row is no document: Make keeper is off
    tree.view.setCurrentIndex(g2)
    assert tree.current_document() is None and not tree.keep_button.isEnabled()
    with qtbot.assertNotEmitted(tree.keeperChosen):
        tree.choose_current_as_keeper()
    assert tree.keeper_of(1) == 3 and tree.keeper_of(2) == 5 and tree.keeper_of(9) is None


def test_a_regroup_keeps_the_expanded_groups_and_the_selected_document(qtbot, tree):
    docs = _docs(300)
    tree.set_grouping(_many(100), docs)
    m = tree.model
    tree.view.expand(m.index(4, 0))  # group 5
    tree.view.expand(m.index(9, 0))  # group 10
    tree.view.collapse(m.index(9, 0))
    assert tree.select_document(61)  # group 21, expanded by the selection
    # the threshold moves: fewer, larger groups; groups 5 and 21 still exist (at other rows)
    regroup = Grouping([DocGroup(g.group_id, g.principal, g.members + [g.members[-1] + 1000], g.scores, g.keeper)
                        for g in _many(100).groups if g.group_id % 2 == 1])
    with qtbot.waitSignal(tree.memberSelected) as sig:
        tree.set_grouping(regroup, docs)
    assert m.rowCount() == 50 and m.rowCount(m.index(0, 0)) == 4
    assert sig.args == [61, 62]  # the principal of group 21, compared with the next member
    expanded = {m.index(r, 0).data(GROUP_ROLE) for r in range(m.rowCount()) if tree.view.isExpanded(m.index(r, 0))}
    assert expanded == {5, 21}
    assert tree.current_document() == 61 and tree.keep_button.isEnabled()
    assert tree.keeper_of(21) == 63 and tree.keeper_of(10) is None
    # a grouping without the selected document: nothing is selected, Make keeper is off
    tree.set_grouping(_many(10, first_id=500), docs)
    assert tree.current_document() is None and not tree.keep_button.isEnabled()
    assert tree.select_document(30) and tree.current_document() == 30
    tree.clear()
    assert m.rowCount() == 0 and not tree.groups and tree.summary.text() == "" and not tree.keep_button.isEnabled()


def test_a_large_grouping_is_shown_whole_and_regroups_keep_working(qtbot, tree):
    docs = _docs(5000 * 3)
    for n in (5000, 4000, 5000):
        tree.set_grouping(_many(n), docs)
        m = tree.model
        assert tree.fully_filled() and m.rowCount() == n
        last = m.index(n - 1, 0)
        assert last.data() == f"Group {n} · 3 documents" and m.rowCount(last) == 3
        assert tree.summary.text() == f"{n:,} groups · {3 * n:,} documents"
        with qtbot.waitSignal(tree.memberSelected) as sig:
            assert tree.select_document(3 * n - 1)
        assert sig.args == [3 * n - 2, 3 * n - 1]
        qtbot.wait(10)  # painted without errors


def test_a_chained_group_shows_its_extra_keeper_and_what_each_left_out_member_duplicates(tree):
    """1 ~ 2 ~ 3 with 1 not like 3: keeper 1 covers 2; 3 is kept too; 2 names 1 and their score."""
    docs = _docs(3)
    docs[3] = _doc(3)
    chain = DocGroup(1, 2, [2, 1, 3], {2: 1.0, 1: 0.8, 3: 0.75}, 1, {}, keepers=(1, 3),
                     covered_by={2: (1, 0.8)}, to_keeper={1: None, 2: 0.8, 3: 0.41})
    tree.set_grouping(Grouping([chain]), docs)
    m = tree.model
    g = m.index(0, 0)
    assert _texts(m, 0)[2] == "keep coll/sub/doc1.txt and 1 more kept"
    roles = {_texts(m, r, g)[0]: _texts(m, r, g)[2] for r in range(3)}
    assert roles == {
        "coll/sub/doc2.txt": "principal, duplicate of coll/sub/doc1.txt (0.800)",
        "coll/sub/doc1.txt": "★ keeper",
        "coll/sub/doc3.txt": "★ kept too (0.410 to the keeper)",
    }
    # the tooltips say what each role means for an export ("kept too" beside a high score read
    # as a contradiction: the keeper may lie wholly in it)
    from PySide6.QtCore import Qt

    tips = {m.index(r, 0, g).data(): m.index(r, 2, g).data(Qt.ItemDataRole.ToolTipRole) for r in range(3)}
    assert tips["coll/sub/doc3.txt"].startswith("★ kept too (0.410 to the keeper)\nKept too: no kept document "
                                                "can stand in for it")
    assert "the keeper lies wholly in it and it has text of its own" in tips["coll/sub/doc3.txt"]
    assert tips["coll/sub/doc2.txt"].endswith("compare them before deleting the original.")
    assert tips["coll/sub/doc1.txt"].endswith("Kept: the group's keeper (the keeper rule's choice, or yours).")
