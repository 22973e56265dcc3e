"""The main window: the start page, then the workspace of one open collection.

Layout of the workspace: the scan set-up on the left (folders, method, parameters, Scan and
its progress); on the right the threshold panel, the tabs (Pairs, Groups, Methods, Errors)
and the compare view. This module only builds and wires; each concept lives in its own
module, and every long task runs on a worker thread.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QCloseEvent, QIcon
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..app.analyses import folder_source, threads_job
from ..core.methods import get_method
from ..store import Root, StoreError
from . import heap, resources
from .cluster_tree import ClusterTree
from .collection import Collection, PairSetData
from .compare_view import CompareView
from .errors_panel import ErrorsPanel
from .export_dialog import ExportDialog
from .folders_view import FoldersView
from .threads_view import ThreadsView
from .formatting import set_root_names
from .method_compare import MethodComparePanel
from .opening import OpeningMixin
from .pairs_view import PairsView
from .review_actions import ReviewActions
from .scan_progress import ScanProgress
from .scan_runner import ScanRunner
from .scan_setup import ScanSetupPanel, folders_from_mime
from .settings import Settings
from .start_page import StartPage
from .window_actions import build_menus

TAB_PAIRS, TAB_GROUPS, TAB_METHODS, TAB_ERRORS = range(4)


class MainWindow(OpeningMixin, QMainWindow):
    """The application window (see the module docstring)."""

    def __init__(self, settings: Settings | None = None, data_dir: Path | None = None):
        super().__init__()
        self.settings = settings or Settings()
        self.data_dir = Path(data_dir) if data_dir else resources.data_dir()
        self.collection: Collection | None = None
        self.export_dialog: ExportDialog | None = None
        self.setWindowTitle("ndd-desktop")
        icon = resources.icon_file()
        if icon is not None:
            self.setWindowIcon(QIcon(str(icon)))
        self.setAcceptDrops(True)
        self.scan = ScanRunner(self)
        self._build()
        self.actions_ = build_menus(self)
        self.review = ReviewActions(self, self.pairs)
        self.review.undone.connect(self._undone)
        self.review.reviewed.connect(self._reviewed)
        self._pairs_status = ""  # the status bar's line about the pair set shown (follows the threshold)
        review_menu = self.menuBar().addMenu("&Review")
        self.menuBar().insertMenu(self.actions_["help_menu"].menuAction(), review_menu)
        for a in self.review.actions():
            review_menu.addAction(a)
        self._wire()
        self.start_page.set_recent(self.settings.recent())
        self._restore_layout()
        self._set_workspace_enabled(False)
        self.statusBar().showMessage("Open a folder or a collection to begin.")

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        self.start_page = StartPage(self)
        self.setup = ScanSetupPanel(self)
        self.progress = ScanProgress(self)
        left = QWidget(self)
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.setup, 1)
        ll.addWidget(self.progress)
        scroll = QScrollArea(self)
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        # Narrower than its content it scrolls sideways (nothing is cut off), so that the
        # window fits a 1024-pixel screen; the splitter handle widens it again.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setMinimumWidth(200)
        self.threshold = self._threshold_panel()
        self.pairs = PairsView(self)
        self.clusters = ClusterTree(self)
        self.methods = MethodComparePanel(self)
        self.errors = ErrorsPanel(self)
        self.folders = FoldersView(self)
        self.threads_view = ThreadsView(self)
        # views of their own modules: cleared and stopped with the collection
        self.extra_views = [self.folders, self.threads_view]
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("mainTabs")
        self.tabs.addTab(self.pairs, "&Pairs")
        self.tabs.addTab(self.clusters, "&Groups")
        self.tabs.addTab(self.methods, "&Methods")
        self.tabs.addTab(self.errors, "&Errors")
        self.tabs.addTab(self.folders, "F&olders")
        self.tabs.setTabToolTip(self.tabs.indexOf(self.folders),
                                "Pairs of folders whose documents duplicate each other")
        self.tabs.addTab(self.threads_view, "T&hreads")
        self.tabs.setTabToolTip(self.tabs.indexOf(self.threads_view), "E-mail threads and their inclusive messages")
        for i, tip in enumerate(("Every pair at or above the threshold", "Groups of near-duplicates and their keepers",
                                 "Compare two methods on this collection", "Files that could not be read")):
            self.tabs.setTabToolTip(i, tip)
        self.compare = CompareView(self)
        self.right = QSplitter(Qt.Orientation.Vertical, self)
        self.right.addWidget(self.threshold)
        self.right.addWidget(self.tabs)
        self.right.addWidget(self.compare)
        self.right.setStretchFactor(0, 0)
        self.right.setStretchFactor(1, 2)
        self.right.setStretchFactor(2, 3)
        self.right.setSizes([150, 290, 340])
        self.split = QSplitter(Qt.Orientation.Horizontal, self)
        self.split.addWidget(scroll)
        self.split.addWidget(self.right)
        self.split.setStretchFactor(1, 1)
        self.split.setSizes([360, 920])
        self.read_only_banner = QLabel(self)
        self.read_only_banner.setObjectName("readOnlyBanner")
        self.read_only_banner.setWordWrap(True)
        self.read_only_banner.setStyleSheet("QLabel#readOnlyBanner { background: #fff3cd; color: #664d03; "
                                            "padding: 6px; border-bottom: 1px solid #ffecb5; }")
        self.read_only_banner.hide()
        workspace = QWidget(self)
        wl = QVBoxLayout(workspace)
        wl.setContentsMargins(0, 0, 0, 0)
        wl.setSpacing(0)
        wl.addWidget(self.read_only_banner)
        wl.addWidget(self.split, 1)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(workspace)
        self.setCentralWidget(self.stack)
        self.resize(1280, 800)

    def _threshold_panel(self):
        from .threshold_panel import ThresholdPanel

        panel = ThresholdPanel(self)
        panel.setMinimumHeight(120)
        return panel

    def _wire(self) -> None:
        sp = self.start_page
        sp.openFolderRequested.connect(self.choose_folder)
        sp.openCollectionRequested.connect(self.choose_collection)
        sp.demoRequested.connect(self.open_demo)
        sp.recentChosen.connect(self.open_store)
        self.setup.addFolderRequested.connect(self.choose_extra_folder)
        self.setup.scanRequested.connect(self.start_scan)
        self.setup.saveAsRequested.connect(self.save_collection_as)
        self.setup.rootsChanged.connect(self._roots_changed)
        self.setup.confirm_remove = self._confirm_remove_folder
        self.progress.cancelRequested.connect(self.scan.cancel)
        self.scan.progress.connect(self.progress.update_progress)
        self.scan.errors.connect(self.errors.add)
        self.scan.finished.connect(self._scan_finished)
        self.scan.cancelled.connect(self._scan_cancelled)
        self.scan.failed.connect(self._scan_failed)
        self.scan.done.connect(self._scan_done)
        self.errors.countChanged.connect(lambda n: self.tabs.setTabText(TAB_ERRORS, f"&Errors ({n})" if n else "&Errors"))
        self.threshold.thresholdChanged.connect(self.pairs.set_threshold)
        self.threshold.thresholdChanged.connect(self._threshold_moved)
        self.threshold.thresholdSettled.connect(self._threshold_settled)
        self.pairs.pairSelected.connect(self._show_pair)
        self.clusters.memberSelected.connect(self._show_docs)
        self.clusters.keeperRuleChanged.connect(lambda _: self._apply_keeper_rule())
        self.clusters.groupingModeChanged.connect(lambda _: self._apply_keeper_rule())
        self.clusters.keeperChosen.connect(lambda d, members: self.collection and self.collection.set_keeper(d, members))
        self.methods.runMethodRequested.connect(self.run_method)
        self.folders.documentsChosen.connect(self._show_docs)
        from .group_view import install_group_view  # the group view, opened from the Groups tab
        from .passage_nav import install_passage_nav  # next/previous shared passage in the compare view

        install_group_view(self)
        install_passage_nav(self)

    # -- scanning -------------------------------------------------------------------------
    def start_scan(self, method: str | None = None, params: dict | None = None) -> bool:
        """Scan the listed folders with the chosen method on the worker thread."""
        if self.collection is None or self.scan.running():
            return False
        if self.collection.store.read_only:
            self._warn(f"{self.collection.store.path} is read-only: a scan writes to its collection file. "
                       "Copy it to a writable folder (Save as) to scan.")
            return False
        roots = self.setup.roots()
        if not roots:
            self._warn("Add at least one folder to scan.")
            return False
        if method and method != self.setup.method_name():
            self.setup.set_method(method, params or {})
        method = method or self.setup.method_name()
        params = self.setup.params() if params is None else params
        self.settings.set_last_method(method)
        self.settings.set_method_params(method, params)
        self.errors.clear()
        self.setup.set_busy(True)
        self.progress.start(f"Scanning with {method}…")
        self.statusBar().showMessage(f"Scanning {len(roots)} folder(s) with {method}…")
        return self.scan.start(self.collection.store, roots, method, params, html=self.setup.html_choice())

    def run_method(self, name: str) -> bool:
        """Scan the same folders with another method (its default parameters)."""
        return self.start_scan(name, {})

    def cancel_scan(self) -> None:
        """Stop the running scan (what was done is kept)."""
        if self.scan.running():
            self.progress._cancel()

    def _reload_errors(self) -> int:
        """Show every file the collection could not use, not only those of the last scan
        (an unchanged failed file is not read again, so the scan does not report it)."""
        self.errors.clear()
        if self.collection is not None:
            self.errors.add(self.collection.store.documents.errors())
        return self.errors.count()

    def _scan_finished(self, summary: Any) -> None:
        failed = self._reload_errors()
        if summary.documents == 0:
            # Nothing was read: say so, and where the files that were met went.
            where = "folder holds" if len(self.setup.roots()) == 1 else "folders hold"
            text = f"Done: the {where} no readable documents."
            if failed:
                text += (f" {failed:,} file{'s' if failed != 1 else ''} could not be read: "
                         "see the Errors tab.")
            self.progress.finish(text)
            self.statusBar().showMessage("Scan finished: " + text[len("Done: "):])
            if failed:
                self.tabs.setCurrentIndex(TAB_ERRORS)
        else:
            unused = (f"; {failed:,} file{'s' if failed != 1 else ''} skipped or failed (Errors tab)"
                      if failed else "")
            self.progress.finish(f"Done: {summary.documents:,} documents, {summary.pairs:,} pairs "
                                 f"in {summary.seconds:.1f} s{unused}")
            self.statusBar().showMessage(
                f"Scan finished: {summary.documents:,} documents ({summary.new:,} new, {summary.changed:,} changed), "
                f"{summary.errors:,} errors, {summary.pairs:,} pairs.")
        if self.collection is not None:
            s = self.scan
            self.collection.load_pair_set(s.method, s.params, s.pairs_key, s.floor)

    def _scan_cancelled(self) -> None:
        self.progress.stopped("What was read is kept; scan again to continue.")
        self.statusBar().showMessage("Scan cancelled. Documents read so far are kept in the store.")

    def _scan_failed(self, message: str) -> None:
        self.progress.stopped(message, "Failed")
        self._warn(f"The scan stopped with an error:\n{message}")

    def _scan_done(self) -> None:
        self.setup.set_busy(False)
        if self.scan.outcome != "finished":
            self._reload_errors()  # a stopped scan still recorded what it read
        # After a finished scan its pair set is being loaded, and _pair_set_loaded updates the
        # comparison with it; here only for scans that stopped (their store may have changed).
        if self.collection is not None and self.scan.outcome != "finished":
            self.methods.set_store(self.collection.store, self.collection.data.docs if self.collection.data else {})

    # -- pairs, threshold, groups ---------------------------------------------------------
    def _pair_set_loaded(self, data: PairSetData) -> None:
        method = get_method(data.method)
        # labels tell apart folders of one name (two "letters" folders: a/letters, b/letters)
        set_root_names({d.root for d in data.docs.values()} | {r.path for r in self.collection.store.documents.roots()})
        t = self.collection.threshold
        self.threshold.set_scores(data.arrays.score, data.floor, documents=len(data.docs))
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
        heap.settle(len(data.docs))  # a large collection: keep later full collections short

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
        doc = self.collection.data.docs.get(doc_id) if self.collection and self.collection.data else None
        return os.path.basename(doc.relpath) if doc is not None else f"#{doc_id}"

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
        ids = {d.id for d in store.documents.all(status=None) if d.root == path}
        if not ids:
            return True
        decisions = sum(1 for a, b in store.review.verdicts() if a in ids or b in ids)
        decisions += len(store.review.keepers() & ids)
        text = (f"Remove the folder\n{path}\nfrom this collection?\n\n"
                f"{len(ids):,} document{'s' if len(ids) != 1 else ''} read from it will be dropped from the "
                f"collection, with their pairs")
        if decisions:
            text += (f", and {decisions:,} review decision{'s' if decisions != 1 else ''} about them (verdicts and "
                     "chosen keepers) will be set aside: adding the folder back brings back those whose documents "
                     "are unchanged")
        text += ".\n\nThe files on disk are not touched."
        answer = QMessageBox.question(self, "Remove folder", text,
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def _roots_changed(self) -> None:
        """Keep the store's folders as listed (a removed folder's documents leave the store,
        and the views are read again without them)."""
        if self.collection is None or self.scan.running():
            return
        roots = [Root(p, r) for p, r in self.setup.roots()]
        removed = 0
        try:
            if roots != self.collection.store.documents.roots():
                removed = self.collection.store.documents.set_roots(roots)
        except StoreError as exc:
            self.statusBar().showMessage(str(exc))
        if removed:
            store = self.collection.store
            self.errors.clear()
            self.errors.add(store.documents.errors())
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
        if kind == "keeper":
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
        dropped = sum(len(g.covered_by) for g in grouping.groups)
        self.threshold.set_counts(self.collection.pairs_at_threshold(), len(grouping.groups), dropped)

    def _show_pair(self, pair: Any) -> None:
        if pair is None:
            self.compare.clear()
            return
        self._show_docs(pair.a, pair.b)

    def _show_docs(self, a: int, b: int) -> None:
        if self.collection is None or self.collection.data is None:
            return
        docs, store = self.collection.data.docs, self.collection.store
        if a in docs and b in docs:
            self.compare.show_pair(docs[a], docs[b], store.documents.text)

    # -- export ---------------------------------------------------------------------------
    def open_export(self) -> ExportDialog | None:
        """Open the export dialog for the pairs and threshold shown."""
        if self.collection is None or self.collection.data is None:
            self._warn("Scan first: the export needs pairs.")
            return None
        if not self.collection.data.docs:
            self._warn("Nothing to export: the collection holds no readable documents.")
            return None
        c = self.collection
        dialog = ExportDialog(c.store, c.session.export_choices(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda: setattr(self, "export_dialog", None))
        self.export_dialog = dialog
        dialog.open()
        return dialog

    # -- misc -----------------------------------------------------------------------------
    def _set_workspace_enabled(self, enabled: bool) -> None:
        read_only = self.collection is not None and self.collection.store.read_only
        for name in ("scan", "export", "save_as"):
            action: QAction | None = getattr(self, "actions_", {}).get(name)
            if action is not None:
                action.setEnabled(enabled and not (read_only and name == "scan"))
        self._show_read_only(enabled and read_only)

    def _show_read_only(self, read_only: bool) -> None:
        """The banner over the workspace, and no review, for a collection opened read-only."""
        if read_only:
            self.read_only_banner.setText(
                f"Read-only: {self.collection.store.path} cannot be written (read-only media or permissions). "
                "You can look at its pairs and groups and export; verdicts, keeper choices and scans are "
                "disabled. Save as… a writable copy to review.")
        self.read_only_banner.setVisible(read_only)
        self.setup.scan_button.setEnabled(not read_only and not self.scan.running())
        self.clusters.read_only = read_only
        if hasattr(self, "review"):
            self.review.refresh()
    def _warn(self, message: str) -> None:
        self.statusBar().showMessage(message.splitlines()[0])
        if os.environ.get("QT_QPA_PLATFORM") != "offscreen":
            QMessageBox.warning(self, "ndd-desktop", message)

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        """Accept folders dropped anywhere on the window."""
        if folders_from_mime(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        """On the start page a dropped folder opens; in the workspace it is added."""
        folders = folders_from_mime(event.mimeData())
        if not folders:
            return
        if self.collection is None:
            self.open_folder(folders[0])
            folders = folders[1:]
        for f in folders:
            self.setup.add_folder(f)
        event.acceptProposedAction()

    def _restore_layout(self) -> None:
        for key, restore in (("geometry", self.restoreGeometry), ("state", self.restoreState)):
            value = self.settings.state(key)
            if value is not None:
                restore(value)
        self._splitters_restored = False

    def _show_workspace(self) -> None:
        """Switch to the workspace; the first time, put the splitters where they were left."""
        self.stack.setCurrentIndex(1)
        if not self._splitters_restored:
            self._splitters_restored = True
            for key, splitter in (("split", self.split), ("right", self.right)):
                value = self.settings.state(key)
                if value is not None:
                    splitter.restoreState(value)

    def save_layout(self) -> None:
        """Remember geometry and splitters."""
        self.settings.set_state("geometry", self.saveGeometry())
        self.settings.set_state("state", self.saveState())
        if self._splitters_restored:  # never overwrite them with the unshown defaults
            self.settings.set_state("split", self.split.saveState())
            self.settings.set_state("right", self.right.saveState())
        self.settings.sync()

    def shutdown(self) -> None:
        """Stop every background task and close the store (idempotent)."""
        self.scan.cancel()
        self.scan.wait()
        if self.export_dialog is not None:
            self.export_dialog.done(0)
        self._close_collection()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        """Save the layout, stop the workers, close the store."""
        self.save_layout()
        self.shutdown()
        super().closeEvent(event)


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
