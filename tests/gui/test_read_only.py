"""A collection file that cannot be written opens for reading, with a banner and no review;
a damaged one is refused with a message, never a traceback."""

from __future__ import annotations

import os
import sqlite3

from gui_helpers import wait_idle


def test_a_read_only_collection_opens_with_a_banner_and_review_disabled(qtbot, scanned, tmp_path):
    window = scanned
    path = window.collection.store.path
    window._close_collection()
    os.chmod(path, 0o444)
    os.chmod(os.path.dirname(path), 0o555)
    try:
        # As root chmod does not stop writes (os.access says writable), so the window is then
        # told to open read-only, as it does by itself for a file it cannot write.
        automatic = not os.access(path, os.W_OK)
        assert window.open_store(path, read_only=None if automatic else True)
        wait_idle(qtbot, window)
        assert window.collection.store.read_only
        assert window.read_only_banner.isVisible() and "Read-only" in window.read_only_banner.text()
        assert window.collection.data.arrays.score.size > 0  # the pairs are there to look at
        assert window.review.next.isEnabled()
        assert not window.review.duplicate.isEnabled() and not window.review.not_duplicate.isEnabled()
        assert not window.review.mark("duplicate")
        assert not window.actions_["scan"].isEnabled() and not window.setup.scan_button.isEnabled()
        assert not window.start_scan()
        assert window.actions_["export"].isEnabled()
        window.clusters.keep_button.setEnabled(True)
        window.clusters.select_document(window.collection.grouping.groups[0].members[-1])
        assert not window.clusters.keep_button.isEnabled()
        assert window.collection.store.review.verdicts() == {}  # nothing was written
        # the folders stay as they are: no adding, removing or ticking
        assert not window.setup.folders.isEnabled() and not window.setup.add_button.isEnabled()
        assert not window.setup.remove_button.isEnabled()
        assert not window.setup.add_folder(str(tmp_path))
        assert "read-only" in window.statusBar().currentMessage()
        assert [p for p, _ in window.setup.roots()] == [r.path for r in window.collection.store.documents.roots()]
    finally:
        os.chmod(os.path.dirname(path), 0o755)
        os.chmod(path, 0o644)
    window._close_collection()
    assert window.open_store(path)
    wait_idle(qtbot, window)
    assert not window.read_only_banner.isVisible() and window.setup.scan_button.isEnabled()
    assert window.setup.folders.isEnabled() and window.setup.add_button.isEnabled()


def _damage(path: str, tables: tuple[str, ...], width: int) -> None:
    """Overwrite the start of every page of ``tables`` (and indexes) in the file with 0xff."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    marks = ", ".join("?" * len(tables))
    pages = [r[0] for r in conn.execute(f"SELECT pageno FROM dbstat WHERE name IN ({marks})", tables)]
    conn.close()
    with open(path, "r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * page_size)
            fh.write(b"\xff" * width)


def test_a_damaged_collection_is_refused_with_a_message(qtbot, scanned):
    window = scanned
    path = window.collection.store.path
    window._close_collection()
    _damage(path, ("roots",), 16)
    assert not window.open_store(path)
    assert "is damaged" in window.statusBar().currentMessage()
    assert window.collection is None and window.stack.currentIndex() == 0


def test_a_collection_damaged_where_only_its_pairs_lie_is_closed_when_found(qtbot, scanned):
    """A file damaged in its middle opens (its folders and settings read well) and fails
    when its pairs are loaded, on a worker: the window showed it as opened, said "No pairs
    yet: scan the folders", and a scan wrote into it. Found damaged, it is closed as a
    refused one is, with the message."""
    window = scanned
    path = window.collection.store.path
    window._close_collection()
    _damage(path, ("pairs", "ix_pairs_set_score"), 64)
    window.open_store(path)
    qtbot.waitUntil(lambda: window.collection is None, timeout=10000)
    assert "is damaged" in window.statusBar().currentMessage()
    assert window.stack.currentIndex() == 0
    assert path not in window.settings.recent()
    assert not window.start_scan()


def test_an_empty_file_is_not_opened_as_a_new_collection(qtbot, window, tmp_path):
    """A 0-byte file (a copy that failed) opened as a collection became a new, empty one:
    the window wrote a schema into it and ndd check said it was not an SQLite file."""
    empty = tmp_path / "copy.ndd"
    empty.write_bytes(b"")
    assert not window.open_store(str(empty))
    assert "is empty" in window.statusBar().currentMessage()
    assert empty.stat().st_size == 0 and window.collection is None
