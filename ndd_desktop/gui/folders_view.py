"""The Folders tab: pairs of near-duplicate folders, and two folders side by side.

The list is the analysis of :class:`ndd_desktop.app.analyses.FolderSource` (the pair set
shown, at the window's threshold), computed on a worker thread when the tab is shown (and again
when the pair set, the threshold or the minimum share changes while it is shown).
Choosing a row shows the two folders side by side: matching documents on one row, the
unmatched ones alone and marked; choosing a matched row there compares its two documents
in the window's compare view.
"""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel, QSplitter, QTableView, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from ..app.analyses import RELATION_TEXT, FolderAnalysis, FolderSource
from .lazy_tab import LazyTab
from .worker import Worker

HEADERS = ("Folder A", "Folder B", "Share of A in B", "Share of B in A", "Relation", "Documents A",
           "Documents B", "Matched A", "Matched B")
UNMATCHED = QColor(255, 228, 196)


def _number(value: float, text: str) -> QStandardItem:
    """A cell that sorts by its number and shows ``text``."""
    item = QStandardItem(text)
    item.setData(value, Qt.ItemDataRole.UserRole)
    item.setEditable(False)
    return item


class FoldersView(LazyTab):
    """Sortable list of folder pairs over a side-by-side view of the chosen pair."""

    computed = Signal(int)  # number of folder pairs listed
    documentsChosen = Signal(int, int)  # a matched row of the side-by-side view: its two document ids

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._source: FolderSource | None = None
        self._stale = False
        self._worker: Worker | None = None
        self._again = False
        self._generation = 0  # results of a computation for an earlier source are dropped
        self.analysis: FolderAnalysis | None = None
        self.share = QDoubleSpinBox(self)
        self.share.setObjectName("foldersMinShare")
        self.share.setRange(0.0, 1.0)
        self.share.setSingleStep(0.05)
        self.share.setDecimals(2)
        self.share.setValue(0.8)
        self.share.setToolTip("List a pair of folders when at least this share of either folder's documents "
                              "has an exact or near duplicate in the other")
        self.share.valueChanged.connect(lambda _v: self.mark_stale())
        self.status = QLabel("Scan a collection to compare its folders.", self)
        self.status.setObjectName("foldersStatus")
        top = QHBoxLayout()
        top.addWidget(QLabel("Minimum share:", self))
        top.addWidget(self.share)
        top.addWidget(self.status, 1)
        self.model = QStandardItemModel(0, len(HEADERS), self)
        self.model.setHorizontalHeaderLabels(list(HEADERS))
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.table = QTableView(self)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.table.setObjectName("foldersTable")
        self.table.setModel(self.proxy)
        self.table.setToolTip("Pairs of folders whose documents duplicate each other; click a column title to "
                              "sort, choose a row to see both folders side by side")
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().resizeSection(0, 260)
        self.table.horizontalHeader().resizeSection(1, 260)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self.show_row(cur.row()))
        self.side = QTableWidget(0, 3, self)
        self.side.setObjectName("foldersSideBySide")
        self.side.setHorizontalHeaderLabels(["In folder A", "In folder B", "Score"])
        self.side.setToolTip("The two folders side by side: each document next to its best match in the other "
                             "folder; documents without a match are marked")
        self.side.verticalHeader().hide()
        self.side.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.side.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.side.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.side.currentCellChanged.connect(lambda row, _c, _pr, _pc: self._choose(row))
        self._side_docs: list[tuple] = []
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.side)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(split, 1)

    # -- source and computing -------------------------------------------------------------
    def set_source(self, source: FolderSource | None) -> None:
        """The pair set and threshold to list folders of (``app.analyses.folder_source`` of
        the session); computed now if the tab is shown."""
        self._source = source
        self._generation += 1
        self.mark_stale()

    def refresh(self) -> None:
        """Compute the list in the background (a request during a run is run after it)."""
        if self._source is None:
            return
        if self._worker is not None:
            self._again = True
            return
        self._stale = False
        source = self._source
        share = self.share.value()
        self.status.setText("Comparing folders…")
        worker = Worker(lambda progress, cancel: source.analyse(share),
                        name="ndd-folders", parent=self)
        generation = self._generation
        worker.finished.connect(lambda result: self._show(result) if generation == self._generation else None)
        worker.failed.connect(lambda m: self.status.setText(f"Could not compare folders: {m}"))
        worker.done.connect(self._done)
        self._worker = worker
        worker.start()

    def _done(self) -> None:
        self._worker = None
        if self._again:
            self._again = False
            self.refresh()

    def _show(self, analysis: FolderAnalysis) -> None:
        self.analysis = analysis
        self.table.setSortingEnabled(False)
        self.model.removeRows(0, self.model.rowCount())
        p = analysis.pairs
        for k in range(len(p)):
            a, b = int(p.a[k]), int(p.b[k])
            sa, sb = float(p.share_a[k]), float(p.share_b[k])
            first = QStandardItem(analysis.display(a))
            first.setData(analysis.display(a), Qt.ItemDataRole.UserRole)
            first.setData(k, Qt.ItemDataRole.UserRole + 1)
            first.setEditable(False)
            second = QStandardItem(analysis.display(b))
            second.setData(analysis.display(b), Qt.ItemDataRole.UserRole)
            second.setEditable(False)
            relation = RELATION_TEXT[p.relation(k)]
            self.model.appendRow([
                first, second, _number(sa, f"{sa:.0%}"), _number(sb, f"{sb:.0%}"), _number(relation, relation),
                _number(int(p.n_a[k]), f"{int(p.n_a[k]):,}"), _number(int(p.n_b[k]), f"{int(p.n_b[k]):,}"),
                _number(int(p.matched_a[k]), f"{int(p.matched_a[k]):,}"),
                _number(int(p.matched_b[k]), f"{int(p.matched_b[k]):,}"),
            ])
        self.table.setSortingEnabled(True)
        self.side.setRowCount(0)
        n = len(p)
        self.status.setText(f"{n:,} pair{'s' if n != 1 else ''} of folders with at least "
                            f"{analysis.min_share:.0%} of one matched in the other." if n else
                            "No pair of folders reaches the minimum share.")
        self.computed.emit(n)

    # -- side by side ---------------------------------------------------------------------
    def pair_at(self, view_row: int) -> int | None:
        """The folder pair (index into the analysis) shown on a row of the sorted table."""
        if view_row < 0:
            return None
        src = self.proxy.mapToSource(self.proxy.index(view_row, 0))
        k = self.model.item(src.row(), 0).data(Qt.ItemDataRole.UserRole + 1) if src.isValid() else None
        return None if k is None else int(k)

    def show_row(self, view_row: int) -> None:
        """Show the two folders of a row side by side."""
        k = self.pair_at(view_row)
        if k is None or self.analysis is None:
            return
        p = self.analysis.pairs
        rows = self.analysis.align(int(p.a[k]), int(p.b[k]))
        self._side_docs = [(da, db) for da, db, _ in rows]
        self.side.setRowCount(len(rows))
        for r, (da, db, score) in enumerate(rows):
            for c, doc in ((0, da), (1, db)):
                item = QTableWidgetItem(doc.relpath if doc is not None else "— no match —")
                if doc is None or score is None:
                    item.setBackground(QBrush(UNMATCHED))
                    item.setToolTip("No exact or near duplicate in the other folder")
                self.side.setItem(r, c, item)
            self.side.setItem(r, 2, QTableWidgetItem("" if score is None else f"{score:.2f}"))

    def current_documents(self) -> tuple[int, int] | None:
        """The two documents of the side-by-side list's selected row (None: no row, or a
        document without a match)."""
        return self._documents_at(self.side.currentRow())

    def _documents_at(self, row: int) -> tuple[int, int] | None:
        if 0 <= row < len(self._side_docs):
            da, db = self._side_docs[row]
            if da is not None and db is not None:
                return da.id, db.id
        return None

    def _choose(self, row: int) -> None:
        """A matched row chosen: its two documents go to the compare view."""
        docs = self._documents_at(row)
        if docs is not None:
            self.documentsChosen.emit(*docs)

    def clear(self) -> None:
        """Forget the collection (it was closed)."""
        self._source = None
        self._generation += 1
        self._stale = False
        self.analysis = None
        self.model.removeRows(0, self.model.rowCount())
        self.side.setRowCount(0)
        self._side_docs = []
        self.status.setText("Scan a collection to compare its folders.")

    def shutdown(self) -> None:
        """Wait for a running computation (before the store closes)."""
        self._again = False
        if self._worker is not None:
            self._worker.wait()
