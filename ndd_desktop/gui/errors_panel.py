"""The Errors panel: files that could not be read, counted by reason above the full list.

The upper table has one row per reason ("3,867 skipped: unsupported format: gz (.gz)",
grouped by :mod:`ndd_desktop.ingest.tally` as ``ndd errors`` groups them); selecting a
row narrows the file list below to that reason, and "All reasons" shows every file again.
Both fill as a scan meets failures.
"""

from __future__ import annotations

from typing import Any, Iterable

from PySide6.QtCore import (
    QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPushButton, QSplitter, QTableView, QVBoxLayout, QWidget,
)

from ..ingest.tally import ReasonGroup, ReasonTally
from .formatting import error_path


class _ListTableModel(QAbstractTableModel):
    """A flat table over a Python list (:meth:`_items`) with fixed column titles (``HEADERS``)."""

    HEADERS: tuple[str, ...] = ()

    def _items(self) -> list:
        raise NotImplementedError

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """Number of rows."""
        return 0 if parent.isValid() else len(self._items())

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """Number of columns: one per title."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None


class ErrorsModel(_ListTableModel):
    """Rows of (file, status, reason); appended in batches, never reset during a scan."""

    HEADERS = ("File", "Status", "Reason")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._rows: list[tuple[str, str, str]] = []
        self._groups: list[tuple[str, str]] = []  # each row's reason group

    def clear(self) -> None:
        """Remove every row."""
        self.beginResetModel()
        self._rows.clear()
        self._groups.clear()
        self.endResetModel()

    def add(self, items: Iterable[Any], tally: ReasonTally | None = None) -> None:
        """Append failed documents (DocumentInfo-like objects), counting them in ``tally``."""
        new = [(error_path(i), str(getattr(i, "status", "error")), str(getattr(i, "reason", "") or ""))
               for i in items]
        if not new:
            return
        tally = tally or ReasonTally()
        groups = [tally.add(status, reason, path) for path, status, reason in new]
        start = len(self._rows)
        self.beginInsertRows(QModelIndex(), start, start + len(new) - 1)
        self._rows.extend(new)
        self._groups.extend(groups)
        self.endInsertRows()

    def _items(self) -> list:
        return self._rows

    def row(self, n: int) -> tuple[str, str, str]:
        """One row as (file, status, reason)."""
        return self._rows[n]

    def group_of(self, n: int) -> tuple[str, str]:
        """The (status, reason group) of row ``n``."""
        return self._groups[n]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text; the full text as tooltip."""
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._rows[index.row()][index.column()]
        return None


class ReasonsModel(_ListTableModel):
    """One row per reason group: count, status, reason, extensions (a handful of rows)."""

    HEADERS = ("Files", "Status", "Reason", "Extensions")

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._groups: list[ReasonGroup] = []

    def set_groups(self, groups: list[ReasonGroup]) -> None:
        """Show these groups (the list is short, so a reset is cheap)."""
        self.beginResetModel()
        self._groups = list(groups)
        self.endResetModel()

    def _items(self) -> list:
        return self._groups

    def group(self, n: int) -> ReasonGroup:
        """The group of row ``n``."""
        return self._groups[n]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text; counts right-aligned."""
        if not index.isValid():
            return None
        g = self._groups[index.row()]
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 2 and g.advice:
            return f"{g.reason}\nWhat to do: {g.advice}"
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if index.column() == 0:
                return f"{g.count:,}"
            if index.column() == 1:
                return g.status
            if index.column() == 2:
                return g.reason
            return ", ".join(f"{ext or '(none)'} {n:,}" if len(g.extensions) > 1 else (ext or "(none)")
                             for ext, n in g.extensions[:6]) + (" …" if len(g.extensions) > 6 else "")
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class _ReasonFilter(QSortFilterProxyModel):
    """The file list narrowed to one reason group (None: every file)."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.group: tuple[str, str] | None = None

    def set_group(self, group: tuple[str, str] | None) -> None:
        """Show only the rows of ``group`` (None: all rows)."""
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9; invalidateFilter is deprecated there
            self.beginFilterChange()
            self.group = group
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.group = group
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        """Rows of the chosen group only."""
        return self.group is None or self.sourceModel().group_of(row) == self.group


