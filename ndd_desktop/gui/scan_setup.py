"""Setting up a scan: the folders (reference or not), the method and its parameters, and
how web pages are read (their main text, or whole)."""

from __future__ import annotations

import os
from typing import Any, Callable

from PySide6.QtCore import QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.methods import get_method, method_names
from ..pipeline import HTML_READINGS
from .param_form import ParamForm

#: How the choices of ``ExtractOptions.html`` are shown.
HTML_READING_LABELS = {"main": "main text", "all": "whole page"}


def folders_from_mime(mime: QMimeData) -> list[str]:
    """The local folders among dragged URLs."""
    if not mime.hasUrls():
        return []
    paths = [u.toLocalFile() for u in mime.urls() if u.isLocalFile()]
    return [os.path.abspath(p) for p in paths if p and os.path.isdir(p)]


def available_methods() -> list[Any]:
    """The registered methods that load (a broken one is left out rather than breaking the window)."""
    out = []
    for name in method_names():
        try:
            out.append(get_method(name))
        except Exception:  # noqa: BLE001 - reported by the method's own tests
            continue
    return out


class _FolderList(QListWidget):
    """The folders list, asking for about three rows (a list's usual 192 pixels made the
    left panel taller than a 800-pixel window, and the scan's progress bar fell below it;
    five rows did too once the form gained the ignore and web-page choices)."""

    def sizeHint(self) -> QSize:  # noqa: N802
        hint = super().sizeHint()
        rows = self.fontMetrics().height() + 4
        return QSize(hint.width(), min(hint.height(), 3 * rows + 2 * self.frameWidth()))


