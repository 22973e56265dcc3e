"""The pairs table: a lazily loading Qt model over the numpy arrays of one pair set.

All pairs of the set (every pair above the scan's floor) come from ``store.pair_arrays``
once; filtering by threshold and text and sorting by any column are numpy operations over
index arrays, so they stay quick for hundreds of thousands of rows. The view sees the rows
in batches through ``canFetchMore``/``fetchMore``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from ..store import DocumentTable
from .formatting import dates_or_mtimes, doc_label, fmt_date, human_size, label_prefix

COLUMNS = ("Score", "Containment", "Document A", "Document B", "Sizes", "Formats", "Dates", "Verdict")
COLUMN_TIPS = (
    "The method's similarity score of the two documents",
    "How much of the smaller document is found in the other (A in B / B in A)",
    "The first document of the pair (folder name / path)",
    "The second document of the pair",
    "File sizes of A and B",
    "File formats of A and B",
    "Document dates of A and B (the file date when the document has none)",
    "Your verdict: duplicate, not duplicate, or blank when not reviewed",
)
VERDICT_CODES = {None: 0, "duplicate": 1, "not_duplicate": 2}
VERDICT_TEXT = {0: "", 1: "duplicate", 2: "not duplicate"}
BATCH = 2000
PAIR_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class PairRef:
    """One row of the table: the pair's position in the arrays and its two documents."""

    index: int
    pair_id: int
    a: int
    b: int
    score: float
    cont_ab: float
    cont_ba: float


class _DocTable:
    """Per-document columns as dense numpy arrays indexed by document id.

    Worked out over the documents given only (a pair set of a million documents names a
    quarter of them, with ids up to a million), from a ``DocumentTable``'s columns without
    making a document object each, then spread out by id."""

    def __init__(self, docs: Mapping[int, Any]):
        self.docs = docs
        size = (max(docs) + 1) if docs else 1
        ids, labels, sizes, dates, formats = _columns(docs)
        self.labels = np.full(size, "", dtype=object)
        self.labels[ids] = labels
        self.size = np.zeros(size, dtype=np.float64)
        self.size[ids] = sizes
        self.date = np.full(size, np.nan)
        self.date[ids] = dates
        # ranks among the documents given (a pair names no other): the order of the labels,
        # then of the ids
        self.path_rank = np.zeros(size, dtype=np.int64)
        self.path_rank[ids] = _rank(labels)
        self.fmt_rank = np.zeros(size, dtype=np.int64)
        self.fmt_rank[ids] = _rank(formats)
        self._ids = ids
        self._lower: list[str] | None = None

    def matching(self, text: str) -> np.ndarray:
        """Boolean per document id: its label contains ``text`` (case-insensitive)."""
        if self._lower is None:
            self._lower = [s.lower() for s in self.labels[self._ids].tolist()]
        needle = text.lower()
        found = np.zeros(self.labels.shape[0], dtype=bool)
        found[self._ids] = np.fromiter((needle in s for s in self._lower), dtype=bool, count=len(self._lower))
        return found


def _columns(docs: Mapping[int, Any]) -> tuple[np.ndarray, list[str], np.ndarray, np.ndarray, list[str]]:
    """(ids, labels as doc_label gives them, sizes, dates as doc_date gives them (NaN for
    none), formats) of the documents, in order of id; a ``DocumentTable``'s from its
    columns, without making a document of each."""
    if isinstance(docs, DocumentTable):
        ids = np.fromiter(docs.keys(), dtype=np.int64, count=len(docs))
        roots = docs.column("path")
        prefix = {root: label_prefix(root) for root in set(roots)}
        labels = [prefix[root] + rel for root, rel in zip(roots, docs.column("relpath"))]
        date, mtime, size, fmt = (docs.column(c) for c in ("date", "mtime_ns", "size", "format"))
    else:
        ids = np.array(sorted(docs), dtype=np.int64)
        values = [docs[i] for i in ids.tolist()]
        labels = [doc_label(d) for d in values]
        date, mtime, size, fmt = ([getattr(d, c, None) for d in values] for c in ("date", "mtime_ns", "size", "format"))
    sizes = np.nan_to_num(np.array(size, dtype=np.float64), nan=0.0)  # float(size or 0)
    return ids, labels, sizes, dates_or_mtimes(date, mtime), [str(f or "") for f in fmt]


def _rank(strings: list[str]) -> np.ndarray:
    """Each string's place in their stable order."""
    order = np.argsort(np.array(strings, dtype=object), kind="stable")
    rank = np.empty(len(strings), dtype=np.int64)
    rank[order] = np.arange(len(strings))
    return rank


