"""The scan's progress: stage, count, rate and time left, with a Cancel button."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from .formatting import fmt_duration

STAGE_NAMES = {
    "walk": "Finding files",
    "extract": "Reading documents",
    "sketch": "Sketching",
    "pairs": "Comparing",
    "verify": "Checking pairs on their texts",
    "store": "Saving",
    "done": "Done",
}


#: The export's stages (``export.EXPORT_STAGES``), as its dialog names them.
EXPORT_STAGE_NAMES = {
    "plan": "Planning the export",
    "copy": "Copying files",
    "reports": "Writing the reports",
    "bag": "Making the bag",
    "validate": "Validating the bag",
    "done": "Done",
}


def describe(p: Any, names: dict[str, str] = STAGE_NAMES) -> str:
    """One line for a pipeline ``Progress``: stage, count, rate, time left (no count for a
    stage that counts nothing: "Planning the export", not "Plan · 0")."""
    stage = names.get(p.stage, str(p.stage).capitalize())
    if p.total is None and not p.done:
        return f"{stage}…"
    count = f"{p.done:,}" if p.total is None else f"{p.done:,} of {p.total:,}"
    parts = [stage, count]
    if p.rate:
        parts.append(f"{p.rate:,.0f}/s")
    if p.eta_s is not None:
        parts.append(f"{fmt_duration(p.eta_s)} left")
    return " · ".join(parts)


class ScanProgress(QWidget):
    """Progress bar, a line of text, the current file and Cancel.

    Hidden until a scan starts in this window for the open collection (``reset`` hides it
    again when a collection is opened or closed). After a scan it keeps the outcome: a
    finished scan fills the bar; a cancelled or failed one leaves the bar where the scan
    stopped and says so on it.
    """

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("scanProgressBar")
        self.bar.setToolTip("Progress of the current stage of the scan")
        self.label = QLabel(self)
        self.label.setObjectName("scanProgressLabel")
        self.label.setWordWrap(True)
        self.current = QLabel(self)
        self.current.setEnabled(False)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop the scan (Esc). What was read so far is kept; "
                                      "the next scan continues from there.")
        self.cancel_button.clicked.connect(self._cancel)
        row = QHBoxLayout()
        row.addWidget(self.label, 1)
        row.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 2, 6, 2)
        lay.addLayout(row)
        lay.addWidget(self.bar)
        lay.addWidget(self.current)
        self.last: Any = None  # the last Progress shown in this run
        self.hide()

    def _say(self, text: str, outcome: bool = False) -> None:
        """Show ``text`` on the label; an outcome (which can be long advice, cut at the panel's
        height on a small screen) is also the label's tooltip, whole."""
        self.label.setText(text)
        self.label.setToolTip(text if outcome else "")

    def start(self, title: str = "Starting the scan…") -> None:
        """Show the widget for a new run."""
        self.last = None
        self.bar.setRange(0, 0)
        self.bar.resetFormat()
        self._say(title)
        self.current.setText("")
        self.cancel_button.setEnabled(True)
        self.show()

    def update_progress(self, p: Any) -> None:
        """Show one ``Progress`` report."""
        self.last = p
        if p.total:
            self.bar.setRange(0, int(p.total))
            self.bar.setValue(min(int(p.done), int(p.total)))
        else:
            self.bar.setRange(0, 0)
        self._say(describe(p))
        current = str(getattr(p, "current", "") or "")
        metrics = self.current.fontMetrics()
        self.current.setText(metrics.elidedText(current, Qt.TextElideMode.ElideMiddle, max(self.current.width(), 200)))
        self.current.setToolTip(current)

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self._say("Cancelling… (keeping what was done)")
        self.cancelRequested.emit()

    def reset(self) -> None:
        """Forget the last run and hide (another collection was opened)."""
        self.last = None
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.bar.resetFormat()
        self._say("")
        self.current.setText("")
        self.current.setToolTip("")
        self.hide()

    def finish(self, message: str) -> None:
        """Show the outcome of a finished scan: a full bar and ``message``."""
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.bar.resetFormat()
        self._say(message, outcome=True)
        self.cancel_button.setEnabled(False)

    def stopped(self, message: str, word: str = "Cancelled", counted: bool = True) -> None:
        """Show a scan that stopped early (``word``: "Cancelled" or "Failed"): the bar stays
        where the scan got to and reads e.g. "Cancelled at 26%"; the label says at which
        stage (and, with ``counted``, at which count of the last report) it stopped, then
        ``message``."""
        p = self.last
        if p is not None and p.total:
            total = int(p.total)
            self.bar.setRange(0, total)
            self.bar.setValue(min(int(p.done), total))
            self.bar.setFormat(f"{word} at %p%")
            where = describe(p).split(" · ")[:2]
            count = f" ({where[1]})" if counted and len(where) > 1 else ""
            message = f"{word} while {where[0].lower()}{count}. {message}"
        else:
            self.bar.setRange(0, 1)
            self.bar.setValue(0)
            self.bar.setFormat(word)
            if p is not None:
                stage = STAGE_NAMES.get(p.stage, str(p.stage).capitalize()).lower()
                message = f"{word} while {stage}. {message}"
            else:
                message = f"{word}. {message}"
        self._say(message, outcome=True)
        self.current.setText("")
        self.current.setToolTip("")
        self.cancel_button.setEnabled(False)
