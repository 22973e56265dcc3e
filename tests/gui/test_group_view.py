"""The group view: opened from the Groups tab, differences per member, reference switch,
bulk review and its undo."""

from __future__ import annotations

import random

from PySide6.QtCore import QUrl
from gui_helpers import scan, wait_idle

from ndd_desktop.gui.cluster_tree import DOC_ROLE
from ndd_desktop.gui.group_view import GroupViewDialog

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road church mill "
         "farm court clerk deed lease survey map plan rent wage fund loan grant ledger quay cargo").split()


def _versions(folder):
    rng = random.Random(5)
    base = [" ".join(rng.choice(WORDS) for _ in range(15)) + "." for _ in range(8)]
    v2 = list(base)
    v2[4] = v2[4].replace(".", " with a zeppelin.")
    v3 = base[:2] + base[3:]
    folder.mkdir()
    for name, paras in (("v1.txt", base), ("v2.txt", v2), ("v3.txt", v3)):
        (folder / name).write_text("\n\n".join(paras) + "\n", encoding="utf-8")
    (folder / "other.txt").write_text(" ".join(rng.choice(WORDS) for _ in range(120)), encoding="utf-8")


def _open(qtbot, window, tmp_path) -> GroupViewDialog:
    _versions(tmp_path / "docs")
    assert window.open_folder(str(tmp_path / "docs"))
    scan(qtbot, window)
    groups = window.collection.grouping.groups
    assert len(groups) == 1 and len(groups[0].members) == 3
    tree = window.clusters
    head = tree.model.index(0, 0)
    tree.view.setCurrentIndex(head)
    tree.open_group_button.click()
    dialog = window.group_view
    assert isinstance(dialog, GroupViewDialog)
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    return dialog


def _rows(dialog):
    return {dialog.table.item(r, 0).text().split("/")[-1]: dialog.table.item(r, 4).text()
            for r in range(dialog.table.rowCount())}


def test_group_view_shows_each_members_differences(qtbot, window, tmp_path):
    dialog = _open(qtbot, window, tmp_path)
    docs = dialog.view.docs
    by_name = {d.relpath: d.id for d in docs.values()}
    dialog.use_as_reference(by_name["v1.txt"])
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    assert "v1.txt" in dialog.title.text()
    assert "zeppelin" not in dialog.reference_text.toPlainText()
    rows = _rows(dialog)
    assert set(rows) == {"v2.txt", "v3.txt"}
    assert rows["v2.txt"].startswith("1 passage") and rows["v3.txt"].startswith("1 passage")
    assert "inside the reference" in rows["v3.txt"] and "in ref." in rows["v2.txt"]  # v3 dropped a paragraph
    # select v2: its one change, the words added at the end of paragraph 5
    row = next(r for r in range(dialog.table.rowCount()) if dialog.table.item(r, 0).text().endswith("v2.txt"))
    dialog.table.setCurrentCell(row, 0)
    shown = dialog.changes.toPlainText()
    assert "zeppelin" in shown and "after ¶ 5" in shown and "added" in shown and "changed" not in shown
    row = next(r for r in range(dialog.table.rowCount()) if dialog.table.item(r, 0).text().endswith("v3.txt"))
    dialog.table.setCurrentCell(row, 0)
    assert "removed" in dialog.changes.toPlainText() and "¶ 3" in dialog.changes.toPlainText()
    # a click on the change scrolls the reference to the removed paragraph
    change = dialog.view.computed(by_name["v3.txt"]).changes[0]
    dialog.changes.anchorClicked.emit(QUrl("change:0"))
    cursor = dialog.reference_text.textCursor().position()
    assert cursor == change.ref_chars[0] > 0
    assert dialog.reference_text.toPlainText()[cursor:].startswith(change.ref_text.split()[0])
    # one click makes v3 the reference: v1 now shows the paragraph as added
    dialog.reference_button.click()
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    assert dialog.view.reference == by_name["v3.txt"] and "v3.txt" in dialog.title.text()
    assert set(_rows(dialog)) == {"v1.txt", "v2.txt"}


