"""What the window says after each outcome, and where: a cancelled scan's progress, the
progress panel of another collection, a scan without pairs or without documents, the status
bar after the threshold moved, and the verdict column and message at 1280x800."""

from __future__ import annotations

import pytest

from pathlib import Path

from gui_helpers import make_collection, scan, wait_idle
from PySide6.QtCore import Qt

from ndd_desktop.gui.pair_model import COLUMNS

VERDICT = COLUMNS.index("Verdict")


# -- 1. a cancelled scan ---------------------------------------------------------------------
def test_cancelled_scan_shows_where_it_stopped_not_a_full_bar(qtbot, window, tmp_path):
    big = make_collection(tmp_path / "big", families=100, copies=4, singles=400, words=300, broken=False)
    window.open_folder(str(big))
    seen = []  # every report the bar was given (the window's own slot runs first)
    window.scan.progress.connect(seen.append)
    # cancelled at the first report of the reading stage: reading is quick now (chunks of
    # files per worker), and a cancel that waits for files read can arrive after the last
    window.scan.progress.connect(lambda p: p.stage == "extract" and window.cancel_scan())
    with qtbot.waitSignal(window.scan.done, timeout=240000):
        assert window.start_scan()
    assert window.scan.outcome == "cancelled"
    last = seen[-1]
    assert last.total and last.done < last.total  # the scan did stop part-way
    bar, label = window.progress.bar, window.progress.label.text()
    assert window.progress.isVisible()
    assert (bar.minimum(), bar.maximum(), bar.value()) == (0, last.total, last.done)
    assert bar.value() < bar.maximum()
    assert bar.text().startswith("Cancelled at ") and bar.text() != "Cancelled at 100%"
    assert "100%" not in bar.text()
    assert label.startswith("Cancelled while reading documents. ")
    # the count the collection holds, not the last report's (documents read after it are kept)
    kept = window.collection.store.documents.count(status=None)
    assert kept >= last.done and f"What was read is kept: the collection holds {kept:,} document" in label
    # a new scan starts from a clean bar, and finishing fills it
    window.scan.progress.disconnect()
    window.scan.progress.connect(window.progress.update_progress)
    scan(qtbot, window, timeout=240000)
    assert window.progress.label.text().startswith("Done")
    assert bar.value() == bar.maximum() and "Cancelled" not in bar.text()


# -- 2. the progress panel belongs to the collection scanned in this window ------------------
def test_progress_panel_is_hidden_for_a_collection_not_scanned_here(qtbot, scanned, tmp_path):
    w = scanned
    first = w.collection.path
    assert w.progress.isVisible() and w.progress.label.text().startswith("Done")
    other = make_collection(tmp_path / "other", families=1, copies=2, singles=1, broken=False, seed=3)
    assert w.open_folder(str(other))
    assert w.progress.isHidden() and w.progress.label.text() == ""
    # coming back to the first collection: its old "Done" is not shown either
    assert w.open_store(first)
    wait_idle(qtbot, w)
    assert w.progress.isHidden() and w.progress.label.text() == ""


# -- 3. a finished scan without a single pair ------------------------------------------------
def test_scan_without_pairs_says_none_were_found_at_the_floor(qtbot, window, tmp_path):
    unrelated = make_collection(tmp_path / "unrelated", families=0, singles=5, broken=False)
    window.open_folder(str(unrelated))
    # before the first scan, moving the threshold does not pretend to count
    window.threshold.set_threshold(0.8)
    qtbot.wait(300)
    assert "…" not in window.threshold.counts_label.text()
    assert "No pairs yet" in window.threshold.counts_label.text()
    scan(qtbot, window)
    data = window.collection.data
    assert len(data.arrays) == 0 and data.documents == 5 and data.docs == {}  # no pair: no document to name
    text = window.threshold.counts_label.text()
    assert f"No near-duplicates found at or above {data.floor:.2f}" in text
    assert "…" not in text
    # and it stays plain when the threshold moves (no "… groups" that never come)
    window.threshold.set_threshold(0.75)
    qtbot.wait(400)
    text = window.threshold.counts_label.text()
    assert f"No near-duplicates found at or above {data.floor:.2f}" in text and "…" not in text
    assert window.threshold.source.text() == f"{data.method} pairs"


