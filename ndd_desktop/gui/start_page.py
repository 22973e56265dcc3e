"""The first-run screen: open a folder, open a collection, a recent one, or try the demo."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class StartPage(QWidget):
    """Four ways in; each button only emits a signal the main window acts on."""

    openFolderRequested = Signal()
    openCollectionRequested = Signal()
    demoRequested = Signal()
    recentChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        title = QLabel("Find near-duplicate documents", self)
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.8)
        font.setWeight(QFont.Weight.DemiBold)
        title.setFont(font)
        intro = QLabel(
            "Point ndd-desktop at one or more folders. It reads every document (text, HTML, PDF, "
            "Word, OpenDocument, e-mail, archives…), finds the ones that are nearly the same, and "
            "helps you review them and export a clean copy. Your originals are never changed.", self)
        intro.setWordWrap(True)
        self.folder_button = self._button("Open &folder…", "Choose a folder to scan for near-duplicates "
                                          "(you can add more folders afterwards)")
        self.collection_button = self._button("Open &collection…", "Open a collection saved earlier "
                                              "(a .ndd.sqlite file) with its scans and review decisions")
        self.demo_button = self._button("Try the &demo collection", "Open a small collection of letters, "
                                        "reports and e-mails in several formats with real near-duplicates")
        self.folder_button.setDefault(True)
        self.folder_button.clicked.connect(self.openFolderRequested)
        self.collection_button.clicked.connect(self.openCollectionRequested)
        self.demo_button.clicked.connect(self.demoRequested)
        self.recent = QListWidget(self)
        self.recent.setObjectName("recentList")
        self.recent.setToolTip("Collections opened recently: double-click or press Enter to open one")
        self.recent.setAccessibleName("Recent collections")
        self.recent.itemActivated.connect(lambda item: self.recentChosen.emit(item.data(Qt.ItemDataRole.UserRole)))
        recent_label = QLabel("&Recent collections", self)
        recent_label.setBuddy(self.recent)
        self.no_recent = QLabel("None yet: your collections will be listed here.", self)
        self.no_recent.setEnabled(False)

        buttons = QVBoxLayout()
        for b in (self.folder_button, self.collection_button, self.demo_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        recent_box = QVBoxLayout()
        recent_box.addWidget(recent_label)
        recent_box.addWidget(self.recent, 1)
        recent_box.addWidget(self.no_recent)
        columns = QHBoxLayout()
        columns.addLayout(buttons)
        columns.addSpacing(24)
        columns.addLayout(recent_box, 1)

        card = QFrame(self)
        card.setFrameShape(QFrame.Shape.StyledPanel)
        card.setMaximumWidth(860)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(32, 28, 32, 28)
        inner.setSpacing(14)
        inner.addWidget(title)
        inner.addWidget(intro)
        inner.addSpacing(8)
        inner.addLayout(columns, 1)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(card, 4)
        row.addStretch(1)
        outer.addLayout(row, 3)
        outer.addStretch(1)

    def _button(self, text: str, tip: str) -> QPushButton:
        b = QPushButton(text, self)
        b.setToolTip(tip)
        b.setMinimumHeight(38)
        b.setMinimumWidth(240)
        return b

    def set_recent(self, paths: list[str]) -> None:
        """List recent store files (newest first); missing files are shown greyed out."""
        self.recent.clear()
        from ..store.check import folders_of
        from .resources import display_name

        for path in paths:
            # the folders it scans, not where its file is: two collections of folders named
            # "letters" read "letters-e8cccef1 / .../data/collections" and the same again
            folders = folders_of(path) if os.path.exists(path) else []
            where = folders[0] if folders else os.path.dirname(path)
            if len(folders) > 1:
                where += f" and {len(folders) - 1} more folder{'s' if len(folders) > 2 else ''}"
            item = QListWidgetItem(f"{display_name(path)}\n{where}")
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip("\n".join([*folders, f"Saved in {path}"]))
            if not os.path.exists(path):
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(f"{path}\n(missing)")
            self.recent.addItem(item)
        self.no_recent.setVisible(not paths)
        if paths:
            self.recent.setCurrentRow(0)