class ScanSetupPanel(QWidget):
    """Folders list (drop folders on it), method list, parameter form and the Scan button."""

    addFolderRequested = Signal()
    saveAsRequested = Signal()
    scanRequested = Signal()
    rootsChanged = Signal()
    folderRefused = Signal(str)  # why a folder was not added (one inside another)
    methodChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAcceptDrops(True)
        #: Asked with a folder's path before Remove takes it off the list (False keeps it);
        #: the main window asks the user when the folder has documents in the store.
        self.confirm_remove: Callable[[str], bool] | None = None
        # -- folders
        self.folders = _FolderList(self)
        self.folders.setObjectName("folderList")
        self.folders.setAccessibleName("Folders")
        self.folders.setToolTip("Folders of this collection. Tick a folder (Space) to mark it as a reference:\n"
                                "existing holdings, whose copies are preferred as keepers.\n"
                                "Drop folders here to add them.")
        self.folders.setMinimumHeight(70)
        self.folders.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.folders.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.folders.itemChanged.connect(lambda _: self.rootsChanged.emit())
        self.read_only = False  # the collection file cannot be written: folders stay as they are
        self.add_button = QPushButton("&Add folder…", self)
        self.add_button.setToolTip("Add a folder to the collection (or drop folders on the list)")
        self.add_button.clicked.connect(self.addFolderRequested)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Remove the selected folder from the collection (its files are untouched)")
        self.remove_button.clicked.connect(self.remove_selected)
        folder_buttons = QHBoxLayout()
        folder_buttons.addWidget(self.add_button)
        folder_buttons.addWidget(self.remove_button)
        folder_buttons.addStretch(1)
        folder_box = QGroupBox("Folders  (ticked = reference holdings)", self)
        fl = QVBoxLayout(folder_box)
        fl.addWidget(self.folders, 1)
        fl.addLayout(folder_buttons)
        # -- method
        self.methods = QListWidget(self)
        self.methods.setObjectName("methodList")
        self.methods.setAccessibleName("Method")
        self.methods.setToolTip("How documents are compared; each method has its own parameters")
        self.methods.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.methods.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for m in available_methods():
            item = QListWidgetItem(f"{m.name} — {m.description}")
            item.setData(Qt.ItemDataRole.UserRole, m.name)
            item.setToolTip(m.description + (f"\nAfter: {m.source}" if m.source else ""))
            self.methods.addItem(item)
        self.methods.currentItemChanged.connect(self._on_method)
        self.form = ParamForm(self)
        self.reset_button = QPushButton("Reset all", self)
        self.reset_button.setToolTip("Put every parameter of this method back to its default")
        self.reset_button.clicked.connect(self.form.reset_all)
        method_box = QGroupBox("&Method", self)
        ml = QVBoxLayout(method_box)
        ml.addWidget(self.methods)
        self.description = QLabel(self)
        self.description.setObjectName("methodDescription")
        self.description.setWordWrap(True)
        ml.addWidget(self.description)
        self.params_title = QLabel(self)
        ml.addWidget(self.params_title)
        ml.addWidget(self.form)
        ml.addWidget(self.reset_button, 0, Qt.AlignmentFlag.AlignRight)
        ml.addStretch(1)
        # -- reading
        self.html_reading = QComboBox(self)
        self.html_reading.setObjectName("htmlReading")
        self.html_reading.setAccessibleName("Web pages")
        for value in HTML_READINGS:
            self.html_reading.addItem(HTML_READING_LABELS.get(value, value), value)
        self.html_reading.setToolTip(
            "How web pages (HTML) are read.\n"
            "main text: the article without the site's menus, header, sidebars and footer, which\n"
            "make all pages of one site look alike (the whole page when no main text is found);\n"
            "whole page: every visible word.\n"
            "A change reads the collection's web pages again at the next scan.")
        html_label = QLabel("&Web pages:", self)
        html_label.setBuddy(self.html_reading)
        html_row = QHBoxLayout()
        html_row.addWidget(html_label)
        html_row.addWidget(self.html_reading, 1)
        # -- store and scan
        self.store_label = QLabel(self)
        self.store_label.setWordWrap(True)
        self.store_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.save_button = QPushButton("Save as…", self)
        self.save_button.setToolTip("Keep this collection's store somewhere else than the data folder")
        self.save_button.clicked.connect(self.saveAsRequested)
        self.scan_button = QPushButton("&Scan", self)
        self.scan_button.setObjectName("scanButton")
        self.scan_button.setToolTip("Read the folders and find near-duplicates with this method (Ctrl+R).\n"
                                    "Unchanged files are not read again.")
        self.scan_button.setDefault(True)
        self.scan_button.clicked.connect(self.scanRequested)
        store_row = QHBoxLayout()
        store_row.addWidget(self.store_label, 1)
        store_row.addWidget(self.save_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        rows = max(self.methods.count(), 1)
        self.methods.setFixedHeight(self.methods.sizeHintForRow(0) * rows + 2 * self.methods.frameWidth() + 4)
        lay.addWidget(folder_box, 2)
        lay.addWidget(method_box, 5)
        lay.addLayout(html_row)
        lay.addLayout(store_row)
        lay.addWidget(self.scan_button)
        self.set_store_path(None)

    # -- folders --------------------------------------------------------------------------
    def add_folder(self, path: str, reference: bool = False, check: bool = True) -> bool:
        """Add a folder (ignored when it is already listed); True if added. With ``check``
        a folder inside a listed one, or holding one, is refused at once with
        ``folderRefused`` (a scan refuses them: its documents would be read twice)."""
        path = os.path.abspath(path)
        listed = [r[0] for r in self.roots()]
        if path in listed:
            return False
        if check and self.read_only:
            self.folderRefused.emit("the collection file is read-only: its folders cannot be changed")
            return False
        if check:
            for other in listed:
                inner, outer = (path, other) if _inside(path, other) else (other, path)
                if _inside(inner, outer):
                    self.folderRefused.emit(f"{inner} is inside {outer}, which is already a folder of this "
                                            "collection: give each folder once")
                    return False
        item = QListWidgetItem(path)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if reference else Qt.CheckState.Unchecked)
        item.setToolTip(f"{path}\nTicked: a reference folder (existing holdings)")
        self.folders.blockSignals(True)
        self.folders.addItem(item)
        self.folders.blockSignals(False)
        self.folders.setCurrentItem(item)
        self.rootsChanged.emit()
        return True

    def set_roots(self, roots: list[Any]) -> None:
        """Replace the folders with ``roots`` (store ``Root`` objects)."""
        self.blockSignals(True)  # one rootsChanged for the whole list, not one per folder
        try:
            self.folders.blockSignals(True)
            self.folders.clear()
            self.folders.blockSignals(False)
            for r in roots:
                self.add_folder(r.path, bool(r.reference), check=False)
        finally:
            self.blockSignals(False)
        self.rootsChanged.emit()

    def roots(self) -> list[tuple[str, bool]]:
        """The folders as (path, reference) in list order."""
        out = []
        for k in range(self.folders.count()):
            item = self.folders.item(k)
            out.append((item.text(), item.checkState() == Qt.CheckState.Checked))
        return out

    def set_reference(self, path: str, reference: bool) -> None:
        """Mark or unmark a listed folder as reference."""
        for k in range(self.folders.count()):
            item = self.folders.item(k)
            if item.text() == os.path.abspath(path):
                item.setCheckState(Qt.CheckState.Checked if reference else Qt.CheckState.Unchecked)

    def remove_selected(self) -> bool:
        """Remove the selected folder, if ``confirm_remove(path)`` (when set) agrees."""
        row = self.folders.currentRow()
        if row < 0 or self.read_only:
            return False
        path = self.folders.item(row).text()
        if self.confirm_remove is not None and not self.confirm_remove(path):
            return False
        self.folders.takeItem(row)
        self.rootsChanged.emit()
        return True

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        """Accept folders."""
        if folders_from_mime(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        """Keep accepting folders while they move over the panel."""
        if folders_from_mime(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        """Add the dropped folders."""
        folders = folders_from_mime(event.mimeData())
        for path in folders:
            self.add_folder(path)
        if folders:
            event.acceptProposedAction()

    # -- method ---------------------------------------------------------------------------
    def set_method(self, name: str, values: dict[str, Any] | None = None) -> None:
        """Select a method and fill its form with ``values``."""
        for k in range(self.methods.count()):
            if self.methods.item(k).data(Qt.ItemDataRole.UserRole) == name:
                self._pending_values = values
                self.methods.setCurrentRow(k)
                if values is not None:
                    self.form.set_params(get_method(name).param_infos(), values)
                return
        raise KeyError(name)

    def method_name(self) -> str:
        """The selected method."""
        item = self.methods.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else ""

    def params(self) -> dict[str, Any]:
        """The parameter values in the form."""
        return self.form.values()

    def _on_method(self, current: QListWidgetItem | None, _previous: Any = None) -> None:
        if current is None:
            return
        name = current.data(Qt.ItemDataRole.UserRole)
        method = get_method(name)
        self.params_title.setText(f"Parameters of <b>{name}</b>")
        self.description.setText(f"<i>{method.description}</i>")
        self.form.set_params(method.param_infos(), getattr(self, "_pending_values", None))
        self._pending_values = None
        self.methodChanged.emit(name)

    # -- reading --------------------------------------------------------------------------
    def html_choice(self) -> str:
        """How web pages are to be read: "main" (their main text) or "all" (whole)."""
        return self.html_reading.currentData() or HTML_READINGS[0]

    def set_html_choice(self, value: str) -> None:
        """Show how web pages are read (an unknown value shows the default)."""
        self.html_reading.setCurrentIndex(max(self.html_reading.findData(value), 0))

    # -- store ----------------------------------------------------------------------------
    def set_store_path(self, path: str | None) -> None:
        """Show where the collection's store lives."""
        self.store_label.setText(f"Saved in <i>{path}</i>" if path else "<i>No collection open</i>")
        self.store_label.setToolTip(path or "")

    def set_read_only(self, read_only: bool) -> None:
        """A collection that cannot be written keeps its folders: no adding, removing or
        ticking (a tick showed, was refused by the store, and stayed on screen)."""
        self.read_only = read_only
        for w in (self.folders, self.add_button, self.remove_button):
            w.setEnabled(not read_only)
        if not hasattr(self, "_folders_tip"):
            self._folders_tip = self.folders.toolTip()
        self.folders.setToolTip("The collection file is read-only: its folders cannot be changed" if read_only
                                else self._folders_tip)

    def set_busy(self, busy: bool) -> None:
        """Lock the set-up while a scan runs."""
        for w in (self.folders, self.add_button, self.remove_button, self.methods, self.form,
                  self.reset_button, self.html_reading, self.save_button, self.scan_button):
            w.setEnabled(not busy)
        if self.read_only:
            self.set_read_only(True)


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` lies inside ``folder`` (both absolute)."""
    return path != folder and (path.rstrip(os.sep) + os.sep).startswith(folder.rstrip(os.sep) + os.sep)