# -- 4. the status bar follows the threshold -------------------------------------------------
def test_status_bar_shows_the_current_threshold(qtbot, scanned):
    w = scanned
    start = w.threshold.threshold()
    assert f"at the threshold {start:.2f}" in w.statusBar().currentMessage()
    for t in (0.9, 0.55):
        w.threshold.set_threshold(t)
        message = w.statusBar().currentMessage()
        assert f"{start:.2f}" not in message or f"{t:.2f}" in message
        assert f"{w.pairs.model.total_rows():,} at the threshold {t:.2f}." in message
    wait_idle(qtbot, w)


# -- 5. an empty folder, and one whose files cannot be read ----------------------------------
def test_empty_folder_says_it_holds_no_readable_documents(qtbot, window, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    window.open_folder(str(empty))
    scan(qtbot, window)
    label = window.progress.label.text()
    assert label == "Done: the folder holds no readable documents."
    assert "Errors tab" not in label
    counts = window.threshold.counts_label.text()
    assert "No documents to compare" in counts and "Errors tab" not in counts  # it is empty: nothing to see there
    assert window.open_export() is None  # nothing to export
    assert "Nothing to export" in window.statusBar().currentMessage()


def test_unreadable_files_point_to_the_errors_tab(qtbot, window, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    (bad / "broken.docx").write_bytes(b"PK\x03\x04 not a zip at all")
    window.open_folder(str(bad))
    scan(qtbot, window)
    label = window.progress.label.text()
    assert label.startswith("Done: the folder holds no readable documents.")
    assert "2 files could not be read: see the Errors tab." in label
    assert window.tabs.currentIndex() == 3 and window.errors.count() == 2
    assert "(2 files could not be read: see the Errors tab)" in window.threshold.counts_label.text()


# -- 6. the verdict at 1280x800 ---------------------------------------------------------------
def test_verdict_column_is_visible_at_1280_and_each_verdict_is_announced(qtbot, window, folder):
    window.resize(1280, 800)
    assert window.open_folder(str(folder))
    scan(qtbot, window)
    qtbot.waitUntil(lambda: window.width() == 1280)
    table = window.pairs.table
    x = table.columnViewportPosition(VERDICT)
    assert x >= 0 and x + table.columnWidth(VERDICT) <= table.viewport().width()
    # the path columns still come first among the documents' columns, the model's order is kept
    assert window.pairs.model.headerData(VERDICT, Qt.Orientation.Horizontal) == "Verdict"
    window.pairs.select_row(0)
    pair = window.pairs.current_pair()
    docs = window.collection.data.docs
    from ndd_desktop.gui.formatting import doc_label

    # as the tables name them (folder and path): two copies of one file name are told apart
    name_a, name_b = (doc_label(docs[d]) for d in (pair.a, pair.b))
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_D)
    assert window.pairs.model.data(window.pairs.model.index(window.pairs.model.row_of(pair.a, pair.b),
                                                            VERDICT)) == "duplicate"
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Marked duplicate: {name_a} ~ {name_b}") and "Ctrl+Z" in message
    second = window.pairs.current_pair()
    qtbot.keyClick(table, Qt.Key.Key_N)
    assert window.statusBar().currentMessage().startswith(
        f"Marked not duplicate: {doc_label(docs[second.a])} ~ {doc_label(docs[second.b])}")
    qtbot.keyClick(table, Qt.Key.Key_U)
    assert window.statusBar().currentMessage().startswith("Undone")
    wait_idle(qtbot, window)


# -- other polish ------------------------------------------------------------------------------
def test_a_scan_stopped_for_memory_shows_its_advice_as_a_sentence(qtbot, window, tmp_path, monkeypatch):
    from ndd_desktop.pipeline import memory_guard

    folder = make_collection(tmp_path / "c", families=2, copies=3, singles=2, broken=False)
    window.open_folder(str(folder))
    # the machine "has" 1 GB and the scan holds 2: the guard stops it at its first checkpoint
    monkeypatch.setattr(memory_guard, "physical_memory", lambda: 2**30)
    monkeypatch.setattr(memory_guard, "resident_memory", lambda: 2 * 2**30)
    with qtbot.waitSignal(window.scan.done, timeout=240000):
        assert window.start_scan()
    assert window.scan.outcome.startswith("failed: the pair search stopped at 2.0 GB")  # no "ScanStopped:"
    label = window.progress.label.text()
    assert label.startswith("Failed while ") and ". The pair search stopped at 2.0 GB of memory" in label
    assert "ScanStopped" not in label and "--floor 0.6" in label
    assert window.progress.label.toolTip() == label  # whole, where the panel cuts a long advice
    assert window.statusBar().currentMessage().startswith("The scan stopped: The pair search stopped at 2.0 GB")


def test_progress_bar_stays_in_view_at_1280x800_with_a_long_outcome(qtbot, window, tmp_path):
    window.resize(1280, 800)
    empty = tmp_path / "a folder with a rather long name so the store path wraps"
    empty.mkdir()
    assert window.open_folder(str(empty))
    window.progress.start()
    window.progress.finish("Done: the folder holds no readable documents. 2 files could not be read: "
                           "see the Errors tab.")  # three lines, like a cancelled scan's
    qtbot.waitUntil(lambda: window.width() == 1280)
    qtbot.wait(50)
    bar = window.progress.bar
    assert bar.visibleRegion().boundingRect().height() == bar.height() > 0


@pytest.mark.parametrize("size", [(1280, 800), (1024, 700)])
def test_the_progress_and_cancel_stay_in_view_whatever_the_method(qtbot, window, tmp_path, size):
    """minhash's and hybrid's parameters made the settings taller than the window: the
    progress line and Cancel scrolled out of sight below them during a scan."""
    from PySide6.QtCore import Qt

    window.resize(*size)
    folder = tmp_path / "docs"
    folder.mkdir()
    assert window.open_folder(str(folder))
    methods = window.setup.methods
    for name in ("qgram", "minhash", "hybrid"):
        (row,) = [i for i in range(methods.count()) if methods.item(i).data(Qt.ItemDataRole.UserRole) == name]
        methods.setCurrentRow(row)
        window.progress.start()
        qtbot.wait(50)
        for widget in (window.progress.label, window.progress.cancel_button):
            shown = widget.visibleRegion().boundingRect()
            assert widget.isVisible() and shown.height() == widget.height() > 0, (name, widget.objectName())
        window.progress.reset()


def test_export_summary_names_the_keeper_rule_as_the_groups_tab_does(qtbot, scanned):
    from ndd_desktop.gui.cluster_tree import RULE_LABELS

    dialog = scanned.open_export()
    assert dialog is not None
    text = dialog.summary.text()
    assert RULE_LABELS[scanned.collection.keeper_rule] in text
    assert f"<b>{scanned.collection.keeper_rule}</b>" not in text
    assert "Make keeper" in text
    dialog.done(0)


def test_root_names_tell_apart_folders_of_one_name():
    from ndd_desktop.gui.formatting import root_names

    names = root_names(["/data/a/letters", "/data/b/letters", "/data/holdings", "/x/a/letters2"])
    assert names == {"/data/a/letters": "a/letters", "/data/b/letters": "b/letters",
                     "/data/holdings": "holdings", "/x/a/letters2": "letters2"}
    deeper = root_names(["/p/q/a/docs", "/r/q/a/docs"])
    assert deeper == {"/p/q/a/docs": "p/q/a/docs", "/r/q/a/docs": "r/q/a/docs"}


def test_two_folders_of_one_name_are_labelled_apart_in_the_pairs(qtbot, window, tmp_path):
    a, b = tmp_path / "a" / "docs", tmp_path / "b" / "docs"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    text = "the harbour board met to discuss the dredging of the channel and the new quay " * 20
    (a / "report.txt").write_text(text)
    (b / "report.txt").write_text(text + " addendum")
    assert window.open_folder(str(a))
    window.setup.add_folder(str(b))
    scan(qtbot, window)
    wait_idle(qtbot, window)
    model = window.pairs.model
    assert model.total_rows() == 1
    shown = {model.data(model.index(0, c)) for c in range(model.columnCount())}
    assert {"a/docs/report.txt", "b/docs/report.txt"} <= shown
