"""Comparing two methods on the same collection: where they agree and where they do not.

Pick two stored pair sets (each a method with its parameters) and a threshold for each; the
panel counts the pairs both find, the pairs only one finds, and lists them. "Run another
method" scans the same folders with a second method so that there is something to compare.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..core.methods import default_threshold
from ..pipeline.pair_lookup import PairLookup
from .formatting import doc_label
from .scan_setup import available_methods
from .worker import Worker

MAX_LISTED = 5000
VIEWS = (("only_a", "Only the first method finds"), ("only_b", "Only the second method finds"),
         ("both", "Both methods find"))


#: Item data of a row's first cell: the pair (a, b) of document ids.
_PAIR_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass
class Agreement:
    """Pairs of two pair sets at their thresholds: in both, only in A, only in B."""

    both: np.ndarray  # (n, 2) a, b
    only_a: np.ndarray
    only_b: np.ndarray
    score_a: PairLookup  # .get((a, b)): the score of every stored pair of each set
    score_b: PairLookup

    @property
    def jaccard(self) -> float:
        """Pairs in both over pairs in either."""
        union = len(self.both) + len(self.only_a) + len(self.only_b)
        return 1.0 if union == 0 else len(self.both) / union


def agreement(arrays_a: Any, t_a: float, arrays_b: Any, t_b: float) -> Agreement:
    """Compare two PairArrays at their thresholds (numpy set operations on pair keys)."""
    def keyed(arr: Any, t: float) -> tuple[np.ndarray, np.ndarray]:
        m = arr.score >= t
        return np.stack([arr.a[m], arr.b[m]], axis=1).astype(np.int64), arr.score[m]

    pa, _ = keyed(arrays_a, t_a)
    pb, _ = keyed(arrays_b, t_b)
    stride = np.int64(max(int(pa.max(initial=0)), int(pb.max(initial=0))) + 1)
    ka, kb = pa[:, 0] * stride + pa[:, 1], pb[:, 0] * stride + pb[:, 1]
    in_b, in_a = np.isin(ka, kb), np.isin(kb, ka)
    # Scores of every stored pair, so a pair one method rejects still shows its score there.
    score_a = PairLookup(arrays_a.a, arrays_a.b, arrays_a.score)
    score_b = PairLookup(arrays_b.a, arrays_b.b, arrays_b.score)
    return Agreement(pa[in_b], pa[~in_b], pb[~in_a], score_a, score_b)


def pair_set_label(ps: Any) -> str:
    """``qgram (q=5) — 1,234 pairs``: the parameters that differ from the method's
    defaults (``defaults`` when none do), so two pair sets of one method are told apart;
    the first three in name order hid ``q`` behind an empty ``ignore=``."""
    return f"{ps.method} ({_changed_params(ps)}) — {ps.count:,} pairs"


def _changed_params(ps: Any) -> str:
    params = dict(ps.params)
    try:
        import dataclasses

        from ..core.methods import get_method

        defaults = dataclasses.asdict(get_method(ps.method).params())
    except (KeyError, ValueError, TypeError):  # a method or parameters of another release
        defaults = {}
    changed = [f"{k}={v}" for k, v in sorted(params.items()) if k not in defaults or defaults[k] != v]
    return ", ".join(changed) if changed else "defaults"


class MethodComparePanel(QWidget):
    """Two pair-set pickers with thresholds, the agreement counts and the pair lists."""

    runMethodRequested = Signal(str)
    compared = Signal(object)  # Agreement
    pairChosen = Signal(int, int)  # a row of the list chosen: its two document ids

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.store: Any = None
        self.docs: dict[int, Any] = {}
        self.result: Agreement | None = None
        self._worker: Worker | None = None
        self._again = False
        # Pair sets read for earlier comparisons, by (method, pairs_key); emptied when the
        # store's pair sets change (set_store), so a new threshold costs no second read.
        self._arrays: dict[tuple[str, str], Any] = {}
        self._list_stale = False  # a result arrived while the tab was hidden
        self._compare_due = False  # a comparison was asked for while the tab was hidden
        self._generation = 0
        self.set_a, self.set_b = QComboBox(self), QComboBox(self)
        self.t_a, self.t_b = QDoubleSpinBox(self), QDoubleSpinBox(self)
        for combo, spin, which in ((self.set_a, self.t_a, "first"), (self.set_b, self.t_b, "second")):
            combo.setToolTip(f"The {which} method's stored pairs (a method with its parameters)")
            combo.currentIndexChanged.connect(lambda _, s=spin, c=combo: self._default_threshold(c, s))
            spin.setRange(0.0, 1.0)
            spin.setDecimals(3)
            spin.setSingleStep(0.01)
            spin.setToolTip(f"Threshold for the {which} method")
            spin.valueChanged.connect(lambda _: self.compare())
        self.run_method = QComboBox(self)
        self.run_method.addItems([m.name for m in available_methods()])
        self.run_method.setToolTip("A method to run on the same folders")
        self.run_button = QPushButton("Run this method", self)
        self.run_button.setToolTip("Scan the same folders with the chosen method (default parameters); "
                                   "its pairs then appear in the lists above")
        self.run_button.clicked.connect(lambda: self.runMethodRequested.emit(self.run_method.currentText()))
        grid = QGridLayout()
        grid.addWidget(QLabel("First:"), 0, 0)
        grid.addWidget(self.set_a, 0, 1)
        grid.addWidget(self.t_a, 0, 2)
        grid.addWidget(QLabel("Second:"), 1, 0)
        grid.addWidget(self.set_b, 1, 1)
        grid.addWidget(self.t_b, 1, 2)
        grid.setColumnStretch(1, 1)
        run_row = QHBoxLayout()
        run_row.addWidget(QLabel("Run another method on these folders:"))
        run_row.addWidget(self.run_method)
        run_row.addWidget(self.run_button)
        run_row.addStretch(1)
        self.counts = QLabel("Scan with two methods to compare them.", self)
        self.counts.setObjectName("methodCounts")
        self.which = QComboBox(self)
        self.which.setToolTip("Which pairs to list")
        for key, label in VIEWS:
            self.which.addItem(label, key)
        self.which.currentIndexChanged.connect(lambda _: self._fill_list())
        self.model = QStandardItemModel(self)
        self.view = QTableView(self)
        self.view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.view.setModel(self.model)
        self.view.setObjectName("methodPairs")
        self.view.verticalHeader().hide()
        self.view.setSortingEnabled(True)
        self.view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.view.setToolTip("The pairs of the chosen kind with both methods' scores (– below the floor); "
                             "choose one to compare its two documents below")
        self.view.selectionModel().currentRowChanged.connect(self._on_current)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(grid)
        lay.addLayout(run_row)
        lay.addWidget(self.counts)
        lay.addWidget(self.which)
        lay.addWidget(self.view, 1)

    def set_store(self, store: Any, docs: dict[int, Any], known: dict[tuple[str, str], Any] | None = None) -> None:
        """List the store's pair sets (first: the newest two). ``known``: pair sets the
        caller has just read, by (method, pairs_key), so they are not read again."""
        self.store, self.docs = store, docs
        self._arrays.clear()
        self._arrays.update(known or {})
        self._generation += 1
        sets = store.pairs.sets() if store is not None else []
        for combo in (self.set_a, self.set_b):
            current = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            for ps in sets:
                combo.addItem(pair_set_label(ps), ps)
                combo.setItemData(combo.count() - 1, ", ".join(f"{k}={v}" for k, v in sorted(dict(ps.params).items())),
                                  Qt.ItemDataRole.ToolTipRole)  # every parameter, defaults too
            keys = [(ps.method, ps.pairs_key) for ps in sets]
            if current is not None and (current.method, current.pairs_key) in keys:
                combo.setCurrentIndex(keys.index((current.method, current.pairs_key)))
            combo.blockSignals(False)
        if len(sets) >= 2 and self.set_a.currentIndex() == self.set_b.currentIndex():
            self.set_b.setCurrentIndex(1 if self.set_a.currentIndex() == 0 else 0)
        for combo, spin in ((self.set_a, self.t_a), (self.set_b, self.t_b)):
            self._default_threshold(combo, spin, compare=False)
        self.compare()

    def clear(self) -> None:
        """Forget the store and the last comparison (the collection was closed); a
        comparison still running is ignored when it arrives."""
        self.store, self.docs, self.result = None, {}, None
        self._arrays.clear()
        self._generation += 1
        self._again = self._compare_due = self._list_stale = False
        for combo in (self.set_a, self.set_b):
            combo.blockSignals(True)
            combo.clear()
            combo.blockSignals(False)
        self.counts.setText("Scan with two methods to compare them.")
        self.model.clear()

    def _default_threshold(self, combo: QComboBox, spin: QDoubleSpinBox, compare: bool = True) -> None:
        ps = combo.currentData()
        if ps is not None:
            spin.blockSignals(True)
            spin.setValue(max(default_threshold(ps.method, ps.params), ps.floor))
            spin.blockSignals(False)
        if compare:
            self.compare()

    def compare(self) -> None:
        """Recompute the agreement on a worker thread (latest request wins); while the tab
        is hidden, only note that it is due (reading two pair sets for nobody costs ~1 s of
        a worker's time with 100k+ pairs)."""
        a, b = self.set_a.currentData(), self.set_b.currentData()
        if self.store is None or a is None or b is None:
            return
        if not self.isVisibleTo(self.window()):
            self._compare_due = True
            return
        self._compare_due = False
        if self._worker is not None:
            self._again = True
            return
        store, t_a, t_b = self.store, self.t_a.value(), self.t_b.value()
        keys = [(a.method, a.pairs_key), (b.method, b.pairs_key)]
        known = {k: self._arrays[k] for k in keys if k in self._arrays}  # read on this thread
        generation = self._generation

        def job(progress, cancel):
            arrays = {k: known[k] if k in known else store.pairs.arrays(*k) for k in keys}
            return agreement(arrays[keys[0]], t_a, arrays[keys[1]], t_b), arrays, generation

        self._worker = Worker(job, name="method-compare", parent=self)
        self._worker.finished.connect(self._received)
        self._worker.failed.connect(lambda m: self.counts.setText(f"Could not compare: {m}"))
        self._worker.done.connect(self._done)
        self._worker.start()

    def busy(self) -> bool:
        """True while comparing."""
        return self._worker is not None

    def shutdown(self) -> None:
        """Wait for a running comparison (on close)."""
        if self._worker is not None:
            self._worker.wait()

    def _done(self) -> None:
        self._worker = None
        if self._again:
            self._again = False
            self.compare()

    def _received(self, outcome: tuple[Agreement, dict, int]) -> None:
        result, arrays, generation = outcome
        if generation != self._generation:  # read before the store's pair sets changed (or
            return  # another store): set_store has asked for a fresh comparison if one is due
        self._arrays.update(arrays)
        self._show(result)

    def _show(self, result: Agreement) -> None:
        if self._again:
            return
        self.result = result
        self.counts.setText(
            f"Both find <b>{len(result.both):,}</b> pairs · only the first <b>{len(result.only_a):,}</b> · "
            f"only the second <b>{len(result.only_b):,}</b> · agreement {result.jaccard:.0%}")
        if not len(getattr(result, self.which.currentData())):  # show a list that has something
            for k, (key, _) in enumerate(VIEWS):
                if len(getattr(result, key)):
                    self.which.blockSignals(True)
                    self.which.setCurrentIndex(k)
                    self.which.blockSignals(False)
                    break
        # Up to MAX_LISTED rows are ~0.2 s of work on this thread: not while the tab is hidden.
        self._list_stale = True
        if self.isVisibleTo(self.window()):
            self._fill_list()
        self.compared.emit(result)

    def showEvent(self, event) -> None:  # noqa: N802
        """Compare now if it was asked for while the tab was hidden, or fill the list if a
        result came while it was."""
        super().showEvent(event)
        if self._compare_due:
            self.compare()
        elif self._list_stale:
            self._fill_list()

    def _docs_of(self, rows: np.ndarray) -> dict[int, Any]:
        """The documents of these pairs: those the window holds (the pairs shown), the rest
        (pairs of another method only) read from the store."""
        missing = sorted({int(x) for x in rows.reshape(-1).tolist()} - self.docs.keys())
        if not missing or self.store is None:
            return self.docs
        return {**self.docs, **{d.id: d for d in self.store.documents.all(missing)}}

    def current_pair(self) -> tuple[int, int] | None:
        """The document ids of the list's selected row (None: no row)."""
        return self._pair_at(self.view.currentIndex())

    def _pair_at(self, index: QModelIndex) -> tuple[int, int] | None:
        if not index.isValid():
            return None
        pair = self.model.item(index.row(), 0).data(_PAIR_ROLE)
        return None if pair is None else (int(pair[0]), int(pair[1]))

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        pair = self._pair_at(current)
        if pair is not None:
            self.pairChosen.emit(*pair)

    def _fill_list(self) -> None:
        self._list_stale = False
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["Document A", "Document B", "First score", "Second score"])
        if self.result is None:
            return
        rows = getattr(self.result, self.which.currentData())[:MAX_LISTED]
        # looked up all at once: one call per row would cost ~0.3 s here for 5,000 rows
        first = self.result.score_a.values(rows[:, 0], rows[:, 1]).tolist()
        second = self.result.score_b.values(rows[:, 0], rows[:, 1]).tolist()
        docs = self._docs_of(rows)
        for (a, b), sa, sb in zip(rows.tolist(), first, second):
            name_a = QStandardItem(doc_label(docs[a]) if a in docs else f"#{a}")
            name_a.setData((a, b), _PAIR_ROLE)  # the row's pair, wherever sorting puts the row
            self.model.appendRow([
                name_a,
                QStandardItem(doc_label(docs[b]) if b in docs else f"#{b}"),
                QStandardItem("–" if math.isnan(sa) else f"{sa:.3f}"),
                QStandardItem("–" if math.isnan(sb) else f"{sb:.3f}"),
            ])
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