def test_bulk_review_and_undo(qtbot, window, tmp_path):
    dialog = _open(qtbot, window, tmp_path)
    store = window.collection.store
    ref = dialog.view.reference
    others = dialog.view.others()
    assert store.review.keepers() == set() and store.review.verdicts() == {}
    window.statusBar().showMessage("The review keys (D, N, C, J, K) work on the Pairs tab")
    with qtbot.waitSignal(dialog.verdictsChanged) as blocker:
        dialog.duplicates_button.click()
    # the window's status line says what the view did (it kept the stale line above)
    assert window.statusBar().currentMessage().startswith("Group 1: The other members are marked duplicates")
    assert store.review.keepers() == {ref}
    assert store.review.verdicts() == {(min(ref, m), max(ref, m)): "duplicate" for m in others}
    assert blocker.args[0] == store.review.verdicts()
    # the pairs table shows them
    model = window.pairs.model
    rows = [model.row_of(a, b) for a, b in store.review.verdicts()]
    assert any(r >= 0 for r in rows)
    assert all(model.verdict(r) == "duplicate" for r in rows if r >= 0)
    dialog.keep_all_button.click()
    assert store.review.keepers() == {ref, *others}
    assert dialog.undo_button.isEnabled()
    dialog.undo_button.click()
    assert store.review.keepers() == {ref}
    dialog.undo_button.click()
    assert store.review.keepers() == set() and store.review.verdicts() == {}
    assert all(model.verdict(r) is None for r in rows if r >= 0)
    assert not dialog.undo_button.isEnabled()
    wait_idle(qtbot, window)
    dialog.close()


def test_double_click_on_a_member_row_opens_the_group(qtbot, window, tmp_path):
    _versions(tmp_path / "docs")
    assert window.open_folder(str(tmp_path / "docs"))
    scan(qtbot, window)
    tree = window.clusters
    head = tree.model.index(0, 0)
    tree.view.expand(head)
    member = tree.model.index(1, 0, head)
    assert member.data(DOC_ROLE) is not None
    tree.view.doubleClicked.emit(member)
    dialog = window.group_view
    assert dialog is not None and dialog.group.group_id == 1
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    assert dialog.table.rowCount() == 2
    dialog.close()


def test_a_group_action_is_undone_from_the_window_after_its_view_closed(qtbot, window, tmp_path):
    """One undo history: the group view kept its own, so once closed its "Mark the rest
    duplicates" could not be undone (Review > Undo off, Ctrl+Z changing nothing)."""
    dialog = _open(qtbot, window, tmp_path)
    store = window.collection.store
    model = window.pairs.model
    dialog.duplicates_button.click()
    marked = dict(store.review.verdicts())
    assert marked and store.review.keepers() == {dialog.view.reference}
    dialog.close()
    assert window.review.undo.isEnabled()
    assert window.review.undo_last()
    assert store.review.verdicts() == {} and store.review.keepers() == set()
    rows = [model.row_of(a, b) for a, b in marked]
    assert all(model.verdict(r) is None for r in rows if r >= 0) and any(r >= 0 for r in rows)
    assert window.statusBar().currentMessage().startswith(f"Undone: the last group action; {len(marked)} verdict")
    assert not window.review.undo.isEnabled()
    # an action undone in the window is not undone again by its view
    wait_idle(qtbot, window)
    tree = window.clusters
    tree.view.setCurrentIndex(tree.model.index(0, 0))
    tree.open_group_button.click()
    dialog = window.group_view
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    dialog.keep_all_button.click()
    assert dialog.undo_button.isEnabled()
    assert window.review.undo_last()
    assert not dialog.undo_button.isEnabled()
    wait_idle(qtbot, window)
    dialog.close()


def test_marking_the_rest_duplicates_names_the_members_still_exported(qtbot, window, tmp_path):
    # v3 dropped a paragraph that v1 (and v2, v1 with a few words more) holds: with v3 the
    # reference, a duplicate verdict cannot leave v1 out (the paragraph would be lost; v1
    # stands in for v2), and the dialog said only "marked duplicates" while the window's
    # count of documents left out did not move
    dialog = _open(qtbot, window, tmp_path)
    by_name = {d.relpath: d.id for d in dialog.view.docs.values()}
    dialog.use_as_reference(by_name["v3.txt"])
    qtbot.waitUntil(lambda: dialog._worker is None, timeout=10000)
    with qtbot.waitSignal(window.collection.groupingChanged, timeout=10000):
        dialog.duplicates_button.click()
    wait_idle(qtbot, window)
    text = dialog.status.text()
    assert text.startswith("The other members are marked duplicates of the reference; still exported: ")
    assert "v1.txt" in text and "v2.txt" not in text and "(it holds text the reference lacks" in text
    dialog.close()
