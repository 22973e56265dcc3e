"""Flow 10: the export dialog runs the export on the worker thread with progress."""

from __future__ import annotations

import os


def test_export_dialog_runs_in_the_background(qtbot, scanned, tmp_path):
    w = scanned
    dialog = w.open_export()
    assert dialog is not None and dialog.isVisible()
    dest = tmp_path / "export"
    dialog.dest.setText(str(dest))
    dialog.mode.setCurrentIndex(dialog.mode.findData("copy"))
    dialog.bagit.setChecked(True)
    dialog.reports["html"].setChecked(False)
    progress = []
    with qtbot.waitSignal(dialog.exported, timeout=120000) as blocker:
        assert dialog.start()
        dialog.worker.progress.connect(progress.append)
        assert dialog.progress.isVisible()
    result = blocker.args[0]
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=5000)
    assert result.ok and result.bag and result.bag_valid
    assert os.path.isfile(dest / "bagit.txt")
    names = {os.path.basename(r) for r in result.reports}
    assert any(n.endswith(".csv") for n in names) and not any(n.endswith(".html") for n in names)
    groups = w.collection.grouping.groups
    every = len(w.collection.store.documents.all(status=None))  # unreadable files are exported too
    assert 0 < result.files_planned <= every - sum(len(g.members) - 1 for g in groups)
    assert f"Exported {result.files_planned:,} of {result.files_planned:,} files" in dialog.status.text()
    assert result.left_out > 0 and f"· {result.left_out:,} documents left out" in dialog.status.text()
    assert dialog.progress.isVisible() and dialog.progress.value() == dialog.progress.maximum()
    dialog.close()


def test_export_refuses_a_bad_destination(qtbot, scanned, folder):
    dialog = scanned.open_export()
    dialog.dest.setText(str(folder / "inside"))  # inside a scanned folder: refused
    assert dialog.start() is True  # the export's plan (on the worker) refuses it
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=30000)
    assert "Export failed" in dialog.status.text() and "inside" in dialog.status.text()
    assert "ExportError" not in dialog.status.text()  # the message is written for the user
    assert not dialog.progress.isVisible()  # no full bar beside a failure
    assert not (folder / "inside").exists()
    dialog.close()


def test_the_export_stages_are_named_in_words():
    """They read "Plan · 0" and "Copy · 45 of 500"."""
    from ndd_desktop.gui.scan_progress import EXPORT_STAGE_NAMES, describe
    from ndd_desktop.pipeline.progress import Progress

    assert describe(Progress("plan", 0, None, "", 0.0, None), EXPORT_STAGE_NAMES) == "Planning the export…"
    assert describe(Progress("copy", 45, 500, "", 0.0, None), EXPORT_STAGE_NAMES) == "Copying files · 45 of 500"
    assert describe(Progress("walk", 0, None, "", 0.0, None)) == "Finding files…"


def test_the_export_dialog_shows_again_what_was_chosen(qtbot, scanned, tmp_path):
    # Esc lost a typed destination and the BagIt choice: the next Ctrl+E showed an empty form
    dialog = scanned.open_export()
    dialog.dest.setText(str(tmp_path / "out"))
    dialog.bagit.setChecked(True)
    dialog.reports["html"].setChecked(False)
    dialog.reject()  # Esc
    qtbot.waitUntil(lambda: scanned.export_dialog is None, timeout=5000)
    again = scanned.open_export()
    assert again.dest.text() == str(tmp_path / "out") and again.bagit.isChecked()
    assert not again.reports["html"].isChecked() and again.reports["csv"].isChecked()
    again.close()
