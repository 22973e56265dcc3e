"""What the window shows of the pair set: the pairs, the threshold, the groups and the
review, kept in step with the collection's session; the folders of the collection.

A mixin of :class:`~ndd_desktop.gui.main_window.MainWindow`, kept apart so the window
module holds layout and wiring only.
"""

from __future__ import annotations

import sys
from typing import Any

from PySide6.QtWidgets import QMessageBox

from ..app.analyses import folder_source, threads_job
from ..core.methods import get_method
from ..store import Root, StoreError
from . import heap
from .collection import PairSetData
from .formatting import doc_label, set_root_names


class PairSetViewsMixin:
    """The pair set views of the main window."""

    def _pair_set_loaded(self, data: PairSetData) -> None:
        method = get_method(data.method)
        # labels tell apart folders of one name (two "letters" folders: a/letters, b/letters)
        set_root_names(data.docs.roots() | {r.path for r in self.collection.store.documents.roots()})
        t = self.collection.threshold
        self.threshold.set_scores(data.arrays.score, data.floor, documents=data.documents, unread=self.errors.count())
        self.threshold.set_source(f"{data.method} pairs",
                                  f"The pairs shown are those of the last {data.method} scan "
                                  f"(parameters: {_params_text(data.params)}).\n"
                                  "A method chosen on the left is used by the next scan.")
        self.threshold.set_complete_from(data.complete_from, data.method)
        self.threshold.set_threshold(t, emit=False)
        self.threshold.set_curve(_acceptance(method, data))
        self.pairs.set_pairs(data.arrays, data.docs, data.verdicts, t)
        self.methods.set_store(self.collection.store, data.docs, known={(data.method, data.pairs_key): data.arrays})
        self._apply_keeper_rule(regroup=False)  # the collection regroups right after this signal
        self.folders.set_source(folder_source(self.collection.session))
        self.threads_view.set_source(threads_job(self.collection.session))
        self.review.set_pairs_shown(True)
        self._show_pairs_status()
        if self.pairs.model.total_rows():
            self.pairs.select_row(0)
        heap.settle(data.documents)  # a large collection: keep later full collections short

    def _pairs_status_text(self) -> str:
        d = self.collection.data if self.collection is not None else None
        if d is None:
            return ""
        if not len(d.arrays):
            return f"No pairs of {d.method} at or above {d.floor:.2f}."
        return (f"{len(d.arrays):,} pairs of {d.method} at or above {d.floor:.2f}; "
                f"{self.pairs.model.total_rows():,} at the threshold {self.threshold.threshold():.2f}.")

    def _show_pairs_status(self) -> None:
        self._pairs_status = self._pairs_status_text()
        self.statusBar().showMessage(self._pairs_status)

    def _threshold_moved(self, _t: float) -> None:
        """Keep the status bar's pair-set line at the current threshold (another message
        that replaced it is left alone)."""
        if self._pairs_status and self.statusBar().currentMessage() == self._pairs_status:
            self._show_pairs_status()

    def _doc_name(self, doc_id: int) -> str:
        """The document as the tables name it (its folder's short name and relative path:
        two copies of one file name are told apart)."""
        doc = self.collection.data.docs.get(doc_id) if self.collection and self.collection.data else None
        return doc_label(doc) if doc is not None else f"#{doc_id}"

    def _choose_keeper(self, doc_id: int, members: list[int]) -> None:
        """Make ``doc_id`` its group's keeper, and say so."""
        if self.collection is None:
            return
        self.collection.set_keeper(doc_id, members)
        if not self.collection.store.read_only:
            self.statusBar().showMessage(f"Made keeper: {self._doc_name(doc_id)}  (U or Ctrl+Z to undo)")

    def _reviewed(self, a: int, b: int, verdict: Any) -> None:
        pair = f"{self._doc_name(a)} ~ {self._doc_name(b)}"
        if verdict is None:
            self.statusBar().showMessage(f"Verdict cleared: {pair}  (U or Ctrl+Z to undo)")
        else:
            word = "duplicate" if verdict == "duplicate" else "not duplicate"
            self.statusBar().showMessage(f"Marked {word}: {pair}  (U or Ctrl+Z to undo)")

    def reset_views(self) -> None:
        """Empty every view that shows collection data (pairs, threshold and histogram,
        counts, groups, progress, method comparison, compare view) and disable the pair keys:
        nothing of a collection that was closed may stay on screen or be judged."""
        self.review.set_pairs_shown(False)
        self._pairs_status = ""
        self.pairs.clear()
        self.threshold.clear()
        self.clusters.clear()
        self.progress.reset()
        self.methods.clear()
        self.compare.clear()
        for view in self.extra_views:
            view.clear()

    def _confirm_remove_folder(self, path: str) -> bool:
        """Ask before a folder with documents in the store leaves the collection."""
        if self.collection is None:
            return True
        store = self.collection.store
        docs = [d for d in store.documents.all(status=None) if d.root == path]
        if not docs:
            return True
        ids = {d.id for d in docs}
        decisions = sum(1 for a, b in store.review.verdicts() if a in ids or b in ids)
        decisions += len(store.review.keepers() & ids)
        read = sum(1 for d in docs if d.status == "ok")
        text = remove_question(path, read, len(docs) - read, decisions)
        answer = QMessageBox.question(self, "Remove folder", text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def _roots_changed(self) -> None:
        """Keep the store's folders as listed (a removed folder's documents leave the store,
        and the views are read again without them)."""
        if self.collection is None or self.scan.running():
            return
        self.update_title()
        roots = [Root(p, r) for p, r in self.setup.roots()]
        removed = 0
        try:
            if roots != self.collection.store.documents.roots():
                removed = self.collection.store.documents.set_roots(roots)
                self.start_page.set_recent(self.settings.recent())  # it names each one's folders
        except StoreError as exc:
            self.statusBar().showMessage(str(exc))
        if removed:
            store = self.collection.store
            self.errors.clear()
            self.errors.add(store.documents.errors(in_part=True))
            if self.collection.data is not None:
                self.review.set_pairs_shown(False)  # until the pairs are read again without them
                self.collection.reload()
            else:
                self.methods.set_store(store, {})
            self.statusBar().showMessage(f"{removed:,} document{'s' if removed != 1 else ''} left the collection "
                                         "with the folder (the files on disk are untouched).")
            return
        self._apply_keeper_rule()

    def _undone(self, kind: str, key: Any) -> None:
        if kind == "group":
            n = len(key.verdicts_before)
            self.statusBar().showMessage(f"Undone: the last group action; {n} verdict{'' if n == 1 else 's'} "
                                         "and the group's keepers are as before.")
        elif kind == "keeper":
            name = self._doc_name(key)
            self.statusBar().showMessage(f"Undone: {name} made keeper; the group's keeper is as before.")
        else:
            self.statusBar().showMessage("Undone: the verdict of the selected pair is as before.")

    def _threshold_settled(self, t: float) -> None:
        if self.collection is not None:
            self.collection.set_threshold(t)
            if self.collection.data is not None:
                self.folders.set_source(folder_source(self.collection.session))

    def _apply_keeper_rule(self, regroup: bool = True) -> None:
        """Hand the Groups tab's keeper rule and grouping, and the folder order, to the
        collection (which saves a changed rule or grouping in its file) and regroup."""
        if self.collection is None:
            return
        prio = tuple(p for p, _ in self.setup.roots())
        self.collection.set_grouping_options(self.clusters.rule.currentData(), self.clusters.mode.currentData(),
                                             prio, regroup=regroup)

    def _show_grouping_options(self) -> None:
        """Put the open collection's saved keeper rule and grouping in the Groups tab, without
        a signal (so nothing is saved again and nothing regroups)."""
        if self.collection is None:
            return
        self.clusters.set_rule(self.collection.keeper_rule)
        mode = self.clusters.mode
        idx = mode.findData(self.collection.grouping_mode)
        if idx >= 0:
            blocked = mode.blockSignals(True)
            try:
                mode.setCurrentIndex(idx)
            finally:
                mode.blockSignals(blocked)

    def _grouping_changed(self, grouping: Any) -> None:
        docs = self.collection.data.docs if self.collection and self.collection.data else {}
        self.clusters.set_grouping(grouping, docs)
        dropped = grouping.covered_count()  # from the arrays: no group is made for it
        self.threshold.set_counts(self.collection.pairs_at_threshold(), len(grouping.groups), dropped)


def _params_text(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items())) or "the defaults"