class PairTableModel(QAbstractTableModel):
    """Pairs above a threshold, filtered by text, sorted by any column, loaded in batches."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self._arrays: Any = None
        self._docs = _DocTable({})
        self._verdict = np.zeros(0, dtype=np.int8)
        self._keys = np.zeros(0, dtype=np.int64)
        self._threshold = 0.0
        self._text = ""
        self._sort_column = 0
        self._sort_order = Qt.SortOrder.DescendingOrder
        self._rows = np.zeros(0, dtype=np.int64)
        self._loaded = 0
        self._order_cache: tuple | None = None

    # -- feeding --------------------------------------------------------------------------
    def set_pairs(self, arrays: Any, docs: Mapping[int, Any], verdicts: dict[tuple[int, int], str],
                  threshold: float | None = None) -> None:
        """Show a new pair set: ``arrays`` (PairArrays), documents by id (the window gives a
        ``store.DocumentTable``; any mapping does), current verdicts."""
        if threshold is not None:
            self._threshold = float(threshold)
        self._arrays = arrays
        self._docs = _DocTable(docs)
        n = len(arrays)
        self._stride = np.int64(len(self._docs.labels) + 1)
        self._keys = arrays.a.astype(np.int64) * self._stride + arrays.b.astype(np.int64)
        self._verdict = np.zeros(n, dtype=np.int8)
        self._order_cache = None
        self.set_verdicts(verdicts, refresh=False)
        self._refilter()

    def clear(self) -> None:
        """Show no pairs (no pair set of the open collection is loaded)."""
        self._arrays = None
        self._docs = _DocTable({})
        self._stride = np.int64(1)
        self._keys = np.zeros(0, dtype=np.int64)
        self._verdict = np.zeros(0, dtype=np.int8)
        self._order_cache = None
        self._refilter()

    def has_pairs(self) -> bool:
        """True when a pair set is shown (even if no pair passes the filters)."""
        return self._arrays is not None

    def set_verdicts(self, verdicts: dict[tuple[int, int], str], refresh: bool = True) -> None:
        """Replace all verdicts."""
        self._verdict[:] = 0
        for (a, b), v in verdicts.items():
            i = self._find(min(a, b), max(a, b))
            if i >= 0:
                self._verdict[i] = VERDICT_CODES.get(v, 0)
        if refresh and self._loaded:
            self.dataChanged.emit(self.index(0, 0), self.index(self._loaded - 1, len(COLUMNS) - 1))

    def set_verdict(self, a: int, b: int, verdict: str | None) -> None:
        """Change one pair's verdict and repaint its row."""
        i = self._find(min(a, b), max(a, b))
        if i < 0:
            return
        self._verdict[i] = VERDICT_CODES.get(verdict, 0)
        hits = np.nonzero(self._rows[: self._loaded] == i)[0]
        for row in hits.tolist():
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def _find(self, a: int, b: int) -> int:
        if self._arrays is None or a >= self._stride - 1 or b >= self._stride - 1:
            return -1
        hits = np.nonzero(self._keys == a * self._stride + b)[0]
        return int(hits[0]) if len(hits) else -1

    def set_threshold(self, threshold: float) -> None:
        """Show only pairs scoring at least ``threshold``."""
        if threshold != self._threshold:
            self._threshold = float(threshold)
            self._refilter()

    def set_text_filter(self, text: str) -> None:
        """Show only pairs where either document's path contains ``text``."""
        text = text.strip()
        if text != self._text:
            self._text = text
            self._refilter()

    def threshold(self) -> float:
        """The current threshold."""
        return self._threshold

    def total_rows(self) -> int:
        """Rows that pass the filters (loaded or not)."""
        return int(len(self._rows))

    # -- sorting and filtering --------------------------------------------------------------
    def _sort_key(self, column: int) -> np.ndarray:
        arr, docs = self._arrays, self._docs
        a, b = arr.a, arr.b
        if column == 0:
            return arr.score
        if column == 1:
            return np.nan_to_num(np.fmax(arr.cont_ab, arr.cont_ba), nan=-1.0)
        if column == 2:
            return docs.path_rank[a]
        if column == 3:
            return docs.path_rank[b]
        if column == 4:
            return np.maximum(docs.size[a], docs.size[b])
        if column == 5:
            return docs.fmt_rank[a] * len(docs.fmt_rank) + docs.fmt_rank[b]
        if column == 6:
            return np.nan_to_num(np.fmin(docs.date[a], docs.date[b]), nan=np.inf)
        return self._verdict.astype(np.int64)

    def _sorted_all(self) -> np.ndarray:
        """Every pair in the current sort order (cached: moving the threshold only filters)."""
        key = (self._sort_column, self._sort_order)
        if self._order_cache is None or self._order_cache[0] != key:
            score = self._arrays.score
            order = np.argsort(-score, kind="stable")  # ties keep the best pairs first
            if self._sort_column != 0 or self._sort_order == Qt.SortOrder.AscendingOrder:
                values = self._sort_key(self._sort_column)[order]
                if self._sort_order == Qt.SortOrder.DescendingOrder:
                    values = -values.astype(np.float64)
                order = order[np.argsort(values, kind="stable")]
            self._order_cache = (key, order)
        return self._order_cache[1]

    def _refilter(self) -> None:
        self.beginResetModel()
        if self._arrays is None or len(self._arrays) == 0:
            self._rows = np.zeros(0, dtype=np.int64)
        else:
            mask = self._arrays.score >= self._threshold
            if self._text:
                match = self._docs.matching(self._text)
                mask &= match[self._arrays.a] | match[self._arrays.b]
            order = self._sorted_all()
            self._rows = order[mask[order]]
        self._loaded = min(BATCH, len(self._rows))
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:  # noqa: N802
        """Sort by ``column`` (a stable numpy argsort; verdicts are re-read on every sort)."""
        self._order_cache = None
        self._sort_column = int(column)
        self._sort_order = order
        self._refilter()

    # -- lazy loading ---------------------------------------------------------------------
    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: N802
        """True while rows that pass the filters are not yet shown."""
        return not parent.isValid() and self._loaded < len(self._rows)

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: N802
        """Show the next batch of rows."""
        if parent.isValid():
            return
        extra = min(BATCH, len(self._rows) - self._loaded)
        if extra <= 0:
            return
        self.beginInsertRows(QModelIndex(), self._loaded, self._loaded + extra - 1)
        self._loaded += extra
        self.endInsertRows()

    def ensure_loaded(self, row: int) -> None:
        """Load batches until ``row`` is part of the model."""
        while row >= self._loaded and self.canFetchMore():
            self.fetchMore()

    # -- Qt model interface ---------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """Rows loaded so far."""
        return 0 if parent.isValid() else self._loaded

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        """The eight columns."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        """Column titles and their tooltips."""
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return COLUMN_TIPS[section]
        return None

    def pair(self, row: int) -> PairRef:
        """The pair shown in ``row``."""
        i = int(self._rows[row])
        arr = self._arrays
        return PairRef(i, int(arr.pair_id[i]), int(arr.a[i]), int(arr.b[i]), float(arr.score[i]),
                       float(arr.cont_ab[i]), float(arr.cont_ba[i]))

    def verdict(self, row: int) -> str | None:
        """The verdict of the pair in ``row``."""
        code = int(self._verdict[int(self._rows[row])])
        return {1: "duplicate", 2: "not_duplicate"}.get(code)

    def row_of(self, a: int, b: int) -> int:
        """The row showing pair (a, b) among all filtered rows, or -1."""
        i = self._find(min(a, b), max(a, b))
        if i < 0:
            return -1
        hits = np.nonzero(self._rows == i)[0]
        return int(hits[0]) if len(hits) else -1

    def document(self, doc_id: int) -> Any:
        """The DocumentInfo of ``doc_id``."""
        return self._docs.docs.get(doc_id)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Cell text, tooltips, alignment and the verdict's colour."""
        if not index.isValid() or index.row() >= self._loaded:
            return None
        row, col = index.row(), index.column()
        i = int(self._rows[row])
        arr = self._arrays
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(i, col)
        if role == PAIR_ROLE:
            return self.pair(row)
        if role == Qt.ItemDataRole.ToolTipRole and col in (2, 3):
            doc = self._docs.docs.get(int(arr.a[i] if col == 2 else arr.b[i]))
            return getattr(doc, "abspath", None)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 1, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 7:
            code = int(self._verdict[i])
            if code:
                return QBrush(QColor("#2e7d32") if code == 1 else QColor("#9e3b1b"))
        return None

    def _display(self, i: int, col: int) -> str:
        arr, docs = self._arrays, self._docs
        a, b = int(arr.a[i]), int(arr.b[i])
        if col == 0:
            return f"{arr.score[i]:.3f}"
        if col == 1:
            cab, cba = float(arr.cont_ab[i]), float(arr.cont_ba[i])
            if np.isnan(cab) and np.isnan(cba):
                return "–"
            return f"{_pct(cab)} / {_pct(cba)}"
        if col == 2:
            return docs.labels[a]
        if col == 3:
            return docs.labels[b]
        if col == 4:
            return f"{human_size(docs.size[a])} / {human_size(docs.size[b])}"
        if col == 5:
            da, db = docs.docs.get(a), docs.docs.get(b)
            return f"{getattr(da, 'format', '?')} / {getattr(db, 'format', '?')}"
        if col == 6:
            return f"{fmt_date(_nan_none(docs.date[a]))} / {fmt_date(_nan_none(docs.date[b]))}"
        return VERDICT_TEXT[int(self._verdict[i])]


def _pct(x: float) -> str:
    return "–" if np.isnan(x) else f"{x:.0%}"


def _nan_none(x: float) -> float | None:
    return None if np.isnan(x) else float(x)
