"""The threshold: a slider and a spin box beside a histogram of the pair scores.

Moving either re-filters the pairs at once (``thresholdChanged``) and, a moment later when
the hand rests, asks for the groups again (``thresholdSettled``); nothing is rescanned. For
methods that can say how likely a pair of a given true similarity is to be found (MinHash
with LSH banding), the acceptance curve is drawn over the histogram.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from ..pipeline.completeness import incompleteness

SLIDER_STEPS = 1000
BINS = 50



#: Width of an axis label's box under the histogram (pixels).
LABEL_WIDTH = 40.0


def axis_labels(lo: float, threshold: float, tx: float, left: float, right: float) -> list[tuple[float, str]]:
    """(left edge of the box, text) of the labels under the histogram: the floor, 1.00 and
    the threshold under its line. The threshold's box stays inside [left, right]; an end
    label that its box would cover is left out (the threshold label tells the value)."""
    w = LABEL_WIDTH
    box = min(max(tx - w / 2, left), right - w)
    out = [(box, f"{threshold:.2f}")]
    if box >= left + w:
        out.append((left, f"{lo:.2f}"))
    if box + w <= right - w:
        out.append((right - w, "1.00"))
    return out

class ScoreHistogram(QWidget):
    """Bars of the pair-score distribution; the part at or above the threshold is coloured.

    Clicking or dragging on it moves the threshold (``clicked(score)``).
    """

    clicked = Signal(float)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.counts = np.zeros(BINS, dtype=np.int64)
        self.lo, self.hi = 0.0, 1.0
        self.threshold = 0.5
        self.curve: np.ndarray | None = None  # acceptance probability at each x in [lo, hi]
        self.complete_from: float | None = None  # scores below it are hatched (incomplete)
        self.log_scale = True
        self.setMinimumSize(220, 90)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip("Pair scores: how many pairs fall at each score. Click to set the threshold.\n"
                        "Bars are on a logarithmic scale; the dashed line is the method's acceptance curve;\n"
                        "hatched scores are where a large collection's pairs are incomplete.")

    def set_scores(self, scores: np.ndarray, lo: float) -> None:
        """Count ``scores`` into bins from ``lo`` (the floor) to 1."""
        self.lo = max(0.0, min(float(lo), 0.99))
        self.counts, _ = np.histogram(scores, bins=BINS, range=(self.lo, 1.0))
        self.update()

    def set_threshold(self, t: float) -> None:
        """Move the threshold line."""
        self.threshold = t
        self.update()

    def set_complete_from(self, score: float | None) -> None:
        """Hatch the scores below ``score`` (pairs there are incomplete), or nothing."""
        self.complete_from = score
        self.update()

    def set_curve(self, curve: np.ndarray | None) -> None:
        """The acceptance curve sampled at ``BINS + 1`` points from lo to 1, or None."""
        self.curve = curve
        self.update()

    def _plot_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(6, 6, -6, -18)

    def _x_of(self, score: float, r: QRectF) -> float:
        return r.left() + (score - self.lo) / (self.hi - self.lo) * r.width()

    def paintEvent(self, _event) -> None:  # noqa: N802
        """Draw the bars, the threshold line, the curve and the axis labels."""
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        r = self._plot_rect()
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        counts = self.counts.astype(np.float64)
        heights = np.log1p(counts) if self.log_scale else counts
        top = heights.max() if len(heights) and heights.max() > 0 else 1.0
        bw = r.width() / max(len(counts), 1)
        accent = pal.color(QPalette.ColorRole.Highlight)
        muted = pal.color(QPalette.ColorRole.Mid)
        for k, h in enumerate(heights):
            if h <= 0:
                continue
            x = r.left() + k * bw
            bar_h = h / top * r.height()
            left_edge = self.lo + k * (self.hi - self.lo) / len(counts)
            p.fillRect(QRectF(x + 0.5, r.bottom() - bar_h, max(bw - 1, 1), bar_h),
                       accent if left_edge >= self.threshold - 1e-9 else muted)
        if self.complete_from is not None and self.complete_from > self.lo:
            cx = self._x_of(min(self.complete_from, self.hi), r)
            hatch = QColor(pal.color(QPalette.ColorRole.Text))
            hatch.setAlpha(70)
            p.fillRect(QRectF(r.left(), r.top(), cx - r.left(), r.height()), QBrush(hatch, Qt.BrushStyle.BDiagPattern))
        if self.curve is not None and len(self.curve) > 1:
            path = QPainterPath()
            xs = np.linspace(r.left(), r.right(), len(self.curve))
            for k, (x, y) in enumerate(zip(xs, self.curve)):
                pt = QPointF(float(x), r.bottom() - float(np.clip(y, 0, 1)) * r.height())
                path.moveTo(pt) if k == 0 else path.lineTo(pt)
            pen = QPen(QColor("#c0392b"), 1.5, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.drawPath(path)
        tx = self._x_of(self.threshold, r)
        p.setPen(QPen(pal.color(QPalette.ColorRole.Text), 1.5))
        p.drawLine(QPointF(tx, r.top()), QPointF(tx, r.bottom()))
        p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
        for left, text in axis_labels(self.lo, self.threshold, tx, r.left(), r.right()):
            p.drawText(QRectF(left, r.bottom() + 2, LABEL_WIDTH, 14), Qt.AlignmentFlag.AlignHCenter, text)
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        """Set the threshold where the user clicked."""
        self._emit_at(event.position().x())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        """Drag the threshold."""
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._emit_at(event.position().x())

    def _emit_at(self, x: float) -> None:
        r = self._plot_rect()
        frac = (x - r.left()) / max(r.width(), 1)
        self.clicked.emit(float(np.clip(self.lo + frac * (self.hi - self.lo), 0.0, 1.0)))


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
        row = QHBoxLayout()
        row.addWidget(label)
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)
        row.addWidget(self.source)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(row)
        lay.addWidget(self.histogram, 1)
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
        t = round(float(np.clip(t, 0.0, 1.0)), 3)
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

    def set_scores(self, scores: np.ndarray, floor: float, documents: int | None = None) -> None:
        """The scores of every stored pair (the floor is where the histogram starts).

        Without a single pair the counts line says so plainly instead of counting: no
        near-duplicates at or above the floor, or (``documents`` 0) nothing to compare.
        """
        self._scores = np.asarray(scores, dtype=np.float64)
        self.histogram.set_scores(self._scores, floor)
        if len(self._scores):
            self._no_pairs = None
        elif documents == 0:
            self._no_pairs = ("No documents to compare: the scanned folders hold no readable documents "
                              "(files that could not be read are in the Errors tab).")
        else:
            self._no_pairs = self._nothing_found(floor)
        self._floor = floor
        self.set_counts(int((self._scores >= self._threshold).sum()), None, None)

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

        def fmt(n: int | None) -> str:
            return "…" if n is None else f"{n:,}"
        self.counts_label.setText(
            f"<b>{fmt(pairs)}</b> pairs · <b>{fmt(groups)}</b> groups · "
            f"<b>{fmt(left_out)}</b> documents left out of an export")
