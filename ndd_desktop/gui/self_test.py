"""``ndd-desktop --self-test``: check an installation (a bundle, a package) end to end.

Builds the real window, opens the bundled demo collection in a private temporary data
folder (nothing of the user's is read or written), scans it on the worker thread and waits
until its pairs are shown and grouped. Prints one line and returns 0 when all of that
worked, 1 otherwise. Every module the window needs is imported on the way, the export's
included, so a package missing from a bundle shows up here and not in a user's hands.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

#: Longest wait for the demo's scan and its pairs (the demo scans in seconds).
TIMEOUT_S = 300.0


def run_self_test(timeout_s: float = TIMEOUT_S) -> int:
    """Open, scan and show the demo collection; 0 when it worked (the QApplication exists)."""
    from PySide6.QtCore import QEventLoop, QTimer

    from .main_window import MainWindow
    from .settings import Settings

    with tempfile.TemporaryDirectory(prefix="ndd-self-test-") as tmp:
        window = MainWindow(settings=Settings.at(str(Path(tmp) / "settings.ini")), data_dir=Path(tmp))
        window.show()
        loop = QEventLoop()
        verdict: list[str] = []
        deadline = time.monotonic() + timeout_s

        def poll() -> None:
            outcome = window.scan.outcome
            shown = window.pairs.model.total_rows()
            grouped = window.collection is not None and window.collection.grouping is not None
            if outcome.startswith("failed") or outcome == "cancelled":
                verdict.append(f"the demo's scan ended: {outcome}")
            elif outcome == "finished" and shown and grouped and not window.scan.running():
                verdict.append("")
            elif time.monotonic() > deadline:
                verdict.append(f"no pairs shown after {timeout_s:.0f} s (scan: {outcome or 'not ended'})")
            if verdict:
                timer.stop()
                loop.quit()

        timer = QTimer()
        timer.timeout.connect(poll)
        timer.start(100)
        if not window.open_demo():
            timer.stop()
            verdict.append("the demo collection could not be opened")
        else:
            loop.exec()
        shown = window.pairs.model.total_rows()
        window.close()
        window.deleteLater()
    if verdict and verdict[0]:
        print(f"ndd-desktop: self-test failed: {verdict[0]}", file=sys.stderr)
        return 1
    print(f"ndd-desktop: self-test passed: the demo collection scanned, {shown} pairs shown")
    return 0
