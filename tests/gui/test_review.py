"""Flow 8: reviewing from the keyboard; verdicts saved at once, undo, groups kept apart."""

from __future__ import annotations

from gui_helpers import wait_idle
from PySide6.QtCore import Qt


def test_keyboard_review_saves_and_undoes(qtbot, scanned):
    w = scanned
    store = w.collection.store
    table = w.pairs.table
    w.pairs.select_row(0)
    table.setFocus()
    first = w.pairs.current_pair()
    qtbot.keyClick(table, Qt.Key.Key_D)
    assert store.review.verdicts()[(first.a, first.b)] == "duplicate"  # saved at once
    assert w.pairs.current_row() == 1
    second = w.pairs.current_pair()
    qtbot.keyClick(table, Qt.Key.Key_N)
    assert store.review.verdicts()[(second.a, second.b)] == "not_duplicate"
    assert w.pairs.model.data(w.pairs.model.index(1, 7)) == "not duplicate"
    qtbot.keyClick(table, Qt.Key.Key_U)
    assert (second.a, second.b) not in store.review.verdicts()
    assert w.pairs.current_pair().pair_id == second.pair_id  # back on the undone pair
    qtbot.keyClick(table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (first.a, first.b) not in store.review.verdicts()
    # next and previous without the mouse
    w.pairs.select_row(0)
    qtbot.keyClick(table, Qt.Key.Key_J)
    assert w.pairs.current_row() == 1
    qtbot.keyClick(table, Qt.Key.Key_Down)
    assert w.pairs.current_row() == 2
    qtbot.keyClick(table, Qt.Key.Key_K)
    assert w.pairs.current_row() == 1
    qtbot.keyClick(table, Qt.Key.Key_Up)
    assert w.pairs.current_row() == 0
    # typing in the filter box types; it does not review
    w.pairs.filter.setFocus()
    qtbot.keyClicks(w.pairs.filter, "dn")
    assert w.pairs.filter.text() == "dn"
    assert not store.review.verdicts()
    wait_idle(qtbot, w)


def test_not_duplicate_keeps_two_apart_in_the_groups(qtbot, scanned):
    w = scanned
    group = next(g for g in w.collection.grouping.groups if len(g.members) >= 2)
    a, b = sorted(group.members[:2])
    assert w.pairs.select_pair(a, b)
    assert w.review.mark("not_duplicate")
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: not w.collection.regrouping(), timeout=5000)
    together = [g for g in w.collection.grouping.groups if a in g.members and b in g.members]
    assert not together
    assert w.review.undo_last()
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: any(a in g.members and b in g.members for g in w.collection.grouping.groups),
                    timeout=5000)


def test_review_keys_away_from_the_pairs_tab_mark_nothing(qtbot, scanned):
    """On the Groups tab the compare view shows a member beside its principal, while the
    hidden pairs list keeps its own selection: N marked that pair, not the one on screen."""
    w = scanned
    store = w.collection.store
    w.pairs.select_row(0)
    hidden = w.pairs.current_pair()
    w.tabs.setCurrentWidget(w.clusters)
    w.clusters.setFocus()
    with qtbot.waitSignal(w.review.elsewhere, timeout=2000):
        qtbot.keyClick(w.clusters, Qt.Key.Key_N)
    qtbot.keyClick(w.clusters, Qt.Key.Key_D)
    qtbot.keyClick(w.clusters, Qt.Key.Key_J)
    assert not store.review.verdicts()
    assert w.pairs.current_pair().pair_id == hidden.pair_id  # J did not move the hidden selection
    assert "Pairs tab" in w.statusBar().currentMessage()
    w.tabs.setCurrentWidget(w.pairs)  # back on the list the keys work
    w.pairs.table.setFocus()
    qtbot.keyClick(w.pairs.table, Qt.Key.Key_N)
    assert store.review.verdicts() == {(hidden.a, hidden.b): "not_duplicate"}
    wait_idle(qtbot, w)


def test_tab_leaves_the_pairs_table_without_changing_the_pair(qtbot, scanned):
    """Tab moved cell by cell and, past the last column, to the next pair's row: a reviewer
    tabbing towards the texts changed the pair a following D or N marks."""
    w = scanned
    w.show()
    w.pairs.select_row(0)
    w.pairs.table.setFocus()
    qtbot.waitUntil(w.pairs.table.hasFocus, timeout=2000)
    first = w.pairs.current_pair()
    for _ in range(12):
        qtbot.keyClick(w.focusWidget(), Qt.Key.Key_Tab)
    assert w.pairs.current_pair().pair_id == first.pair_id
    assert not w.pairs.table.hasFocus()
    wait_idle(qtbot, w)