def _acceptance(method: Any, data: PairSetData):
    """The method's acceptance curve ``x -> P(found)`` for these parameters, or None.

    Methods that find candidates by banding (MinHash with LSH) offer
    ``acceptance_curve(params, x[, floor])``, on the method or in its module.
    """
    fn = getattr(method, "acceptance_curve", None)
    if fn is None:
        fn = getattr(sys.modules.get(type(method).__module__), "acceptance_curve", None)
    if fn is None:
        return None
    params = method.params(data.params)

    def curve(xs):
        try:
            return fn(params, xs, data.floor)
        except TypeError:
            return fn(params, xs)

    return curve


def remove_question(path: str, read: int, unread: int, decisions: int) -> str:
    """What removing a folder drops: its ``read`` documents (counted as the window counts
    them), the records of its ``unread`` files, and the review ``decisions`` set aside."""
    text = (f"Remove the folder\n{path}\nfrom this collection?\n\n"
            f"{read:,} document{'s' if read != 1 else ''} read from it will be dropped from the collection, "
            "with their pairs")
    if unread:
        text += f" (and the records of {unread:,} file{'s' if unread != 1 else ''} that could not be read)"
    if decisions:
        text += (f", and {decisions:,} review decision{'s' if decisions != 1 else ''} about them (verdicts and "
                 "chosen keepers) will be set aside: adding the folder back brings back those whose documents "
                 "are unchanged")
    return text + ".\n\nThe files on disk are not touched."
