"""What one collection's views and decisions must never do to another: stale views after
opening another collection, removing a folder without asking, two folders of the same name
sharing a store, Undo after Make keeper, a window too wide for a small screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import make_collection, scan, wait_idle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from ndd_desktop.gui import resources
from ndd_desktop.store import Root, Store


# -- opening another collection --------------------------------------------------------------
@pytest.mark.parametrize("kind", ["never scanned", "empty"])
def test_opening_another_collection_leaves_nothing_of_the_first(qtbot, scanned, tmp_path, kind):
    w = scanned
    first = w.collection.path
    assert w.pairs.model.total_rows() > 0 and w.clusters.groups
    w.pairs.select_row(0)
    stale = w.pairs.current_pair()
    assert stale is not None and w.review.duplicate.isEnabled()
    other = tmp_path / "other"
    if kind == "empty":
        other.mkdir()
    else:
        make_collection(other, families=1, copies=2, singles=1, broken=False, seed=99)
    assert w.open_folder(str(other))
    assert w.collection.path != first and w.collection.data is None
    # every view that showed the first collection is empty
    assert w.pairs.model.total_rows() == 0 and w.pairs.current_pair() is None
    assert not w.pairs.model.has_pairs()
    assert w.clusters.model.rowCount() == 0 and not w.clusters.groups and w.clusters.summary.text() == ""
    assert int(w.threshold.histogram.counts.sum()) == 0
    assert "No pairs yet" in w.threshold.counts_label.text()
    assert w.progress.isHidden()
    assert w.methods.result is None and w.methods.model.rowCount() == 0 and w.methods.set_a.count() == 0
    assert w.compare.text_a.toPlainText() == "" and w.compare.text_b.toPlainText() == ""
    # and no key can judge a pair into the new collection's store
    for action in (w.review.duplicate, w.review.not_duplicate, w.review.clear, w.review.undo):
        assert not action.isEnabled(), action.text()
    w.pairs.table.setFocus()
    qtbot.keyClick(w.pairs.table, Qt.Key.Key_D)
    qtbot.keyClick(w.pairs.table, Qt.Key.Key_N)
    assert not w.review.mark("duplicate")
    assert w.collection.store.review.verdicts() == {}
    assert w.collection.store.review.history() == []


def test_review_keys_come_back_with_the_new_collections_pairs(qtbot, scanned, tmp_path):
    w = scanned
    other = make_collection(tmp_path / "other", families=2, copies=2, singles=1, broken=False, seed=5)
    assert w.open_folder(str(other))
    assert not w.review.duplicate.isEnabled()
    scan(qtbot, w)
    assert w.review.duplicate.isEnabled() and w.pairs.model.total_rows() > 0
    ids = {d.id for d in w.collection.store.documents.all()}
    w.pairs.select_row(0)
    pair = w.pairs.current_pair()
    assert {pair.a, pair.b} <= ids  # a pair of this collection
    assert w.review.mark("duplicate")
    assert w.collection.store.review.verdicts() == {(pair.a, pair.b): "duplicate"}
    wait_idle(qtbot, w)


# -- removing a folder -----------------------------------------------------------------------
@pytest.fixture
def two_folders(qtbot, window, tmp_path):
    """The window with a collection of two folders, scanned, one verdict in folder ``a``."""
    a = make_collection(tmp_path / "a", families=2, copies=3, singles=2, broken=False, seed=3)
    b = make_collection(tmp_path / "b", families=2, copies=2, singles=1, broken=False, seed=4)
    assert window.open_folder(str(a))
    window.setup.add_folder(str(b))
    scan(qtbot, window)
    return window, a, b


def _row_of(setup, path: Path) -> int:
    return [p for p, _ in setup.roots()].index(str(path))


def test_removing_a_folder_asks_first_and_refreshes_the_views(qtbot, two_folders, monkeypatch):
    w, a, b = two_folders
    store = w.collection.store
    in_a = {d.id for d in store.documents.all(status=None) if d.root == str(a)}
    pair = next(p for p in map(w.pairs.model.pair, range(w.pairs.model.total_rows())) if p.a in in_a)
    assert w.pairs.select_pair(pair.a, pair.b) and w.review.mark("duplicate")
    wait_idle(qtbot, w)
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.Cancel]

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return answer[0]

    monkeypatch.setattr(QMessageBox, "question", question)
    w.setup.folders.setCurrentRow(_row_of(w.setup, a))
    # Cancel: nothing changes
    assert not w.setup.remove_selected()
    assert len(asked) == 1
    assert f"{len(in_a):,} documents" in asked[0]
    assert "1 review decision " in asked[0]
    assert "files on disk are not touched" in asked[0]
    assert [p for p, _ in w.setup.roots()] == [str(a), str(b)]
    assert {d.id for d in store.documents.all(status=None) if d.root == str(a)} == in_a
    # Yes: the folder, its documents and their pairs leave; the views are read again
    answer[0] = QMessageBox.StandardButton.Yes
    w.setup.folders.setCurrentRow(_row_of(w.setup, a))
    assert w.setup.remove_selected()
    assert [p for p, _ in w.setup.roots()] == [str(b)]
    assert not any(d.root == str(a) for d in store.documents.all(status=None))

    def shown_ids() -> set[int]:
        m = w.pairs.model
        return {x for r in range(m.total_rows()) for x in (m.pair(r).a, m.pair(r).b)}

    qtbot.waitUntil(lambda: w.pairs.model.total_rows() > 0 and not (shown_ids() & in_a), timeout=10000)
    wait_idle(qtbot, w)
    groups = w.collection.grouping.groups
    assert groups and not any(set(g.members) & in_a for g in groups)
    assert w.review.duplicate.isEnabled()


def test_removing_a_folder_without_documents_does_not_ask(qtbot, two_folders, tmp_path, monkeypatch):
    w, a, b = two_folders
    extra = tmp_path / "never-scanned"
    extra.mkdir()
    w.setup.add_folder(str(extra))

    def question(*args, **kwargs):
        raise AssertionError("asked about a folder with no documents")

    monkeypatch.setattr(QMessageBox, "question", question)
    w.setup.folders.setCurrentRow(_row_of(w.setup, extra))
    assert w.setup.remove_selected()
    assert [p for p, _ in w.setup.roots()] == [str(a), str(b)]
    wait_idle(qtbot, w)


# -- folders of the same name ----------------------------------------------------------------
def test_folders_of_the_same_name_get_their_own_collections(window, tmp_path, data_dir):
    first, second = tmp_path / "a" / "letters", tmp_path / "b" / "letters"
    for f in (first, second):
        f.mkdir(parents=True)
    assert window.open_folder(str(first))
    first_store = window.collection.path
    assert window.open_folder(str(second))
    assert window.collection.path != first_store
    assert [r.path for r in window.collection.store.documents.roots()] == [str(second)]
    assert window.windowTitle() == f"letters ({second}) — ndd-desktop"  # the two are told apart
    assert window.open_folder(str(first))  # and the first comes back as it was
    assert window.collection.path == first_store
    assert [r.path for r in window.collection.store.documents.roots()] == [str(first)]


def test_a_collection_made_under_the_old_name_is_found_for_its_own_folder_only(window, tmp_path, data_dir):
    first, second = tmp_path / "a" / "letters", tmp_path / "b" / "letters"
    for f in (first, second):
        f.mkdir(parents=True)
    legacy = resources.default_store_path("letters", data_dir)  # <name>.ndd.sqlite, as earlier releases named it
    legacy.parent.mkdir(parents=True)
    with Store.open(legacy) as store:
        store.documents.set_roots([Root(str(first), False)])
    assert resources.folder_store_path(first, data_dir) == legacy
    assert window.open_folder(str(first))
    assert window.collection.path == str(legacy)
    assert window.open_folder(str(second))
    assert window.collection.path == str(resources.folder_store_path(second, data_dir)) != str(legacy)
    window._close_collection()
    with Store.open(legacy, create=False) as store:
        assert [r.path for r in store.documents.roots()] == [str(first)]  # not merged with the second
    # an old-name store of two folders is not "this folder's" collection either
    with Store.open(legacy, create=False) as store:
        store.documents.set_roots([Root(str(first), False), Root(str(second), False)])
    assert resources.folder_store_path(first, data_dir) != legacy


# -- undo after Make keeper ------------------------------------------------------------------
def test_undo_after_make_keeper_puts_the_keeper_back_then_the_verdict(qtbot, scanned):
    w = scanned
    store = w.collection.store
    assert not w.review.undo.isEnabled()  # nothing to undo yet
    w.pairs.select_row(0)
    pair = w.pairs.current_pair()
    assert w.review.mark("duplicate")
    assert w.review.undo.isEnabled()
    wait_idle(qtbot, w)
    w.tabs.setCurrentIndex(1)
    qtbot.waitUntil(w.clusters.fully_filled, timeout=5000)
    group = next(g for g in w.collection.grouping.groups if len(g.members) >= 2)
    other = next(m for m in group.members if m != group.keeper)
    assert w.clusters.select_document(other)
    qtbot.mouseClick(w.clusters.keep_button, Qt.MouseButton.LeftButton)
    assert store.review.keepers() == {other}
    qtbot.waitUntil(lambda: not w.collection.regrouping() and w.clusters.keeper_of(group.group_id) == other,
                    timeout=5000)
    # Ctrl+Z on the Groups tab undoes the keeper choice, not the verdict before it
    w.clusters.view.setFocus()
    qtbot.keyClick(w.clusters.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert store.review.keepers() == set()
    assert store.review.verdicts() == {(pair.a, pair.b): "duplicate"}
    assert "keeper" in w.statusBar().currentMessage()
    qtbot.waitUntil(lambda: not w.collection.regrouping() and w.clusters.keeper_of(group.group_id) == group.keeper,
                    timeout=5000)
    assert w.review.undo.isEnabled()
    qtbot.keyClick(w.clusters.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert store.review.verdicts() == {}
    assert not w.review.undo.isEnabled()  # nothing left to undo
    assert not w.review.undo_last()
    wait_idle(qtbot, w)


def test_undoing_a_keeper_change_restores_the_keeper_chosen_before(qtbot, scanned):
    w = scanned
    store = w.collection.store
    group = next(g for g in w.collection.grouping.groups if len(g.members) >= 3)
    first, second = [m for m in group.members][:2]
    w.collection.set_keeper(first, list(group.members))
    w.collection.set_keeper(second, list(group.members))
    assert store.review.keepers() == {second}
    assert w.review.undo_last()
    assert store.review.keepers() == {first}
    assert w.review.undo_last()
    assert store.review.keepers() == set()
    assert not w.collection.can_undo()
    wait_idle(qtbot, w)


# -- a small screen --------------------------------------------------------------------------
def test_the_workspace_fits_a_small_screen(qtbot, scanned):
    w = scanned
    w.tabs.setCurrentIndex(1)  # the Groups tab has the widest toolbar
    qtbot.waitUntil(w.clusters.fully_filled, timeout=5000)
    assert w.minimumSizeHint().width() <= 1000
    assert w.minimumSizeHint().height() <= 700
    w.resize(1000, 680)
    QApplication.processEvents()
    qtbot.waitUntil(lambda: w.width() <= 1000 and w.height() <= 680, timeout=2000)
    # the left panel can be narrowed in its splitter
    left = w.split.widget(0)
    assert max(left.minimumWidth(), left.minimumSizeHint().width()) <= 240
