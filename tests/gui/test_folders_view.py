"""The Folders tab: the list after a scan, sorting, and two folders side by side."""

from __future__ import annotations

import shutil

from gui_helpers import make_collection, scan
from PySide6.QtCore import Qt


def test_folders_tab_lists_a_copied_folder_and_aligns_it(qtbot, window, tmp_path):
    root = tmp_path / "docs"
    make_collection(root / "orig", families=0, singles=4, broken=False, seed=3)
    shutil.copytree(root / "orig", root / "copy")
    (root / "copy" / "extra.txt").write_text("something else entirely, found only in the copy of the folder")
    make_collection(root / "other", families=0, singles=2, broken=False, seed=11)
    window.open_folder(str(root))
    scan(qtbot, window)
    view = window.folders
    with qtbot.waitSignal(view.computed, timeout=20000):
        window.tabs.setCurrentWidget(view)
    assert view.proxy.rowCount() == 1
    cells = [view.proxy.index(0, c).data() for c in range(9)]
    assert {cells[0], cells[1]} == {str(root / "orig"), str(root / "copy")}
    assert cells[4] in ("a in b", "b in a")  # orig (4) lies wholly in copy (5)
    assert sorted([cells[5], cells[6]]) == ["4", "5"]
    # sortable: by the share column both ways, the row stays the same pair
    view.table.sortByColumn(2, Qt.SortOrder.AscendingOrder)
    assert view.pair_at(0) == 0
    view.table.selectRow(0)
    side = view.side
    assert side.rowCount() == 5
    texts = [(side.item(r, 0).text(), side.item(r, 1).text()) for r in range(5)]
    unmatched = [t for t in texts if "— no match —" in t]
    assert len(unmatched) == 1 and any(s.endswith("extra.txt") for s in unmatched[0])
    matched = [t for t in texts if t not in unmatched]
    assert all(a.rsplit("/", 1)[1] == b.rsplit("/", 1)[1] for a, b in matched)
    # a matched row goes to the compare view
    row = texts.index(matched[0])
    with qtbot.waitSignal(window.compare.loaded, timeout=10000):
        side.setCurrentCell(row, 0)
    shown = {window.compare.header_a.doc.relpath, window.compare.header_b.doc.relpath}
    assert shown == {matched[0][0], matched[0][1]}
    # the minimum share at 1.0 keeps the pair: one folder lies wholly in the other
    with qtbot.waitSignal(view.computed, timeout=20000) as blocker:
        view.share.setValue(1.0)
    assert blocker.args == [1]  # orig is wholly in copy: share 1.0 on one side