class ErrorsPanel(QWidget):
    """Reasons with counts above the files that failed; ``countChanged`` lets the tab title follow."""

    countChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tally = ReasonTally()
        self.model = ErrorsModel(self)
        self.reasons = ReasonsModel(self)
        self.filter = _ReasonFilter(self)
        self.filter.setSourceModel(self.model)

        self.reasons_view = QTableView(self)
        self.reasons_view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.reasons_view.setModel(self.reasons)
        self.reasons_view.setObjectName("errorReasonsTable")
        self.reasons_view.setToolTip("Skipped or failed files counted by reason: select one to list only its files")
        self.reasons_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.reasons_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.reasons_view.verticalHeader().hide()
        rh = self.reasons_view.horizontalHeader()
        rh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        rh.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        rh.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        rh.resizeSection(2, 420)
        rh.setStretchLastSection(True)
        self.reasons_view.selectionModel().selectionChanged.connect(self._reason_chosen)

        self.view = QTableView(self)
        self.view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.view.setModel(self.filter)
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
                           "for a passing reason such as a timeout). Select a reason to list only its files.", self)
        self.note.setEnabled(False)
        self.note.setWordWrap(True)
        self.shown = QLabel(self)
        self.show_all = QPushButton("All reasons", self)
        self.show_all.setToolTip("List the files of every reason again")
        self.show_all.clicked.connect(self.reasons_view.clearSelection)
        files_bar = QHBoxLayout()
        files_bar.addWidget(self.shown, 1)
        files_bar.addWidget(self.show_all)
        files = QWidget(self)
        files_lay = QVBoxLayout(files)
        files_lay.setContentsMargins(0, 0, 0, 0)
        files_lay.addLayout(files_bar)
        files_lay.addWidget(self.view, 1)

        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.reasons_view)
        split.addWidget(files)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.note)
        lay.addWidget(split, 1)
        self._update_shown()

    def clear(self) -> None:
        """Forget all errors (a new scan starts)."""
        self.tally.clear()
        self.model.clear()
        self.reasons.set_groups([])
        self.filter.set_group(None)
        self._update_shown()
        self.countChanged.emit(0)

    def add(self, items: Iterable[Any]) -> None:
        """Append failed documents as they arrive."""
        chosen = self.filter.group
        self.model.add(items, self.tally)
        groups = self.tally.groups()
        blocker = self.reasons_view.selectionModel().blockSignals(True)
        self.reasons.set_groups(groups)
        if chosen is not None:  # keep the reader's choice across the reset
            for n, g in enumerate(groups):
                if (g.status, g.reason) == chosen:
                    self.reasons_view.selectRow(n)
        self.reasons_view.selectionModel().blockSignals(blocker)
        self._update_shown()
        self.countChanged.emit(self.model.rowCount())

    def count(self) -> int:
        """Number of errors (all reasons)."""
        return self.model.rowCount()

    def choose_reason(self, row: int | None) -> None:
        """Narrow the file list to the reason in ``row`` of the reasons table (None: all)."""
        if row is None:
            self.reasons_view.clearSelection()
        else:
            self.reasons_view.selectRow(row)

    def _reason_chosen(self, *_: Any) -> None:
        rows = self.reasons_view.selectionModel().selectedRows()
        if rows:
            g = self.reasons.group(rows[0].row())
            self.filter.set_group((g.status, g.reason))
        else:
            self.filter.set_group(None)
        self._update_shown()

    def _update_shown(self) -> None:
        total = self.model.rowCount()
        if self.filter.group is None:
            self.shown.setText(f"All {total:,} files" if total else "No files skipped or failed")
        else:
            status, reason = self.filter.group
            self.shown.setText(f"{self.filter.rowCount():,} of {total:,} files: {status}: {reason}")
        self.show_all.setEnabled(self.filter.group is not None)
