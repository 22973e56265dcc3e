"""The Threads tab: e-mail threads as a tree, each message marked inclusive or not.

Read with ``app.analyses.threads_job`` of the session on a worker thread when the
tab is shown after a scan (or another collection) made the shown threads stale. A thread
is a top row (its subject, how many messages, how many inclusive); its messages hang
under it as the replies hang under the messages they answer.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from ..app.analyses import MailThread
from .lazy_tab import LazyTab
from .worker import Worker

COLUMNS = ("Subject", "Inclusive", "From", "Date", "File")
NOT_INCLUSIVE = QColor(128, 128, 128)


def _date_text(epoch: float | None) -> str:
    if epoch is None:
        return ""
    import datetime

    return datetime.datetime.fromtimestamp(epoch, tz=datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")


class ThreadsView(LazyTab):
    """The tree of threads; ``loaded`` carries the number of threads shown."""

    loaded = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._read: Callable[[], list[MailThread]] | None = None
        self._stale = False
        self._worker: Worker | None = None
        self._generation = 0
        self.threads: list[MailThread] = []
        self.status = QLabel("Scan a collection with e-mail (eml, mbox, msg) to see its threads.", self)
        self.status.setObjectName("threadsStatus")
        self.status.setWordWrap(True)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("threadsTree")
        self.tree.setToolTip("E-mail threads: replies under the message they answer. A message is inclusive when "
                             "no later message of its thread quotes its whole text; the others are greyed")
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setAlternatingRowColors(True)
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.tree.header().resizeSection(0, 340)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.status)
        lay.addWidget(self.tree, 1)

    def set_source(self, read: Callable[[], list[MailThread]] | None) -> None:
        """How to read the threads of the collection shown (``app.analyses.threads_job`` of
        its session; read now if the tab is shown, else when it is)."""
        self._read = read
        self._generation += 1
        self.mark_stale()

    def refresh(self) -> None:
        """Read the threads in the background."""
        if self._read is None or self._worker is not None:
            return
        self._stale = False
        read, generation = self._read, self._generation
        self.status.setText("Reading e-mail threads…")
        worker = Worker(lambda progress, cancel: read(), name="ndd-threads", parent=self)
        worker.finished.connect(lambda threads: self._show(threads) if generation == self._generation else None)
        worker.failed.connect(lambda m: self.status.setText(f"Could not read the threads: {m}"))
        worker.done.connect(self._done)
        self._worker = worker
        worker.start()

    def _done(self) -> None:
        self._worker = None
        if self._stale and self.isVisible():
            self.refresh()

    def _show(self, threads: list[MailThread]) -> None:
        self.threads = threads
        self.tree.clear()
        grey = QBrush(NOT_INCLUSIVE)
        for t in threads:
            kept = len(t.inclusive)
            top = QTreeWidgetItem([t.subject or "(no subject)", f"{kept} of {len(t.messages)}", "", "", ""])
            top.setToolTip(1, f"{kept} inclusive message{'s' if kept != 1 else ''} of {len(t.messages)}")
            items: dict[int, QTreeWidgetItem] = {}
            for m in t.messages:
                item = QTreeWidgetItem([m.subject or "(no subject)", "yes" if m.inclusive else "no", m.sender,
                                        _date_text(m.date), m.relpath])
                item.setData(0, 0x0100, m.doc_id)  # Qt.UserRole
                if not m.inclusive:
                    for c in range(len(COLUMNS)):
                        item.setForeground(c, grey)
                    item.setToolTip(1, m.reason)
                (items.get(m.parent) or top).addChild(item)
                items[m.doc_id] = item
            self.tree.addTopLevelItem(top)
        self.tree.expandAll()
        n = len(threads)
        messages = sum(len(t.messages) for t in threads)
        kept = sum(len(t.inclusive) for t in threads)
        self.status.setText(f"{n:,} thread{'s' if n != 1 else ''}, {messages:,} messages, {kept:,} inclusive."
                            if n else "No e-mail messages in this collection.")
        self.loaded.emit(n)

    def clear(self) -> None:
        """Forget the collection (it was closed)."""
        self._read = None
        self._generation += 1
        self._stale = False
        self.threads = []
        self.tree.clear()
        self.status.setText("Scan a collection with e-mail (eml, mbox, msg) to see its threads.")

    def shutdown(self) -> None:
        """Wait for a running read (before the store closes)."""
        if self._worker is not None:
            self._worker.wait()
