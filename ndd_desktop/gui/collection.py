"""The open collection as the window sees it: the store, the pair set shown, the threshold.

``Collection`` owns the store handle and every piece of state the views share. Reading a
pair set and grouping at a threshold run on worker threads; a new request while one is
running is remembered and run next (latest wins), so a slider dragged quickly never
queues a backlog and never blocks the window. Verdicts and keepers are written to the
store at once and can be undone, in one history (the last change first).

The threshold settled on for each pair set, the keeper rule and the grouping are kept in
the collection file (``Store.set_setting``), so they come back with it; which of them
applies is decided by ``app.selection``, the rule ``ndd`` follows too. A change is written
only when the reviewer makes one, never by opening or restoring.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..app.selection import choose_grouping, choose_threshold, default_selection
from ..pipeline.grouping import GROUPINGS, KEEPER_RULES, groups_at
from ..store import PairArrays, Root, Store
from ..store.settings import GROUPING_KEY, KEEPER_RULE_KEY, threshold_key
from .worker import Worker


@dataclass
class PairSetData:
    """Everything the views need about one pair set, read in one go off the GUI thread."""

    method: str
    params: dict
    pairs_key: str
    floor: float
    arrays: PairArrays
    docs: dict[int, Any]
    verdicts: dict[tuple[int, int], str] = field(default_factory=dict)
    complete_from: float | None = None  # see store.PairSet
    saved_threshold: float | None = None  # the reviewer's, kept in the store for this pair set


def read_pair_set(store: Store, method: str, params: dict, pairs_key: str, floor: float) -> PairSetData:
    """Read a pair set with its documents and the verdicts (worker thread)."""
    arrays = store.pair_arrays(method, pairs_key)
    docs = {d.id: d for d in store.documents()}
    pset = store.pair_set(method, pairs_key)
    complete_from = pset.complete_from if pset is not None else None
    return PairSetData(method, dict(params), pairs_key, floor, arrays, docs, store.verdicts(), complete_from,
                       store.saved_threshold(method, pairs_key))


class Collection(QObject):
    """State shared by the views of one open store; see the module docstring."""

    pairSetLoaded = Signal(object)  # PairSetData
    groupingChanged = Signal(object)  # pipeline Grouping
    lineageChanged = Signal(object)  # {group id: pipeline.lineage.GroupOrder} of the latest grouping
    verdictChanged = Signal(int, int, object)  # a, b, verdict or None
    keepersChanged = Signal()
    undoChanged = Signal(bool)  # whether there is something to undo
    busyChanged = Signal(bool)
    failed = Signal(str)

    def __init__(self, store: Store, parent: QObject | None = None):
        super().__init__(parent)
        self.store = store
        self.data: PairSetData | None = None
        self.threshold = 0.5
        saved = choose_grouping(store)  # the folder priority comes from the clusters tab
        self.keeper_rule = saved.keeper_rule
        self.grouping_mode = saved.grouping
        self.folder_priority: tuple[str, ...] = ()
        self.grouping: Any = None
        # ("verdict", (a, b), verdict before) or ("keeper", doc id, {member: chosen before})
        self._undo: list[tuple[str, Any, Any]] = []
        self._workers: set[Worker] = set()
        self._group_worker: Worker | None = None
        self._regroup_again = False
        self._lineage_worker: Worker | None = None
        self._lineage_again = False
        self._closed = False

    @property
    def path(self) -> str:
        """The store file."""
        return str(self.store.path)

    # -- workers --------------------------------------------------------------------------
    def _run(self, fn: Callable, on_result: Callable[[Any], None], name: str) -> Worker | None:
        if self._closed:
            return None
        worker = Worker(lambda progress, cancel: fn(), name=name, parent=self)
        worker.finished.connect(on_result)
        worker.failed.connect(self.failed)
        worker.done.connect(lambda: self._finished(worker))
        self._workers.add(worker)
        self.busyChanged.emit(True)
        worker.start()
        return worker

    def _finished(self, worker: Worker) -> None:
        self._workers.discard(worker)
        if not self._workers:
            self.busyChanged.emit(False)

    def busy(self) -> bool:
        """True while a read or a regrouping runs."""
        return bool(self._workers)

    def shutdown(self) -> None:
        """Wait for running work; no signal is emitted and no work started afterwards."""
        self._closed = True
        self.blockSignals(True)
        self._regroup_again = False
        self._lineage_again = False
        for w in list(self._workers):
            w.wait()
        self._workers.clear()

    # -- pair sets ------------------------------------------------------------------------
    def load_pair_set(self, method: str, params: dict, pairs_key: str, floor: float,
                      threshold: float | None = None) -> Worker | None:
        """Read a pair set in the background; ``pairSetLoaded`` and ``groupingChanged`` follow.

        Without ``threshold``: the one saved for this pair set, else the method's default.
        """
        store = self.store

        def job() -> tuple[PairSetData, float]:
            data = read_pair_set(store, method, params, pairs_key, floor)
            return data, choose_threshold(store, method, params, pairs_key, threshold)[0]

        def done(result: tuple[PairSetData, float]) -> None:
            data, t = result
            self.data = data
            self.threshold = max(float(t), data.floor)
            self.pairSetLoaded.emit(data)
            self.regroup()

        return self._run(job, done, "read-pairs")

    def reload(self) -> Worker | None:
        """Read the shown pair set again (its documents changed), keeping the threshold."""
        d = self.data
        if d is None:
            return self.load_latest()
        return self.load_pair_set(d.method, d.params, d.pairs_key, d.floor, threshold=self.threshold)

    def load_latest(self) -> Worker | None:
        """Load the pair set the collection shows on opening (``app.default_selection``), if any."""
        sel = default_selection(self.store)
        if sel is None:
            return None
        ps = sel.pair_set
        return self.load_pair_set(ps.method, ps.params, ps.pairs_key, ps.floor)

    def roots(self) -> list[Root]:
        """The folders of the collection."""
        return self.store.roots()

    # -- threshold and groups -------------------------------------------------------------
    def set_threshold(self, threshold: float) -> None:
        """Change the threshold, save it for the pair set shown, and regroup (no rescan)."""
        self.threshold = float(threshold)
        d = self.data
        if d is not None and d.saved_threshold != self.threshold:  # read with the pair set
            self._save(threshold_key(d.method, d.pairs_key), self.threshold)
            d.saved_threshold = self.threshold
        self.regroup()

    def set_grouping_options(self, rule: str, mode: str, folder_priority: tuple[str, ...] = (), *,
                             regroup: bool = True) -> None:
        """Set the keeper rule, the grouping and the folder order (for the folder-priority
        rule); a rule or grouping that changed is saved in the store. Regroups unless
        ``regroup`` is false (the caller regroups next)."""
        if rule not in KEEPER_RULES:
            raise ValueError(rule)
        if mode not in GROUPINGS:
            raise ValueError(mode)
        if rule != self.keeper_rule:
            self._save(KEEPER_RULE_KEY, rule)
        if mode != self.grouping_mode:
            self._save(GROUPING_KEY, mode)
        self.keeper_rule, self.grouping_mode = rule, mode
        self.folder_priority = tuple(folder_priority)
        if regroup:
            self.regroup()

    def _save(self, key: str, value: Any) -> None:
        """Keep a setting in the collection file; a failure is reported, never raised
        into the views (the setting still applies until the collection is closed)."""
        if self._closed or self.store.read_only:  # read-only: the setting applies until closed
            return
        try:
            self.store.set_setting(key, value)
        except Exception as exc:  # a locked or full disk must not break tuning
            self.failed.emit(f"could not save {key} in the collection: {exc}")

    def regroup(self) -> None:
        """Recompute the groups at the current settings (latest request wins)."""
        if self.data is None:
            return
        if self._group_worker is not None:
            self._regroup_again = True
            return
        d, t, rule, prio, store = self.data, self.threshold, self.keeper_rule, self.folder_priority, self.store
        mode = self.grouping_mode

        def job() -> Any:
            return groups_at(store, d.method, d.pairs_key, t, keeper_rule=rule, folder_priority=prio, grouping=mode,
                             arrays=d.arrays)

        def done(grouping: Any) -> None:
            self.grouping = grouping
            if not self._regroup_again:
                self.groupingChanged.emit(grouping)
                self.order_versions()

        worker = self._run(job, done, "regroup")
        if worker is not None:
            worker.done.connect(self._regroup_done)
        self._group_worker = worker

    def order_versions(self) -> None:
        """Work out the version order of the current groups in the background
        (``lineageChanged`` follows; an answer for an older grouping is dropped)."""
        grouping, store = self.grouping, self.store
        if grouping is None or self._closed:
            return
        if self._lineage_worker is not None:
            self._lineage_again = True
            return
        from ..pipeline.lineage import group_orders

        def job() -> Any:
            return grouping, group_orders(store, grouping.groups)

        def done(result: Any) -> None:
            for_grouping, orders = result
            if for_grouping is self.grouping and not self._lineage_again:
                self.lineageChanged.emit(orders)

        def finished() -> None:
            self._lineage_worker = None
            if self._lineage_again:
                self._lineage_again = False
                self.order_versions()

        worker = self._run(job, done, "lineage")
        if worker is not None:
            worker.done.connect(finished)
        self._lineage_worker = worker

    def _regroup_done(self) -> None:
        self._group_worker = None
        if self._regroup_again:
            self._regroup_again = False
            self.regroup()

    def regrouping(self) -> bool:
        """True while groups are being recomputed."""
        return self._group_worker is not None

    # -- review ---------------------------------------------------------------------------
    def verdict(self, a: int, b: int) -> str | None:
        """The current verdict of a pair."""
        if self.data is None:
            return None
        return self.data.verdicts.get((min(a, b), max(a, b)))

    def set_verdict(self, a: int, b: int, verdict: str | None, *, record_undo: bool = True) -> None:
        """Save a verdict at once, remember the old one for undo, and regroup."""
        a, b = min(a, b), max(a, b)
        old = self.verdict(a, b)
        self.store.set_verdict(a, b, verdict)
        if self.data is not None:
            if verdict is None:
                self.data.verdicts.pop((a, b), None)
            else:
                self.data.verdicts[(a, b)] = verdict
        if record_undo:
            self._push_undo(("verdict", (a, b), old))
        self.verdictChanged.emit(a, b, verdict)
        self.regroup()

    def _push_undo(self, entry: tuple[str, Any, Any]) -> None:
        self._undo.append(entry)
        self.undoChanged.emit(True)

    def can_undo(self) -> bool:
        """True when there is a verdict or a keeper choice to undo."""
        return bool(self._undo)

    def undo(self) -> tuple[str, Any] | None:
        """Put back the state before the last verdict or keeper choice.

        Returns ``("verdict", (a, b))`` or ``("keeper", doc_id)`` (the document that had
        been made keeper), or None when there is nothing to undo.
        """
        if not self._undo:
            return None
        kind, key, before = self._undo.pop()
        if kind == "verdict":
            self.set_verdict(key[0], key[1], before, record_undo=False)
        else:
            chosen = self.store.keepers()
            for member, was_chosen in before.items():
                if was_chosen != (member in chosen):
                    self.store.set_keeper(member, was_chosen)
            self.keepersChanged.emit()
            self.regroup()
        self.undoChanged.emit(bool(self._undo))
        return kind, key

    def set_keeper(self, doc_id: int, group_members: list[int], *, record_undo: bool = True) -> None:
        """Make ``doc_id`` the keeper of its group (clearing other chosen keepers in it);
        undo puts back the group's chosen keepers as they were."""
        doc_id = int(doc_id)
        if self.store.read_only:
            self.failed.emit("the collection file is read-only: a keeper cannot be chosen")
            return
        chosen = self.store.keepers()
        members = {int(m) for m in group_members} | {doc_id}
        before = {m: m in chosen for m in members}
        for m in sorted(members):
            if m != doc_id and m in chosen:
                self.store.set_keeper(m, False)
        self.store.set_keeper(doc_id, True)
        if record_undo and any(before[m] != (m == doc_id) for m in members):
            self._push_undo(("keeper", int(doc_id), before))
        self.keepersChanged.emit()
        self.regroup()

    def pairs_at_threshold(self) -> int:
        """Pairs at or above the threshold."""
        if self.data is None:
            return 0
        return int(np.count_nonzero(self.data.arrays.score >= self.threshold))
