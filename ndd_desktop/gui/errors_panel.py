"""The Errors panel: files that could not be read, with the reason, as they happen."""

from __future__ import annotations

from typing import Any, Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from .formatting import error_path


class ErrorsModel(QAbstractTableModel):
    """Rows of (file, status, reason); appended in batches, never reset during a scan."""

    HEADERS = ("File", "Status", "Reason")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._rows: list[tuple[str, str, str]] = []

    def clear(self) -> None:
        """Remove every row."""
        self.beginResetModel()
        self._rows.clear()
        self.endResetModel()

    def add(self, items: Iterable[Any]) -> None:
        """Append failed documents (DocumentInfo-like objects)."""
        new = [(error_path(i), str(getattr(i, "status", "error")), str(getattr(i, "reason", "") or ""))
               for i in items]
        if not new:
            return
        start = len(self._rows)
        self.beginInsertRows(QModelIndex(), start, start + len(new) - 1)
        self._rows.extend(new)
        self.endInsertRows()

    def row(self, n: int) -> tuple[str, str, str]:
        """One row as (file, status, reason)."""
        return self._rows[n]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """Number of errors."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """File, status, reason."""
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text; the full text as tooltip."""
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._rows[index.row()][index.column()]
        return None


class ErrorsPanel(QWidget):
    """A table of the files that failed; ``countChanged`` lets the tab title follow."""

    countChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.model = ErrorsModel(self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setObjectName("errorsTable")
        self.view.setToolTip("Files that could not be read or were skipped, with the reason")
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.setAlternatingRowColors(True)
        self.view.verticalHeader().hide()
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 420)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.note = QLabel("Files the collection could not use: listed as a scan meets them, and kept here "
                           "after it (an unchanged file that failed is not read again, unless it failed "
                           "for a passing reason such as a timeout).", self)
        self.note.setEnabled(False)
        self.note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.note)
        lay.addWidget(self.view, 1)

    def clear(self) -> None:
        """Forget all errors (a new scan starts)."""
        self.model.clear()
        self.countChanged.emit(0)

    def add(self, items: Iterable[Any]) -> None:
        """Append failed documents as they arrive."""
        self.model.add(items)
        self.countChanged.emit(self.model.rowCount())

    def count(self) -> int:
        """Number of errors shown."""
        return self.model.rowCount()
