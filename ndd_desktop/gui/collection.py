"""The open collection as the window sees it: a Qt adapter over ``app.session.Session``.

The session holds the state the views share (the pair set shown, the threshold, the keeper
rule, the grouping, the undo history) and the rules (``app.selection``) that ``ndd``
follows too. This class adds what a window needs: reading a pair set and grouping at a
threshold run on worker threads; a new request while one is running is remembered and
run next (latest wins), so a slider dragged quickly never queues a backlog and never
blocks the window; and every change is announced by a signal. Verdicts and keepers are
written to the store at once and can be undone, in one history (the last change first).
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

from ..app.analyses import lineage_job
from ..app.selection import default_selection
from ..app.session import PairSetData, Session, prepare_grouping, read_pair_set
from ..store import Root, Store
from .worker import Worker

__all__ = ["Collection", "PairSetData", "read_pair_set"]


class Collection(QObject):
    """State shared by the views of one open store; see the module docstring."""

    pairSetLoaded = Signal(object)  # PairSetData
    groupingChanged = Signal(object)  # pipeline Grouping
    lineageChanged = Signal(object)  # {group id: app.analyses.GroupOrder} of the latest grouping
    verdictChanged = Signal(int, int, object)  # a, b, verdict or None
    keepersChanged = Signal()
    undoChanged = Signal(bool)  # whether there is something to undo
    busyChanged = Signal(bool)
    failed = Signal(str)

    def __init__(self, store: Store, parent: QObject | None = None):
        super().__init__(parent)
        self.session = Session(store, on_error=self.failed.emit)
        self._workers: set[Worker] = set()
        self._group_worker: Worker | None = None
        self._regroup_again = False
        self._lineage_worker: Worker | None = None
        self._lineage_again = False
        self._closed = False

    # the session's state, read by the views
    store = property(lambda self: self.session.store, doc="The open store.")
    data = property(lambda self: self.session.data, doc="The pair set shown (PairSetData) or None.")
    threshold = property(lambda self: self.session.threshold, doc="The threshold shown.")
    keeper_rule = property(lambda self: self.session.keeper_rule, doc="The keeper rule.")
    grouping_mode = property(lambda self: self.session.grouping_mode, doc="components or principal.")
    folder_priority = property(lambda self: self.session.folder_priority, doc="Folder order of that rule.")
    grouping = property(lambda self: self.session.grouping, doc="The latest groups (pipeline Grouping).")

    @property
    def path(self) -> str:
        """The store file."""
        return str(self.store.path)

    # -- workers --------------------------------------------------------------------------
    def _run(self, fn: Callable, on_result: Callable[[Any], None], name: str,
             cancellable: bool = False) -> Worker | None:
        """Run ``fn()`` on a worker (``fn(cancel)`` when ``cancellable``)."""
        if self._closed:
            return None
        call = (lambda progress, cancel: fn(cancel)) if cancellable else (lambda progress, cancel: fn())
        worker = Worker(call, name=name, parent=self)
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
        self.session.closed = True
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
        session, store = self.session, self.store

        def done(result: tuple[PairSetData, float]) -> None:
            # a large pair set's grouping loads its compiled loops while the window shows
            # the pairs; not while they are read, where numba's import held the reading
            # thread back (it holds the GIL): the pair list came a second later
            self._run(lambda: prepare_grouping(store, method, pairs_key), lambda _: None, "prepare-grouping")
            session.show(*result)
            self.pairSetLoaded.emit(session.data)
            self.regroup()

        return self._run(lambda: session.read_pair_set(method, params, pairs_key, floor, threshold), done,
                         "read-pairs")

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
        return self.store.documents.roots()

    # -- threshold and groups -------------------------------------------------------------
    def set_threshold(self, threshold: float) -> None:
        """Change the threshold, save it for the pair set shown, and regroup (no rescan)."""
        self.session.set_threshold(threshold)
        self.regroup()

    def set_grouping_options(self, rule: str, mode: str, folder_priority: tuple[str, ...] = (), *,
                             regroup: bool = True) -> None:
        """Set the keeper rule, the grouping and the folder order (for the folder-priority
        rule); a rule or grouping that changed is saved in the store. Regroups unless
        ``regroup`` is false (the caller regroups next)."""
        self.session.set_grouping_options(rule, mode, folder_priority)
        if regroup:
            self.regroup()

    def regroup(self) -> None:
        """Recompute the groups at the current settings (latest request wins)."""
        if self.data is None:
            return
        if self._group_worker is not None:
            self._regroup_again = True
            return
        job = self.session.grouping_job()

        def done(grouping: Any) -> None:
            self.session.set_grouping(grouping)
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
        job = lineage_job(self.session)
        if job is None or self._closed:
            return
        if self._lineage_worker is not None:
            # The running order is for groups nobody sees any more: stop it between two
            # groups rather than let it finish (minutes for 50,000 groups) before this one.
            self._lineage_again = True
            self._lineage_worker.cancel()
            return

        def done(result: Any) -> None:
            for_grouping, orders = result
            if for_grouping is self.grouping and not self._lineage_again:
                self.lineageChanged.emit(orders)

        def finished() -> None:
            self._lineage_worker = None
            if self._lineage_again:
                self._lineage_again = False
                self.order_versions()

        worker = self._run(job, done, "lineage", cancellable=True)
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
        return self.session.verdict(a, b)

    def set_verdict(self, a: int, b: int, verdict: str | None, *, record_undo: bool = True) -> None:
        """Save a verdict at once, remember the old one for undo, and regroup."""
        a, b = self.session.set_verdict(a, b, verdict, record_undo=record_undo)
        if record_undo:
            self.undoChanged.emit(True)
        self.verdictChanged.emit(a, b, verdict)
        self.regroup()

    def can_undo(self) -> bool:
        """True when there is a verdict or a keeper choice to undo."""
        return self.session.can_undo()

    def undo(self) -> tuple[str, Any] | None:
        """Put back the state before the last verdict or keeper choice (see ``Session.undo``)."""
        done = self.session.undo()
        if done is None:
            return None
        kind, key = done
        if kind == "verdict":
            self.verdictChanged.emit(key[0], key[1], self.session.verdict(*key))
        elif kind == "group":  # a bulk action of the group view: every pair it had set
            for a, b in key.verdicts_before:
                self.verdictChanged.emit(a, b, self.session.verdict(a, b))
            self.keepersChanged.emit()
        else:
            self.keepersChanged.emit()
        self.regroup()
        self.undoChanged.emit(self.session.can_undo())
        return done

    def set_keeper(self, doc_id: int, group_members: list[int], *, record_undo: bool = True) -> None:
        """Make ``doc_id`` the keeper of its group (clearing other chosen keepers in it);
        undo puts back the group's chosen keepers as they were."""
        if self.store.read_only:
            self.failed.emit("the collection file is read-only: a keeper cannot be chosen")
            return
        if self.session.set_keeper(doc_id, group_members, record_undo=record_undo):
            self.undoChanged.emit(True)
        self.keepersChanged.emit()
        self.regroup()

    def pairs_at_threshold(self) -> int:
        """Pairs at or above the threshold."""
        return self.session.pairs_at_threshold()
