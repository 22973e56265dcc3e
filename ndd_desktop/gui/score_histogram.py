"""A histogram of the pair scores with the threshold, the floor and an acceptance curve.

The plot behind the threshold slider (:mod:`gui.threshold_panel`): bars of the stored
scores between the floor and 1, the threshold as a line the user can click or drag to,
the part of the scale where the pairs may be incomplete shaded, and for methods that can
say how likely a pair of a given similarity is to be found, that curve over the bars.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QMouseEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

#: Bars of the histogram.
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
