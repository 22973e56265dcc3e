"""One open collection as a reader sees it, without Qt: the session the window and ``ndd`` share.

A :class:`Session` holds the pair set shown, the threshold, the keeper rule, the grouping
and the folder priority; it forms the groups (``pipeline.grouping.groups_at``), records
review actions (verdicts, keepers) with one undo history, and plans an export of what is
shown. The window (``gui.collection.Collection``) adapts it to signals and runs its reads
on worker threads; the CLI opens one per command. The choices come from
:mod:`ndd_desktop.app.selection`, so both views show the same thing.

Reads that take long (:meth:`Session.read_pair_set`, :meth:`Session.grouping_job`) touch
no session state, so a caller may run them on another thread and hand the result back
(:meth:`Session.show`, :meth:`Session.set_grouping`) on its own.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..core.unique import sorted_unique
from ..export import ExportOptions, plan_export
from ..pipeline.grouping import GROUPINGS, KEEPER_RULES, groups_at, load_kernels
from ..pipeline.pair_graph import PairGraph
from ..store import DocumentTable
from ..store.settings import GROUPING_KEY, KEEPER_RULE_KEY, threshold_key
from .selection import Selection, choose_grouping, choose_threshold, select


@dataclass
class PairSetData:
    """Everything the views need about one pair set, read in one go."""

    method: str
    params: dict
    pairs_key: str
    floor: float
    arrays: Any  # store.PairArrays
    docs: DocumentTable  # the documents of the pairs, of the reviewer's verdicts and keepers
    verdicts: dict[tuple[int, int], str] = field(default_factory=dict)
    complete_from: float | None = None  # see store.PairSet
    saved_threshold: float | None = None  # the reviewer's, kept in the store for this pair set
    documents: int = 0  # readable documents in the collection (most are in no pair)
    graph: Any = None  # pipeline.pair_graph.PairGraph of arrays and docs, made by the first grouping

    def pair_graph(self) -> Any:
        """The pair set and its documents prepared for grouping (``pipeline.pair_graph``),
        made on the first call and kept: a regrouping then redoes only what depends on the
        threshold. Safe from any thread (a second caller waits for the first)."""
        with _GRAPH_LOCK:
            if self.graph is None:
                self.graph = PairGraph(self.arrays, self.docs)
            return self.graph


_GRAPH_LOCK = threading.Lock()


def read_pair_set(store, method: str, params: dict, pairs_key: str, floor: float) -> PairSetData:
    """Read a pair set with the documents any view of it can name, and the verdicts.

    Only the documents of its pairs, of the reviewer's verdicts and of the chosen keepers
    are read (a group is formed from those): in a large collection most documents are in no
    pair, and reading them all cost the window seconds per 100,000 documents."""
    # the pairs of documents removed since the set was stored are dropped here, from the
    # documents read anyway, instead of from every document id of the collection
    arrays = store.pairs.arrays(method, pairs_key, check_documents=False)
    verdicts = store.review.verdicts()
    named = np.concatenate((arrays.a, arrays.b, np.asarray([x for pair in verdicts for x in pair], dtype=np.int64),
                            np.asarray(sorted(store.review.keepers()), dtype=np.int64)))
    every = store.documents.table(sorted_unique(named).tolist(), status=None)  # a pair stays while both exist
    held = np.fromiter(every.keys(), dtype=np.int64, count=len(every))
    present = np.isin(arrays.a, held) & np.isin(arrays.b, held)
    if not present.all():
        arrays = arrays.where(present)
    docs = every.with_status("ok")
    pset = store.pairs.find_set(method, pairs_key)
    complete_from = pset.complete_from if pset is not None else None
    return PairSetData(method, dict(params), pairs_key, floor, arrays, docs, verdicts, complete_from,
                       store.settings.saved_threshold(method, pairs_key), store.documents.count())


def prepare_grouping(store, method: str, pairs_key: str) -> None:
    """Load what forming the groups of this pair set needs once per process (the compiled
    loops, when it is large), so that its first grouping does not wait for it; safe on any
    thread."""
    pair_set = store.pairs.find_set(method, pairs_key)
    load_kernels(pair_set.count if pair_set is not None else 0)


class Session:
    """The state and actions of one open collection; see the module docstring.

    ``on_error`` is called with a message when a setting cannot be saved (a locked or
    full disk must not break tuning; the setting still applies until the session ends).
    """

    def __init__(self, store, on_error: Callable[[str], None] | None = None):
        self.store = store
        self.on_error = on_error
        self.data: PairSetData | None = None
        self.selection: Selection | None = None  # set by use(): a pair set named without its arrays
        self.threshold = 0.5
        saved = choose_grouping(store)  # the folder priority comes from the caller
        self.keeper_rule, self.grouping_mode = saved.keeper_rule, saved.grouping
        self.folder_priority: tuple[str, ...] = ()
        self.grouping: Any = None
        self._arrays: Any = None  # the pair set used, when read without show() (see pair_arrays)
        # ("verdict", (a, b), verdict before) or ("keeper", doc id, {member: chosen before})
        self._undo: list[tuple[str, Any, Any]] = []
        self.closed = False

    # -- the pair set shown ---------------------------------------------------------------
    def read_pair_set(self, method: str, params: dict, pairs_key: str, floor: float,
                      threshold: float | None = None) -> tuple[PairSetData, float]:
        """Read a pair set and the threshold it opens at (given, else saved, else the
        method's default); changes nothing (safe on another thread)."""
        data = read_pair_set(self.store, method, params, pairs_key, floor)
        return data, choose_threshold(self.store.settings, method, params, pairs_key, threshold)[0]

    def show(self, data: PairSetData, threshold: float) -> None:
        """Make ``data`` the pair set shown, at ``threshold`` (never below its floor); the
        groups shown so far stay until new ones are set (a view keeps showing them)."""
        self.data = data
        self.selection = None
        self._arrays = None
        self.threshold = max(float(threshold), data.floor)

    def use(self, selection: Selection) -> None:
        """Show the pair set of ``selection`` without reading its arrays (the CLI's way:
        ``groups()`` reads what it needs, listings stream from the store)."""
        self.data = None
        self.selection = selection
        self.threshold = selection.threshold
        self.grouping = None
        self._arrays = None

    def select(self, method: str | None = None, settings: dict | None = None,
               threshold: float | None = None) -> Selection:
        """Choose the pair set by the app's rule (``app.selection.select``) and use it."""
        selection = select(self.store, method, settings, threshold=threshold)
        self.use(selection)
        return selection

    @property
    def method(self) -> str | None:
        """The method of the pair set shown."""
        if self.data is not None:
            return self.data.method
        return self.selection.method.name if self.selection is not None else None

    @property
    def pairs_key(self) -> str | None:
        """The key of the pair set shown."""
        if self.data is not None:
            return self.data.pairs_key
        return self.selection.pairs_key if self.selection is not None else None

    def pair_arrays(self) -> Any:
        """The pair set shown as numpy arrays (``store.PairArrays``): those read with it,
        else read now and kept for the groups too; None when no pair set is shown."""
        if self.data is not None:
            return self.data.arrays
        if self._arrays is None and self.method is not None:
            self._arrays = self.store.pairs.arrays(self.method, self.pairs_key)
        return self._arrays

    # -- threshold and grouping -----------------------------------------------------------
    def set_threshold(self, threshold: float) -> None:
        """Change the threshold and save it for the pair set shown (no rescan)."""
        self.threshold = float(threshold)
        d = self.data
        if d is not None and d.saved_threshold != self.threshold:
            self._save(threshold_key(d.method, d.pairs_key), self.threshold)
            d.saved_threshold = self.threshold

    def set_grouping_options(self, rule: str, mode: str, folder_priority: tuple[str, ...] = ()) -> None:
        """Set the keeper rule, the grouping and the folder order; a rule or grouping that
        changed is saved with the collection."""
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

    def use_grouping(self, rule: str, mode: str, folder_priority: tuple[str, ...] = ()) -> None:
        """Use these for this session only, saving nothing (an option of one command)."""
        if rule not in KEEPER_RULES:
            raise ValueError(rule)
        if mode not in GROUPINGS:
            raise ValueError(mode)
        self.keeper_rule, self.grouping_mode, self.folder_priority = rule, mode, tuple(folder_priority)

    def _save(self, key: str, value: Any) -> None:
        """Keep a setting in the collection file; a failure goes to ``on_error``."""
        if self.closed or self.store.read_only:  # read-only: the setting applies until closed
            return
        try:
            self.store.settings.put(key, value)
        except Exception as exc:  # a locked or full disk must not break tuning
            if self.on_error is not None:
                self.on_error(f"could not save {key} in the collection: {exc}")

    def grouping_job(self) -> Callable[[], Any] | None:
        """A function forming the groups at the current settings (a snapshot: safe to run
        on another thread while the settings change); None when no pair set is shown."""
        method, pairs_key = self.method, self.pairs_key
        if method is None:
            return None
        store, t, rule, prio, mode = self.store, self.threshold, self.keeper_rule, self.folder_priority, \
            self.grouping_mode
        data = self.data
        arrays = data.arrays if data is not None else self._arrays

        def job() -> Any:
            return groups_at(store, method, pairs_key, t, keeper_rule=rule, folder_priority=prio, grouping=mode,
                             arrays=arrays, graph=data.pair_graph() if data is not None else None)

        return job

    def set_grouping(self, grouping: Any) -> None:
        """Keep the groups a :meth:`grouping_job` formed."""
        self.grouping = grouping

    def groups(self) -> Any:
        """Form the groups at the current settings now, keep and return them."""
        job = self.grouping_job()
        self.grouping = None if job is None else job()
        return self.grouping

    def iter_pairs(self, batch: int) -> Any:
        """The pairs at or above the threshold, best first, streamed from the store."""
        if self.method is None:
            return iter(())
        return self.store.pairs.iter_rows(self.method, self.pairs_key, self.threshold, batch=batch)

    def pairs_at_threshold(self) -> int:
        """Pairs at or above the threshold."""
        if self.data is not None:
            return int(np.count_nonzero(self.data.arrays.score >= self.threshold))
        if self.method is None:
            return 0
        return self.store.pairs.count(self.method, self.pairs_key, self.threshold)

    # -- review ---------------------------------------------------------------------------
    def verdict(self, a: int, b: int) -> str | None:
        """The current verdict of a pair (of the pair set read)."""
        if self.data is None:
            return None
        return self.data.verdicts.get((min(a, b), max(a, b)))

    def set_verdict(self, a: int, b: int, verdict: str | None, *, record_undo: bool = True) -> tuple[int, int]:
        """Save a verdict at once and remember the old one for undo; returns the pair (a < b)."""
        a, b = min(a, b), max(a, b)
        old = self.verdict(a, b)
        self.store.review.set_verdict(a, b, verdict)
        if self.data is not None:
            if verdict is None:
                self.data.verdicts.pop((a, b), None)
            else:
                self.data.verdicts[(a, b)] = verdict
        if record_undo:
            self._undo.append(("verdict", (a, b), old))
        return a, b

    def set_keeper(self, doc_id: int, group_members: list[int], *, record_undo: bool = True) -> bool:
        """Make ``doc_id`` the keeper of its group (clearing other chosen keepers in it);
        undo puts back the group's chosen keepers as they were. Returns whether anything
        was recorded for undo."""
        doc_id = int(doc_id)
        chosen = self.store.review.keepers()
        members = {int(m) for m in group_members} | {doc_id}
        before = {m: m in chosen for m in members}
        with self.store.review.batch():
            for m in sorted(members):
                if m != doc_id and m in chosen:
                    self.store.review.set_keeper(m, False)
            self.store.review.set_keeper(doc_id, True)
        if record_undo and any(before[m] != (m == doc_id) for m in members):
            self._undo.append(("keeper", doc_id, before))
            return True
        return False

    def record_group_change(self, change: Any) -> None:
        """Remember a bulk action of the group view (``pipeline.group_view.BulkChange``) in
        the one undo history, so Ctrl+Z in the window undoes it as any other review."""
        self._undo.append(("group", None, change))

    def forget_group_change(self, change: Any) -> None:
        """Drop a bulk action from the undo history (it was undone by its own view)."""
        self._undo = [step for step in self._undo if not (step[0] == "group" and step[2] is change)]

    def last_change(self) -> Any:
        """The bulk change an undo would put back now (None when the last step is another)."""
        return self._undo[-1][2] if self._undo and self._undo[-1][0] == "group" else None

    def can_undo(self) -> bool:
        """True when there is a verdict, a keeper choice or a group action to undo."""
        return bool(self._undo)

    def undo(self) -> tuple[str, Any] | None:
        """Put back the state before the last verdict or keeper choice.

        Returns ``("verdict", (a, b))``, ``("keeper", doc_id)`` (the document that had
        been made keeper) or ``("group", change)`` (a bulk action of the group view), or None
        when there is nothing to undo.
        """
        if not self._undo:
            return None
        kind, key, before = self._undo.pop()
        if kind == "group":
            from ..pipeline.group_view import undo_bulk

            undo_bulk(self.store.review, before)
            if self.data is not None:  # the session's copy of the verdicts, which the views show
                self.data.verdicts = self.store.review.verdicts()
            return kind, before
        if kind == "verdict":
            self.set_verdict(key[0], key[1], before, record_undo=False)
        else:
            chosen = self.store.review.keepers()
            with self.store.review.batch():
                for member, was_chosen in before.items():
                    if was_chosen != (member in chosen):
                        self.store.review.set_keeper(member, was_chosen)
        return kind, key

    # -- export ---------------------------------------------------------------------------
    def export_choices(self) -> dict[str, Any]:
        """What an export of what is shown takes from the session: the pair set, threshold,
        keeper rule, grouping and folder priority (``ExportOptions`` keywords)."""
        return dict(method=self.method, pairs_key=self.pairs_key, threshold=self.threshold,
                    keeper_rule=self.keeper_rule, grouping=self.grouping_mode, folder_priority=self.folder_priority)

    def export_options(self, dest: str, **choices: Any) -> ExportOptions:
        """Export options for what is shown (:meth:`export_choices`); ``choices`` (mode,
        reports, bagit, ...) add the rest."""
        return ExportOptions(dest=dest, **self.export_choices(), **choices)

    def plan_export(self, dest: str, **choices: Any) -> Any:
        """The export plan of what is shown (``export.plan_export``; no file is touched)."""
        return plan_export(self.store, self.export_options(dest, **choices))
