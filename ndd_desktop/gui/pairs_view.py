"""The Pairs tab: a filter box and the lazily loading, sortable table of pairs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from .formatting import count_of
from .pair_model import COLUMNS, PairRef, PairTableModel

VERDICT_COLUMN = COLUMNS.index("Verdict")


class PairsView(QWidget):
    """Filter box, table and a row count; ``pairSelected`` when the current row changes."""

    pairSelected = Signal(object)  # PairRef or None

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = PairTableModel(self)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("pairFilter")
        self.filter.setPlaceholderText("Filter by path…  (Ctrl+F)")
        self.filter.setToolTip("Show only pairs where either document's folder or path contains this text")
        self.filter.setClearButtonEnabled(True)
        self.filter.setAccessibleName("Filter pairs")
        self.count = QLabel(self)
        self.table = QTableView(self)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.table.setObjectName("pairTable")
        self.table.setAccessibleName("Pairs")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.DescendingOrder)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setToolTip("Pairs at or above the threshold. Click a column to sort.\n"
                              "D duplicate · N not duplicate · U undo · J/K or ↓/↑ next/previous")
        # Long paths are elided in the middle (folder start and file name stay readable;
        # the whole path is in the tooltip).
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionsMovable(True)
        for col, width in enumerate((60, 96, 230, 230, 130, 80, 170, 100)):
            header.resizeSection(col, width)
        # The verdict is shown right after the score (the model keeps its column order), so
        # that D and N show in the table even when the window is too narrow for every column.
        header.moveSection(header.visualIndex(VERDICT_COLUMN), 1)
        header.setStretchLastSection(True)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.count)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 0)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(lambda: self._keep_selection(lambda: self.model.set_text_filter(self.filter.text())))
        self.filter.textChanged.connect(lambda _: self._debounce.start())
        self.table.selectionModel().currentRowChanged.connect(self._on_current)
        self.model.modelReset.connect(self._update_count)
        self.model.rowsInserted.connect(self._update_count)

    # -- feeding --------------------------------------------------------------------------
    def set_pairs(self, arrays: Any, docs: Mapping[int, Any], verdicts: dict, threshold: float) -> None:
        """Show a new pair set at ``threshold``."""
        self.model.set_pairs(arrays, docs, verdicts, threshold)
        self.pairSelected.emit(None)

    def clear(self) -> None:
        """Show no pairs (another collection was opened, or it has no pair set yet)."""
        self.model.clear()
        self.pairSelected.emit(None)

    def set_threshold(self, threshold: float) -> None:
        """Re-filter at a new threshold, keeping the selected pair when it stays."""
        self._keep_selection(lambda: self.model.set_threshold(threshold))

    def _keep_selection(self, change) -> None:
        pair = self.current_pair()
        change()
        if pair is not None and self.select_pair(pair.a, pair.b):
            return
        self.pairSelected.emit(None)

    def _update_count(self, *_: Any) -> None:
        self.count.setText(count_of(self.model.total_rows(), "pair"))

    # -- selection ------------------------------------------------------------------------
    def current_pair(self) -> PairRef | None:
        """The selected pair."""
        idx = self.table.currentIndex()
        return self.model.pair(idx.row()) if idx.isValid() else None

    def current_row(self) -> int:
        """The selected row, or -1."""
        idx = self.table.currentIndex()
        return idx.row() if idx.isValid() else -1

    def select_row(self, row: int) -> bool:
        """Select a row (loading it if needed)."""
        if row < 0 or row >= self.model.total_rows():
            return False
        self.model.ensure_loaded(row)
        idx = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)
        return True

    def select_pair(self, a: int, b: int) -> bool:
        """Select the row of pair (a, b) if it is shown."""
        row = self.model.row_of(a, b)
        return self.select_row(row) if row >= 0 else False

    def step(self, delta: int) -> bool:
        """Move the selection ``delta`` rows (next: +1, previous: -1)."""
        row = self.current_row()
        target = 0 if row < 0 else row + delta
        return self.select_row(max(0, min(target, self.model.total_rows() - 1)))

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.pairSelected.emit(self.model.pair(current.row()) if current.isValid() else None)
