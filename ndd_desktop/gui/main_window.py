"""The main window: the start page, then the workspace of one open collection.

Layout of the workspace: the scan set-up on the left (folders, method, parameters, Scan and
its progress); on the right the threshold panel, the tabs (Pairs, Groups, Methods, Errors)
and the compare view. This module only builds and wires; each concept lives in its own
module (opening collections: ``opening.py``; scans: ``scan_events.py``; what is shown of
the pair set: ``pair_set_views.py``; menus: ``window_actions.py``), and every long task
runs on a worker thread.
"""

from __future__ import annotations

import os
from pathlib import Path

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

from . import resources
from .cluster_tree import ClusterTree
from .collection import Collection
from .compare_view import CompareView
from .errors_panel import ErrorsPanel
from .export_dialog import ExportDialog
from .folders_view import FoldersView
from .threads_view import ThreadsView
from .method_compare import MethodComparePanel
from .opening import OpeningMixin
from .pair_set_views import PairSetViewsMixin
from .pairs_view import PairsView
from .review_actions import ReviewActions
from .scan_events import ScanEventsMixin
from .scan_progress import ScanProgress
from .scan_runner import ScanRunner
from .scan_setup import ScanSetupPanel, folders_from_mime
from .settings import Settings
from .start_page import StartPage
from .window_actions import build_menus

TAB_PAIRS, TAB_GROUPS, TAB_METHODS, TAB_ERRORS = range(4)


class MainWindow(OpeningMixin, ScanEventsMixin, PairSetViewsMixin, QMainWindow):
    """The application window (see the module docstring)."""

    def __init__(self, settings: Settings | None = None, data_dir: Path | None = None):
        super().__init__()
        self.settings = settings or Settings()
        self.data_dir = Path(data_dir) if data_dir else resources.data_dir()
        self.collection: Collection | None = None
        self.export_dialog: ExportDialog | None = None
        self._export_typed: dict | None = None  # the export dialog's fields when it last closed
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
        self.review.elsewhere.connect(lambda why: self.statusBar().showMessage(why, 10000))
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
        scroll = QScrollArea(self)
        scroll.setWidget(self.setup)
        scroll.setWidgetResizable(True)
        # Narrower than its content it scrolls sideways (nothing is cut off), so that the
        # window fits a 1024-pixel screen; the splitter handle widens it again.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        # The scan's progress and Cancel sit below the scrolled settings, always in view: a
        # method with many parameters (minhash, hybrid) made the settings taller than an
        # 800-pixel window, and the progress line scrolled out of sight during a scan.
        left = QWidget(self)
        left.setObjectName("leftColumn")
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(scroll, 1)
        ll.addWidget(self.progress)
        left.setMinimumWidth(200)
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
        self.split.addWidget(left)
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
        self.setup.folderRefused.connect(lambda why: self.statusBar().showMessage(f"Not added: {why}", 15000))
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
        self.clusters.keeperRuleChanged.connect(lambda _: self._apply_keeper_rule())
        self.clusters.groupingModeChanged.connect(lambda _: self._apply_keeper_rule())
        self.clusters.keeperChosen.connect(self._choose_keeper)
        self.methods.runMethodRequested.connect(self.run_method)
        from .compare_follow import install_compare_follow  # the compare view follows the tab on screen
        from .group_view import install_group_view  # the group view, opened from the Groups tab
        from .passage_nav import install_passage_nav  # next/previous shared passage in the compare view

        install_compare_follow(self)
        install_group_view(self)
        install_passage_nav(self)

    # -- export ---------------------------------------------------------------------------
    def open_export(self) -> ExportDialog | None:
        """Open the export dialog for the pairs and threshold shown."""
        if self.collection is None or self.collection.data is None:
            self._warn("Scan first: the export needs pairs.")
            return None
        if not self.collection.data.documents:
            self._warn("Nothing to export: the collection holds no readable documents.")
            return None
        c = self.collection
        dialog = ExportDialog(c.store, c.session.export_choices(), self)
        if self._export_typed:  # what was chosen the last time, whether it ran or not
            dialog.restore(self._export_typed)
        dialog.finished.connect(lambda _r, d=dialog: setattr(self, "_export_typed", d.typed()))
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
                "disabled. Save as… a writable copy to review."
                + (f" Note: {self.collection.store.unread_changes}." if self.collection.store.unread_changes else ""))
        self.read_only_banner.setVisible(read_only)
        self.setup.scan_button.setEnabled(not read_only and not self.scan.running())
        self.setup.set_read_only(read_only)
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
