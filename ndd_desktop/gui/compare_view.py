"""Two documents side by side, scrolling together, with their differing passages highlighted.

The texts are read from the store and compared on a worker thread (see ``core.text_diff``);
the GUI thread only paints the result. Shared text stays plain; passages only in the left
document are tinted red, passages only in the right one green.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

from PySide6.QtCore import QPoint, Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from .formatting import doc_date, doc_label, fmt_date, human_size
from ..core.text_diff import TextDiff, diff_texts
from .worker import Worker

LEFT_COLOUR = QColor("#fbd5d2")
RIGHT_COLOUR = QColor("#cdeed3")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def open_url(url: QUrl) -> bool:
    """Open a file or folder with the desktop's application (tests replace this)."""
    return QDesktopServices.openUrl(url)


class DocumentHeader(QWidget):
    """Path, size, dates, format and hash of one document, with Open and Show in folder."""

    def __init__(self, side: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.doc: Any = None
        self.title = QLabel(self)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.details = QLabel(self)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details.setWordWrap(True)
        self.open_button = QPushButton("Open", self)
        self.open_button.setToolTip(f"Open the {side} document with its usual application")
        self.folder_button = QPushButton("Show in folder", self)
        self.folder_button.setToolTip(f"Open the folder that holds the {side} document")
        self.open_button.clicked.connect(self.open_document)
        self.folder_button.clicked.connect(self.show_in_folder)
        buttons = QHBoxLayout()
        buttons.addWidget(self.title, 1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.folder_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addLayout(buttons)
        lay.addWidget(self.details)
        self.set_document(None)

    def set_document(self, doc: Any) -> None:
        """Show ``doc`` (a DocumentInfo) or nothing."""
        self.doc = doc
        for b in (self.open_button, self.folder_button):
            b.setEnabled(doc is not None)
        if doc is None:
            self.title.setText("<i>No pair selected</i>")
            self.details.setText("")
            return
        ref = " · <b>reference</b>" if getattr(doc, "reference", False) else ""
        self.title.setText(f"<b>{_esc(doc_label(doc))}</b>{ref}")
        self.title.setToolTip(str(getattr(doc, "abspath", "")))
        modified = fmt_date(doc.mtime_ns / 1e9) if getattr(doc, "mtime_ns", None) else "–"
        self.details.setText(
            f"{human_size(doc.size)} · {doc.format} · dated {fmt_date(doc_date(doc))} · "
            f"modified {modified} · xxh128 <tt>{str(doc.xxh128)[:16]}</tt>")
        self.details.setToolTip(f"{getattr(doc, 'abspath', '')}\nxxh128 {doc.xxh128}\nsha256 {doc.sha256}")

    def open_document(self) -> None:
        """Open the file (a container member opens its container)."""
        if self.doc is not None:
            open_url(QUrl.fromLocalFile(str(self.doc.abspath)))

    def show_in_folder(self) -> None:
        """Open the folder holding the file."""
        if self.doc is not None:
            open_url(QUrl.fromLocalFile(os.path.dirname(str(self.doc.abspath))))


class CompareView(QWidget):
    """The compare pane: two headers, two read-only texts, a summary and diff navigation."""

    loaded = Signal()  # after a pair's texts and highlights are shown
    cleared = Signal()  # the view shows no pair

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.diff: TextDiff | None = None
        self._pending: Worker | None = None
        self._workers: set[Worker] = set()
        self._request = 0
        self._syncing = False
        self._change_index = -1
        self.header_a = DocumentHeader("left", self)
        self.header_b = DocumentHeader("right", self)
        self.text_a = self._make_text("Left document")
        self.text_b = self._make_text("Right document")
        self.summary = QLabel(self)
        self.summary.setToolTip("Share of words the two documents have in common")
        self.prev_button = QPushButton("◀ Previous difference", self)
        self.prev_button.setToolTip("Scroll to the previous differing passage (Shift+F8)")
        self.prev_button.setShortcut("Shift+F8")
        self.next_button = QPushButton("Next difference ▶", self)
        self.next_button.setToolTip("Scroll to the next differing passage (F8)")
        self.next_button.setShortcut("F8")
        self.prev_button.clicked.connect(lambda: self.goto_change(-1))
        self.next_button.clicked.connect(lambda: self.goto_change(+1))
        left, right = QWidget(self), QWidget(self)
        for box, header, text in ((left, self.header_a, self.text_a), (right, self.header_b, self.text_b)):
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.addWidget(header)
            lay.addWidget(text, 1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left)
        split.addWidget(right)
        split.setChildrenCollapsible(False)
        nav = QHBoxLayout()
        nav.addWidget(self.summary, 1)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.next_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(split, 1)
        lay.addLayout(nav)
        self.text_a.verticalScrollBar().valueChanged.connect(lambda _: self._sync(True))
        self.text_b.verticalScrollBar().valueChanged.connect(lambda _: self._sync(False))
        self.clear()

    def _make_text(self, name: str) -> QPlainTextEdit:
        edit = QPlainTextEdit(self)
        edit.setReadOnly(True)
        edit.setAccessibleName(name)
        edit.setToolTip(f"{name}: shared text is plain, differing passages are highlighted")
        edit.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        font = QFont(edit.font())
        font.setPointSizeF(font.pointSizeF() * 1.05)
        edit.setFont(font)
        return edit

    # -- loading --------------------------------------------------------------------------
    def clear(self) -> None:
        """Show nothing."""
        self._request += 1
        self.diff = None
        self.header_a.set_document(None)
        self.header_b.set_document(None)
        for edit in (self.text_a, self.text_b):
            edit.document().clear()
            edit.setCurrentCharFormat(QTextCharFormat())
        self.summary.setText("Select a pair to compare its documents.")
        self.prev_button.setEnabled(False)
        self.next_button.setEnabled(False)
        self.cleared.emit()

    def show_pair(self, doc_a: Any, doc_b: Any, load_text: Callable[[int], str | None],
                  why_missing: Callable[[int], str] | None = None) -> None:
        """Compare two documents; their texts are read and diffed on a worker thread.
        ``why_missing(doc_id)`` says why a document has no text (shown in the summary)."""
        self._request += 1
        request = self._request
        self.header_a.set_document(doc_a)
        self.header_b.set_document(doc_b)
        self.summary.setText("Comparing…")

        def job(progress, cancel):
            texts = [load_text(doc_a.id), load_text(doc_b.id)]
            notes = [f"{side}: no text, {why_missing(doc.id)}." for side, doc, text
                     in (("Left", doc_a, texts[0]), ("Right", doc_b, texts[1]))
                     if text is None and why_missing is not None]
            return diff_texts(*texts), notes

        worker = Worker(job, name="compare", parent=self)
        worker.finished.connect(lambda d: self._apply(request, d))
        worker.failed.connect(lambda msg: self._failed(request, msg))
        worker.done.connect(lambda: self._workers.discard(worker))
        self._workers.add(worker)
        worker.start()

    def busy(self) -> bool:
        """True while a comparison is being computed."""
        return bool(self._workers)

    def shutdown(self) -> None:
        """Wait for running comparisons (on close)."""
        for w in list(self._workers):
            w.cancel()
            w.wait()

    def _failed(self, request: int, message: str) -> None:
        if request == self._request:
            self.summary.setText(f"Could not compare: {message}")

    def _apply(self, request: int, result: tuple[TextDiff, list[str]]) -> None:
        if request != self._request:
            return  # the user moved on to another pair
        diff, notes = result
        self.diff = diff
        self._syncing = True
        try:
            _fill(self.text_a, diff.text_a, diff.changed_a(), LEFT_COLOUR)
            _fill(self.text_b, diff.text_b, diff.changed_b(), RIGHT_COLOUR)
        finally:
            self._syncing = False
        changes = len([b for b in diff.blocks if b[4] != "equal"])
        unit = "lines" if diff.by_lines else "words"
        self.summary.setText(" ".join([f"{shared_percent(diff.similarity)} of {unit} shared · {changes} differing "
                                       f"passage{'' if changes == 1 else 's'}", *notes]))
        self._change_index = -1
        self.prev_button.setEnabled(changes > 0)
        self.next_button.setEnabled(changes > 0)
        self.loaded.emit()

    # -- navigation -----------------------------------------------------------------------
    def goto_change(self, step: int) -> None:
        """Scroll both sides to the next (``+1``) or previous (``-1``) differing passage."""
        if self.diff is None:
            return
        changes = [b for b in self.diff.blocks if b[4] != "equal"]
        if not changes:
            return
        self._change_index = (self._change_index + step) % len(changes)
        a0, b0 = changes[self._change_index][:2]
        self._syncing = True
        try:
            _scroll_to(self.text_a, _qpos(self.diff.text_a, a0))
            _scroll_to(self.text_b, _qpos(self.diff.text_b, b0))
        finally:
            self._syncing = False

    def _sync(self, from_a: bool) -> None:
        if self._syncing or self.diff is None:
            return
        src, dst = (self.text_a, self.text_b) if from_a else (self.text_b, self.text_a)
        src_text = self.diff.text_a if from_a else self.diff.text_b
        dst_text = self.diff.text_b if from_a else self.diff.text_a
        if src.verticalScrollBar().value() == 0:
            target = 0
        else:
            top = _pypos(src_text, src.cursorForPosition(QPoint(0, 0)).position())
            target = _qpos(dst_text, self.diff.map_position(top, from_a))
        self._syncing = True
        try:
            _scroll_to(dst, target)
        finally:
            self._syncing = False


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _qpos(text: str, pos: int) -> int:
    """A Python string index as a Qt (UTF-16) position."""
    if not _ASTRAL.search(text, 0, pos):
        return pos
    return pos + len(_ASTRAL.findall(text, 0, pos))


def _pypos(text: str, qpos: int) -> int:
    """A Qt (UTF-16) position as a Python string index."""
    if not _ASTRAL.search(text):
        return qpos
    py = q = 0
    while py < len(text) and q < qpos:
        q += 2 if ord(text[py]) > 0xFFFF else 1
        py += 1
    return py


def shared_percent(share: float) -> str:
    """A share as a percentage that never reads 100 % (or 0 %) unless it is: 0.996 with
    two differing passages read "100% of words shared"."""
    text = f"{share:.0%}"
    if text == "100%" and share < 1.0:
        return f"{min(share, 0.999):.1%}"
    if text == "0%" and share > 0.0:
        return "<1%"
    return text


def _fill(edit: QPlainTextEdit, text: str, spans: list, colour: QColor) -> None:
    """Set ``text`` and tint the changed spans (trailing white space left plain)."""
    edit.document().clear()
    edit.setCurrentCharFormat(QTextCharFormat())  # no tint carried over from the last pair
    edit.setPlainText(text)
    fmt = QTextCharFormat()
    fmt.setBackground(colour)
    cursor = QTextCursor(edit.document())
    cursor.beginEditBlock()
    for span in spans:
        end = span.end
        while end > span.start and text[end - 1].isspace():
            end -= 1
        if end <= span.start:
            continue
        cursor.setPosition(_qpos(text, span.start))
        cursor.setPosition(_qpos(text, end), QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(fmt)
    cursor.endEditBlock()
    edit.moveCursor(QTextCursor.MoveOperation.Start)


def _scroll_to(edit: QPlainTextEdit, qpos: int) -> None:
    """Scroll so that the line holding ``qpos`` is the first one shown."""
    cursor = edit.textCursor()
    cursor.setPosition(min(qpos, edit.document().characterCount() - 1))
    bar = edit.verticalScrollBar()
    bar.setValue(bar.maximum())
    edit.setTextCursor(cursor)
    edit.ensureCursorVisible()
