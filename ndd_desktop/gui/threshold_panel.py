"""The threshold: a slider and a spin box beside a histogram of the pair scores.

Moving either re-filters the pairs at once (``thresholdChanged``) and, a moment later when
the hand rests, asks for the groups again (``thresholdSettled``); nothing is rescanned. For
methods that can say how likely a pair of a given true similarity is to be found (MinHash
with LSH banding), the acceptance curve is drawn over the histogram.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDoubleSpinBox, QGridLayout, QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from ..pipeline.completeness import incompleteness
from .formatting import count_of
from .score_histogram import ScoreHistogram

SLIDER_STEPS = 1000


class ThresholdPanel(QWidget):
    """Slider, spin box, histogram and the live counts (pairs, groups, left out)."""

    thresholdChanged = Signal(float)  # at once, on every move
    thresholdSettled = Signal(float)  # after the hand rests (groups are recomputed then)

    def __init__(self, parent: QWidget | None = None, settle_ms: int = 120):
        super().__init__(parent)
        self._threshold = 0.5
        self._scores = np.zeros(0)
        self._updating = False
        # Shown instead of the counts while there is nothing to count: no pair set yet, or
        # one without a single pair (None: show the counts).
        self._no_pairs: str | None = None
        self._floor = 0.0
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setPageStep(SLIDER_STEPS // 20)
        self.slider.setObjectName("thresholdSlider")
        self.slider.setToolTip("Threshold: pairs scoring at least this much count as near-duplicates.\n"
                               "Moving it re-filters pairs and regroups documents; nothing is rescanned.")
        self.slider.setAccessibleName("Threshold")
        self.spin = QDoubleSpinBox(self)
        self.spin.setRange(0.0, 1.0)
        self.spin.setDecimals(3)
        self.spin.setSingleStep(0.01)
        # A typed number counts when it is complete (Enter, or leaving the box), never per
        # keystroke: "0." read as 0 and written back as "0.000" used to wreck the typing.
        self.spin.setKeyboardTracking(False)
        self.spin.setObjectName("thresholdSpin")
        self.spin.setToolTip("The threshold as a number from 0 to 1")
        self.spin.setAccessibleName("Threshold value")
        self.histogram = ScoreHistogram(self)
        self.counts_label = QLabel(self)
        self.counts_label.setObjectName("thresholdCounts")
        self.counts_label.setToolTip("Pairs at or above the threshold; groups they form; documents an "
                                     "export would leave out (the duplicates that are not kept)")
        label = QLabel("&Threshold", self)
        label.setBuddy(self.slider)
        # Which pair set the slider, histogram and counts are about (the method chosen on the
        # left may differ until it is scanned).
        self.source = QLabel(self)
        self.source.setObjectName("thresholdSource")
        # The histogram sits right under the slider, as wide, and both run from the pair
        # set's floor to 1: a click under the handle is the handle's threshold. (The
        # histogram ran from the floor under a slider from 0, so a click under the handle at
        # 0.5 set 0.62, and a threshold below the floor showed an empty band.)
        grid = QGridLayout()
        grid.addWidget(label, 0, 0)
        grid.addWidget(self.slider, 0, 1)
        grid.addWidget(self.spin, 0, 2)
        grid.addWidget(self.source, 0, 3)
        grid.addWidget(self.histogram, 1, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(grid, 1)
        # A short note beside the counts (the full sentence in its tooltip), so that it takes
        # no height from the histogram when it appears.
        self.note = QLabel(self)
        self.note.setObjectName("thresholdNote")
        self.note.hide()
        counts_row = QHBoxLayout()
        counts_row.addWidget(self.counts_label, 1)
        counts_row.addWidget(self.note)
        lay.addLayout(counts_row)
        self._complete_from: float | None = None
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(settle_ms)
        self._settle.timeout.connect(lambda: self.thresholdSettled.emit(self._threshold))
        self.slider.valueChanged.connect(lambda v: self.set_threshold(v / SLIDER_STEPS))
        self.spin.valueChanged.connect(self.set_threshold)
        self.histogram.clicked.connect(self.set_threshold)
        self.clear()
        self.set_threshold(0.5, emit=False)

    def threshold(self) -> float:
        """The current threshold."""
        return self._threshold

    def set_threshold(self, t: float, emit: bool = True) -> None:
        """Move every control to ``t``; emit ``thresholdChanged`` and later ``thresholdSettled``
        (with ``emit`` false neither, and a settle still pending from a move is dropped)."""
        t = round(float(np.clip(t, self._floor, 1.0)), 3)  # below the floor no pair is stored
        if self._updating:
            return
        changed = abs(t - self._threshold) > 1e-9
        self._threshold = t
        self._updating = True
        try:
            self.slider.setValue(int(round(t * SLIDER_STEPS)))
            self.spin.setValue(t)
            self.histogram.set_threshold(t)
        finally:
            self._updating = False
        self._show_note()
        if not emit:
            self._settle.stop()  # set from outside (a pair set shown): no pending settle may follow
        if emit and changed:
            self.set_counts(int((self._scores >= t).sum()), None, None)
            self.thresholdChanged.emit(t)
            self._settle.start()

    def set_scores(self, scores: np.ndarray, floor: float, documents: int | None = None, unread: int = 0) -> None:
        """The scores of every stored pair (the floor is where the histogram starts).

        Without a single pair the counts line says so plainly instead of counting: no
        near-duplicates at or above the floor, or (``documents`` 0) nothing to compare.
        """
        self._scores = np.asarray(scores, dtype=np.float64)
        self.histogram.set_scores(self._scores, floor)
        self._set_floor(self.histogram.lo)
        if len(self._scores):
            self._no_pairs = None
        elif documents == 0:
            self._no_pairs = ("No documents to compare: the scanned folders hold no readable documents"
                              + (f" ({unread:,} file{'' if unread == 1 else 's'} could not be read: see the Errors "
                                 "tab)." if unread else "."))
        else:
            self._no_pairs = self._nothing_found(floor)
        self.set_counts(int((self._scores >= self._threshold).sum()), None, None)

    def _set_floor(self, floor: float) -> None:
        """Let the slider and the number box run from ``floor`` (where the histogram
        starts) to 1, the threshold kept (raised to the floor when below it)."""
        self._floor = floor
        self._updating = True
        try:
            self.slider.setRange(int(round(floor * SLIDER_STEPS)), SLIDER_STEPS)
            self.spin.setMinimum(floor)
        finally:
            self._updating = False
        if self._threshold < floor:
            self.set_threshold(floor, emit=False)
        else:  # the ranges moved under the controls: show the threshold again
            self._updating = True
            try:
                self.slider.setValue(int(round(self._threshold * SLIDER_STEPS)))
                self.spin.setValue(self._threshold)
            finally:
                self._updating = False

    def _nothing_found(self, floor: float) -> str:
        """The counts line of a pair set without pairs: down to which score it looked."""
        c = self._complete_from
        if c is not None and c > floor:
            # e.g. fingerprint: nothing below its search radius was searched at all
            return (f"No near-duplicates found at or above {c:.2f}, the lowest score this method's "
                    "search covers completely.")
        return f"No near-duplicates found at or above {floor:.2f} (the lowest score a scan keeps)."

    def set_source(self, text: str, tip: str = "") -> None:
        """Name the pair set shown (e.g. "qgram pairs"); empty: none."""
        self.source.setText(text)
        self.source.setToolTip(tip)

    def clear(self, message: str = "No pairs yet: scan the folders to find near-duplicates.") -> None:
        """Show no pair set: an empty histogram, no curve, no note, ``message`` for the counts."""
        self._settle.stop()
        self._scores = np.zeros(0)
        self.histogram.set_scores(self._scores, 0.0)
        self._set_floor(0.0)
        self.histogram.set_curve(None)
        self.set_complete_from(None)
        self.set_source("")
        self._no_pairs = message
        self.counts_label.setText(message)

    def set_complete_from(self, score: float | None, method: str | None = None) -> None:
        """The score from which ``method``'s pair set is complete (None: down to its floor).
        Below it the histogram is marked and, while the threshold is there, a note says why."""
        self._complete_from = score
        self.histogram.set_complete_from(score)
        if not len(self._scores) and self._no_pairs and self._no_pairs.startswith("No near-duplicates"):
            self._no_pairs = self._nothing_found(self._floor)
            self.counts_label.setText(self._no_pairs)
        if score is not None:
            below = "at any score" if score >= 1.0 else f"below {score:g}"
            self.note.setText(f"<i>Pairs {below} are incomplete</i> (hover for why)")
            why = incompleteness(score, method)
            self.note.setToolTip(why[0].upper() + why[1:] + ".")
        self._show_note()

    def _show_note(self) -> None:
        c = self._complete_from
        self.note.setVisible(c is not None and self._threshold < c - 1e-9)

    def set_curve(self, fn: Callable[[np.ndarray], np.ndarray] | None) -> None:
        """An acceptance curve ``fn(x) -> probability`` to draw, or None."""
        if fn is None:
            self.histogram.set_curve(None)
            return
        xs = np.linspace(self.histogram.lo, 1.0, 101)
        try:
            self.histogram.set_curve(np.asarray(fn(xs), dtype=np.float64))
        except Exception:  # a curve is a nicety; a broken one must not break tuning
            self.histogram.set_curve(None)

    def set_counts(self, pairs: int | None, groups: int | None, left_out: int | None) -> None:
        """Show the live counts (None: being computed); with no pairs to count, say why."""
        if self._no_pairs is not None:
            self.counts_label.setText(self._no_pairs)
            return

        def fmt(n: int | None, noun: str) -> str:
            if n is None:
                return f"<b>…</b> {noun}s"
            number, _, word = count_of(n, noun).partition(" ")
            return f"<b>{number}</b> {word}"
        self.counts_label.setText(
            f"{fmt(pairs, 'pair')} · {fmt(groups, 'group')} · {fmt(left_out, 'document')} left out of an export")
