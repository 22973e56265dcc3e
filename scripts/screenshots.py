"""Take the screenshots of the window's main states for docs/ (under Xvfb or offscreen).

    xvfb-run -a -s "-screen 0 1920x1080x24" python scripts/screenshots.py

(without a display the script starts itself under ``xvfb-run``). It opens the demo
collection in a private data folder, drives the window through its main states and writes
PNGs into docs/screenshots/: start page, scan in progress, pairs with the compare view,
groups, the group view, the threshold panel, the methods tab and the export dialog, at 1280x800, plus the
pairs at 1920x1080. Nothing is written into resources/.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def _relaunch_under_xvfb() -> int:
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        return -1
    cmd = [xvfb, "-a", "-s", "-screen 0 1920x1080x24", sys.executable, *sys.argv]
    return subprocess.call(cmd, env={**os.environ, "NDD_SCREENSHOTS_CHILD": "1"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(REPO / "docs" / "screenshots"), help="folder for the PNGs")
    args = parser.parse_args()
    if not (os.environ.get("DISPLAY") or os.environ.get("QT_QPA_PLATFORM")) and not os.environ.get("NDD_SCREENSHOTS_CHILD"):
        code = _relaunch_under_xvfb()
        if code >= 0:
            return code

    import ndd_desktop.gui  # noqa: F401 - applies the PySide6 compatibility fix
    from PySide6.QtCore import QEventLoop
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    from ndd_desktop.gui.app import create_application
    from ndd_desktop.gui.main_window import MainWindow
    from ndd_desktop.gui.settings import Settings

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = create_application()
    work = Path(tempfile.mkdtemp(prefix="ndd-shots-"))

    def pump(cond=None, timeout: float = 60.0) -> None:
        """Run the event loop until ``cond()`` holds (or for ``timeout`` s when no cond)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 30)
            if cond is not None and cond():
                return
        if cond is not None:
            raise SystemExit("timed out waiting for the window")

    def shot(widget, name: str) -> None:
        for _ in range(5):
            app.processEvents()
        image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        path = out / f"{name}.png"
        image.save(str(path))
        print(f"wrote {path} ({image.width()}x{image.height()})")

    def idle(w) -> bool:
        c = w.collection
        return (not w.scan.running() and c is not None and c.data is not None and not c.busy()
                and c.grouping is not None and w.clusters.fully_filled() and not w.compare.busy())

    try:
        settings = Settings.at(str(work / "settings.ini"))
        w = MainWindow(settings=settings, data_dir=work / "data")
        w.resize(1280, 800)
        w.show()
        pump(timeout=0.5)
        shot(w, "start-empty")

        # scan in progress: throttle the scan's reports so one is on screen when we grab
        seen = []
        w.scan.progress.connect(lambda p: seen.append((p.stage, p.done)))
        w.open_demo()
        pump(lambda: any(s in ("extract", "sketch", "pairs") and d > 0 for s, d in seen) or not w.scan.running(), 120)
        shot(w, "scan-progress")
        pump(lambda: idle(w), 180)
        pump(timeout=0.5)

        # pairs with the compare view on a pair that differs
        model = w.pairs.model
        row = next((r for r in range(model.rowCount()) if 0.5 < model.pair(r).score < 0.98), 0)
        w.pairs.select_row(row)
        pump(lambda: w.compare.diff is not None and not w.compare.busy(), 30)
        w.compare.goto_change(+1)
        pump(timeout=0.3)
        shot(w, "pairs-compare")

        # groups
        w.tabs.setCurrentIndex(1)
        group = w.collection.grouping.groups[0]
        w.clusters.select_document(group.members[-1])
        pump(lambda: not w.compare.busy(), 30)
        pump(timeout=0.3)
        shot(w, "groups")

        # the group view of the largest group: the reference and each member's differences
        from ndd_desktop.gui.group_view import open_group

        largest = max(w.collection.grouping.groups, key=lambda g: len(g.members))
        dialog = open_group(w, largest.group_id)
        dialog.resize(1280, 800)
        pump(lambda: dialog._worker is None, 30)
        differing = [r for r in range(dialog.table.rowCount()) if "passage" in dialog.table.item(r, 4).text()]
        if differing:
            dialog.table.setCurrentCell(differing[0], 0)
        pump(timeout=0.3)
        shot(dialog, "group-view")
        dialog.close()

        # threshold lowered: more pairs, groups regrouped at once
        w.tabs.setCurrentIndex(0)
        w.threshold.set_threshold(max(w.collection.data.floor, 0.35))
        pump(lambda: idle(w) and abs(w.collection.threshold - w.threshold.threshold()) < 1e-9, 30)
        pump(timeout=0.3)
        shot(w, "threshold")
        shot(w.threshold, "threshold-panel")

        # a second method, and where the two agree
        w.tabs.setCurrentIndex(2)
        other = "minhash" if w.collection.data.method != "minhash" else "qgram"
        w.run_method(other)
        pump(lambda: idle(w), 180)
        w.tabs.setCurrentIndex(2)
        pump(lambda: not w.methods.busy() and w.methods.result is not None and w.methods.model.rowCount() > 0, 30)
        w.methods.view.setCurrentIndex(w.methods.model.index(w.methods.model.rowCount() - 1, 0))
        pump(lambda: not w.compare.busy(), 30)
        pump(timeout=0.3)
        shot(w, "methods")

        # export dialog
        dialog = w.open_export()
        if dialog is not None:
            dialog.dest.setText(str(work / "export"))
            pump(timeout=0.3)
            shot(dialog, "export-dialog")
            dialog.close()

        # start page with the demo among the recent collections; then a large screen
        w.tabs.setCurrentIndex(0)
        w.stack.setCurrentIndex(0)
        pump(timeout=0.3)
        shot(w, "start")
        w.stack.setCurrentIndex(1)
        w.resize(1920, 1080)
        pump(timeout=0.5)
        shot(w, "pairs-1920")
        w.close()
    finally:
        app.processEvents()
        shutil.rmtree(work, ignore_errors=True)
    QApplication.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
