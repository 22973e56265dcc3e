"""Opening collections: a folder, a store file, the demo, a recent one; saving elsewhere.

A mixin of :class:`~ndd_desktop.gui.main_window.MainWindow`, kept apart so the window
module holds layout and wiring only.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from ..core.methods import DEFAULT_METHOD, get_method
from ..pipeline.job import prestart_workers
from ..pipeline.reading import reading_choice
from ..store import Root, Store, StoreError
from . import heap, resources
from .collection import Collection
from .scan_setup import available_methods


@contextmanager
def busy_cursor() -> Iterator[None]:
    """The wait cursor while the block runs (work on the GUI thread that can take a moment)."""
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        yield
    finally:
        QApplication.restoreOverrideCursor()


class OpeningMixin:
    """Open and close the window's collection (needs the MainWindow's widgets)."""

    def choose_folder(self) -> None:
        """Ask for a folder and open it as a collection."""
        path = QFileDialog.getExistingDirectory(self, "Open folder", os.path.expanduser("~"))
        if path:
            self.open_folder(path)

    def choose_extra_folder(self) -> None:
        """Ask for one more folder of the open collection."""
        path = QFileDialog.getExistingDirectory(self, "Add folder", os.path.expanduser("~"))
        if path:
            self.setup.add_folder(path)

    def choose_collection(self) -> None:
        """Ask for a store file and open it."""
        start = str(self.data_dir / "collections")
        path, _ = QFileDialog.getOpenFileName(self, "Open collection", start,
                                              "Collections (*.ndd.sqlite *.sqlite);;All files (*)")
        if path:
            self.open_store(path)

    def open_path(self, path: str) -> bool:
        """Open a folder or a store file, whichever ``path`` is."""
        p = Path(path).expanduser()
        if p.is_dir():
            return self.open_folder(str(p))
        if resources.is_store_file(p):
            return self.open_store(str(p))
        self._warn(f"{path} is neither a folder nor a collection file.")
        return False

    def update_title(self) -> None:
        """The collection's name and its first folder (two collections of folders named
        "letters" are told apart) in the title bar."""
        if self.collection is None:
            self.setWindowTitle("ndd-desktop")
            return
        roots = [p for p, _ in self.setup.roots()]
        where = f" ({roots[0]}{' …' if len(roots) > 1 else ''})" if roots else ""
        self.setWindowTitle(f"{resources.display_name(self.collection.path)}{where} — ndd-desktop")

    def open_folder(self, folder: str, *, reference: bool = False) -> bool:
        """Open (or reuse) the default store for ``folder`` with the folder as its root."""
        folder = os.path.abspath(folder)
        store_path = resources.folder_store_path(folder, self.data_dir)
        if not self.open_store(str(store_path), create=True):
            return False
        if folder not in [p for p, _ in self.setup.roots()]:
            self.setup.add_folder(folder, reference)
        return True

    def open_demo(self) -> bool:
        """Open the demo collection (its store in the data folder) and scan it if needed."""
        if not resources.demo_folder().is_dir():
            self._warn(f"The demo collection is missing (looked in {resources.demo_folder()}).")
            return False
        if not self.open_store(str(resources.default_store_path("demo", self.data_dir)), create=True):
            return False
        roots = resources.demo_roots()
        if [p for p, _ in self.setup.roots()] != [p for p, _ in roots]:
            self.setup.set_roots([Root(p, r) for p, r in roots])
        if self.collection is not None and not self.collection.store.pairs.sets():
            self.start_scan()
        return True

    def open_store(self, path: str, *, create: bool = False, read_only: bool | None = None) -> bool:
        """Open a collection store; show its last scan's pairs. ``read_only``: None opens
        a file that cannot be written (read-only media) for reading, with a banner."""
        if self.scan.running():
            self._warn("A scan is running; cancel it before opening another collection.")
            return False
        try:
            with busy_cursor():  # a new collection file takes ~0.5 s (the schema's migrations)
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                store = Store.open(path, create=create, read_only=read_only)
        except StoreError as exc:
            self._warn(str(exc) if str(path) in str(exc) else f"Could not open {path}: {exc}")
            if not create:
                self._forget_recent(path)
            return False
        except OSError as exc:
            self._warn(f"Could not open {path}:\n{exc}")
            if not create:
                self._forget_recent(path)
            return False
        self._close_collection()
        try:
            self._show_store(store, path)
            if not store.read_only:  # a new collection: its first scan's workers get ready now,
                # with what the method it shows needs (pipeline.kernel_preload)
                prestart_workers(store, self.setup.method_name())
        except StoreError as exc:  # a damaged file can fail at any first read
            self._back_to_start()
            store.close()
            self._warn(str(exc))  # names the file and what to do
            return False
        return True

    def _back_to_start(self) -> None:
        """Close the collection shown and show the start page, the workspace disabled."""
        self._close_collection()
        self.stack.setCurrentIndex(0)
        self._set_workspace_enabled(False)

    def _forget_recent(self, path: str) -> None:
        """Take a collection that cannot be opened off the recent list."""
        self.settings.remove_recent(path)
        self.start_page.set_recent(self.settings.recent())

    def _show_store(self, store: Store, path: str) -> None:
        """Show an opened store: its folders, method, errors and last pairs."""
        self.collection = Collection(store, self)  # with the rule and grouping saved in the store
        self._show_grouping_options()  # before anything below can hand the tab's choices to it
        self.collection.pairSetLoaded.connect(self._pair_set_loaded)
        self.collection.groupingChanged.connect(self._grouping_changed)
        self.collection.lineageChanged.connect(self.clusters.set_lineage)
        self.collection.failed.connect(self._collection_failed)
        self.review.set_collection(self.collection)
        self.settings.add_recent(str(store.path))
        self.start_page.set_recent(self.settings.recent())
        self.setup.set_store_path(str(store.path))
        self.setup.set_roots(store.documents.roots())
        last = store.scans.last_method()
        name = last[0] if last else (self.settings.last_method() or DEFAULT_METHOD)
        params = last[1] if last else self.settings.method_params(name)
        self._select_method(name, params)
        self.setup.set_html_choice(reading_choice(store.settings).html)
        self.errors.clear()
        self.errors.add(store.documents.errors(in_part=True))
        self.methods.set_store(store, {})
        self._show_workspace()
        self.update_title()
        self._set_workspace_enabled(True)
        self.collection.load_latest()
        self.statusBar().showMessage(f"Opened {store.path}" + (" (read-only)" if store.read_only else ""))

    def _collection_failed(self, message: str) -> None:
        """A failure of the open collection's work: in the status bar, except a damaged file
        found on a later read (a file damaged in its middle opens, and fails when its pairs
        are loaded), which closes the collection as a refused open does: the window showed
        it as opened, offered to scan it, and the scan wrote into it."""
        damaged = "StoreDamaged: "
        if not message.startswith(damaged) or self.collection is None:
            self.statusBar().showMessage(f"Error: {message}")
            return
        path = self.collection.path
        self._back_to_start()
        self._forget_recent(path)
        self.update_title()
        self._warn(message[len(damaged):])

    def _select_method(self, name: str, params: dict) -> None:
        if name not in [m.name for m in available_methods()]:
            name, params = DEFAULT_METHOD, {}
        try:
            get_method(name).params(params)
        except ValueError:
            params = {}
        self.setup.set_method(name, params)

    def _close_collection(self) -> None:
        if self.collection is None:
            return
        self.compare.shutdown()
        self.methods.shutdown()
        for view in self.extra_views:
            view.shutdown()
        self.collection.shutdown()
        self.collection.store.close()
        self.collection.deleteLater()
        self.collection = None
        self.review.set_collection(None)
        self.reset_views()
        heap.release()  # what was frozen for it can be collected now

    def save_collection_as(self) -> None:
        """Keep the store at a place the user picks (copied there, then reopened)."""
        if self.collection is None or self.scan.running():
            return
        path, _ = QFileDialog.getSaveFileName(self, "Save collection as", str(self.collection.path),
                                              "Collections (*.ndd.sqlite)")
        if path:
            self.move_store_to(path)

    def move_store_to(self, path: str) -> bool:
        """Copy the open store to ``path`` and continue there."""
        if not path.endswith(resources.STORE_SUFFIX):
            path += resources.STORE_SUFFIX
        source = self.collection.path
        self._close_collection()
        shutil.copy2(source, path)
        return self.open_store(path)
