"""The group view: one group against its reference document, only the differences shown.

Opened from the Groups tab (double-click a group or a member, or Ctrl+G / "Open group…").
The reference is the group's keeper; any member becomes the reference with one click
("Use as reference" or a double-click on its row). The member table (path, score to the
reference, size, date) is filled at once from the store; each member's differences are
computed on a worker thread (``pipeline.group_view``), the selected member first, so the
first screen is up at once on a group of hundreds of members. The bulk buttons review the
whole group; Undo puts back what the last of them changed.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..app.group_review import BulkChange, group_view, review_group, undo_group_review
from .formatting import doc_date, doc_label, fmt_date, human_size
from .member_changes import changes_html, summary
from .worker import Worker

COLUMNS = ("Document", "Score", "Size", "Date", "Differences")


class GroupViewDialog(QDialog):
    """One group: the reference's text, the members and the selected member's differences."""

    computed = Signal()  # every member's differences are known
    reviewed = Signal(str)  # a bulk action ("undo" after an undo)
    verdictsChanged = Signal(object)  # {(a, b): verdict or None} of the pairs a bulk action or undo set

    def __init__(self, collection: Any, group: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("groupView")
        self.collection = collection
        self.group = group
        self.view = group_view(collection.session, group)
        self._undo: list[BulkChange] = []  # the bulk actions of this view (undone from the one history)
        self._worker: Worker | None = None
        self._again = False
        self.setWindowTitle(f"Group {group.group_id} — {len(group.members)} documents")
        self.resize(1100, 720)
        self.title = QLabel(self)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reference_text = QPlainTextEdit(self)
        self.reference_text.setReadOnly(True)
        self.reference_text.setAccessibleName("Reference document")
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.table.setObjectName("groupMembers")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # widths from the font, not the contents (that would read all rows of a big group)
        metrics = self.table.fontMetrics()
        for col, sample in ((1, "Score__"), (2, "100.0 KB__"), (3, "2020-01-01__"), (4, "999 passages · 100% in ref.__")):
            header.resizeSection(col, metrics.horizontalAdvance(sample))
        self.table.setToolTip("The other members; double-click one to use it as the reference")
        self.table.currentCellChanged.connect(lambda row, *_: self._show_member(row))
        self.table.cellDoubleClicked.connect(lambda row, _col: self.use_as_reference(self._member_at(row)))
        self.changes = QTextBrowser(self)
        self.changes.setObjectName("memberChanges")
        self.changes.setOpenLinks(False)
        self.changes.anchorClicked.connect(self._goto_change)
        self.reference_button = QPushButton("Use as &reference", self)
        self.reference_button.setToolTip("Compare every member with the selected one")
        self.reference_button.clicked.connect(lambda: self.use_as_reference(self.current_member()))
        self.keep_reference_button = QPushButton("&Keep the reference", self)
        self.keep_reference_button.setToolTip("Make the reference the group's keeper")
        self.keep_all_button = QPushButton("Keep &all", self)
        self.keep_all_button.setToolTip("Keep every member of the group")
        self.duplicates_button = QPushButton("Mark the rest &duplicates", self)
        self.duplicates_button.setToolTip("Every other member duplicates the reference, which is kept")
        self.undo_button = QPushButton("&Undo", self)
        self.undo_button.setToolTip("Put back the verdicts and keepers the last group action changed (Ctrl+Z)")
        for button, action in ((self.keep_reference_button, "keep-reference"), (self.keep_all_button, "keep-all"),
                               (self.duplicates_button, "duplicates")):
            button.clicked.connect(lambda _=False, a=action: self.review(a))
        self.undo_button.clicked.connect(self.undo)
        # an undo in the window (Ctrl+Z there) may take this view's last action back (a
        # method of this dialog: the connection goes when the dialog is deleted)
        collection.undoChanged.connect(self._undo_changed)
        # after "Mark the rest duplicates", the regrouping says which members still go out
        collection.groupingChanged.connect(self._regrouped)
        self._told_duplicates = False
        undo = QAction(self)
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        undo.triggered.connect(self.undo)
        self.addAction(undo)
        self.status = QLabel(self)
        right = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(self.table)
        right.addWidget(self.changes)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.reference_text)
        split.addWidget(right)
        split.setSizes([450, 650])
        buttons = QHBoxLayout()
        for b in (self.reference_button, self.keep_reference_button, self.keep_all_button, self.duplicates_button,
                  self.undo_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(split, 1)
        lay.addLayout(buttons)
        lay.addWidget(self.status)
        self._load()

    # -- filling --------------------------------------------------------------------------
    def _load(self) -> None:
        """Show the reference and the member list; start computing the differences."""
        ref = self.view.docs[self.view.reference]
        self.title.setText(f"<b>Reference:</b> {html.escape(doc_label(ref))} · {human_size(ref.size)} · "
                           f"dated {fmt_date(doc_date(ref))}")
        # the text only: its words are cut on the worker, not here
        text = self.collection.store.documents.text(self.view.reference) or ""
        self.reference_text.setPlainText(text.replace("\f", "\n"))
        others = self.view.others()
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(others))
        for row, m in enumerate(others):
            d = self.view.docs[m]
            score = self.view.score(m)
            cells = (doc_label(d), "–" if score is None else f"{score:.2f}", human_size(d.size),
                     fmt_date(doc_date(d)), "…")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, m)
                self.table.setItem(row, col, item)
        self._update_buttons()
        self.changes.setHtml("")
        if others:
            self.table.setCurrentCell(0, 0)
        self._compute()

    def _member_at(self, row: int) -> int | None:
        item = self.table.item(row, 0)
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def current_member(self) -> int | None:
        """The member selected in the table."""
        return self._member_at(self.table.currentRow())

    def _compute(self) -> None:
        """Compute every member's differences on a worker, the selected one first."""
        if self._worker is not None:
            self._again = True
            self._worker.cancel()
            return
        view = self.view
        first = self.current_member()
        order = ([first] if first is not None else []) + [m for m in view.others() if m != first]

        def job(progress, cancel):
            for k, m in enumerate(order, start=1):
                if cancel.cancelled:
                    return k - 1
                view.diff(m)
                progress(k)
            return len(order)

        worker = Worker(job, name="group view", parent=self)
        worker.progress.connect(lambda _: self._refresh())
        worker.done.connect(self._computed)
        self._worker = worker
        self.status.setText(f"Comparing {len(order)} members with the reference…")
        worker.start()

    def _computed(self) -> None:
        self._worker = None
        if self._again:
            self._again = False
            self._compute()
            return
        self._refresh()
        partial = sum(1 for m in self.view.others() if (d := self.view.computed(m)) is not None and not d.complete)
        note = f" · {partial} partial (too large to compare in full in the time allowed)" if partial else ""
        self.status.setText(f"{len(self.view.others())} members compared with the reference{note}")
        self.computed.emit()

    def _refresh(self) -> None:
        """Fill the Differences cells of the members computed so far."""
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 4)
            if item is None or item.text() != "…":
                continue
            diff = self.view.computed(self._member_at(row))
            if diff is not None:
                item.setText(summary(diff))
                if row == self.table.currentRow():
                    self._show_member(row)

    def _show_member(self, row: int) -> None:
        member = self._member_at(row)
        self._update_buttons()
        if member is None:
            self.changes.setHtml("")
            return
        diff = self.view.computed(member)
        if diff is None:
            self.changes.setHtml("<p><i>Comparing…</i></p>")
            return
        self.changes.setHtml(changes_html(self.view.docs[member], diff))

    def _goto_change(self, url) -> None:
        """Scroll the reference text to a change (its link is ``change:N``)."""
        member = self.current_member()
        diff = self.view.computed(member) if member is not None else None
        try:
            k = int(url.toString().split(":", 1)[1])
            start = diff.changes[k].ref_chars[0]
        except (AttributeError, IndexError, ValueError):
            return
        cursor = self.reference_text.textCursor()
        cursor.setPosition(min(start, len(self.reference_text.toPlainText())))
        self.reference_text.setTextCursor(cursor)
        self.reference_text.centerCursor()

    # -- actions --------------------------------------------------------------------------
    def use_as_reference(self, member: int | None) -> None:
        """Compare every member with ``member``."""
        if member is None or member == self.view.reference:
            return
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait()
        self.view.set_reference(member)
        self._load()

    def _writable(self) -> bool:
        return not self.collection.store.read_only

    def _update_buttons(self) -> None:
        writable = self._writable()
        for b in (self.keep_reference_button, self.keep_all_button, self.duplicates_button):
            b.setEnabled(writable)
        self.undo_button.setEnabled(writable and self._undoable() is not None)
        self.reference_button.setEnabled(self.current_member() is not None)

    def review(self, action: str) -> None:
        """Apply a bulk action to the whole group (undoable with :meth:`undo`)."""
        if not self._writable():
            return
        change = review_group(self.collection.session, self.view.members, self.view.reference, action)
        self._undo.append(change)
        self.collection.undoChanged.emit(True)  # the window's Undo can take it back too
        self._after_review(action, change.verdicts_before)

    def _undo_changed(self, _can_undo: bool) -> None:
        self._update_buttons()

    def _undoable(self) -> BulkChange | None:
        """This view's bulk action that an undo would put back now: the last step of the one
        undo history (a verdict or keeper set in the window since comes first)."""
        last = self.collection.session.last_change()
        return last if any(last is c for c in self._undo) else None

    def undo(self) -> None:
        """Put back what the last bulk action changed."""
        change = self._undoable()
        if change is None or not self._writable():
            return
        self._undo = [c for c in self._undo if c is not change]
        undo_group_review(self.collection.session, change)
        self.collection.undoChanged.emit(self.collection.session.can_undo())
        self._after_review("undo", change.verdicts_before)

    def _after_review(self, action: str, pairs: dict) -> None:
        verdicts = self.collection.store.review.verdicts()  # the session's copy is up to date too
        if pairs:
            self.verdictsChanged.emit({key: verdicts.get(key) for key in pairs})
        self.collection.keepersChanged.emit()
        self.collection.regroup()
        self._update_buttons()
        names = {"keep-reference": "The reference is the keeper", "keep-all": "Every member is kept",
                 "duplicates": "The other members are marked duplicates of the reference",
                 "undo": "The last group action is undone"}
        self.status.setText(names[action])
        self._told_duplicates = action == "duplicates"
        self.reviewed.emit(action)

    def _regrouped(self, grouping: Any) -> None:
        """After "Mark the rest duplicates": name the members an export still keeps. A
        member that holds the reference and text of its own is never left out for it (the
        export loses nothing a duplicate verdict does not cover); the dialog said the rest
        were duplicates and the window's count of documents left out did not move."""
        if not self._told_duplicates or grouping is None:
            return
        self._told_duplicates = False
        place = grouping.groups.place_of(self.view.reference) if hasattr(grouping.groups, "place_of") else None
        group = grouping.groups[place[0]] if place is not None else next(
            (g for g in grouping.groups if self.view.reference in g.members), None)
        if group is None:
            return
        kept = [m for m in getattr(group, "keepers", ()) if m != self.view.reference and m in self.view.docs]
        if kept:
            names = ", ".join(doc_label(self.view.docs[m]) for m in kept[:3]) + (", ..." if len(kept) > 3 else "")
            self.status.setText(
                f"The other members are marked duplicates of the reference; still exported: {names} "
                f"({'each holds' if len(kept) > 1 else 'it holds'} text the reference lacks: a duplicate verdict "
                "never leaves out text nothing kept holds; see the Role column of the Groups tab)")

    def done(self, result: int) -> None:  # noqa: D102 - QDialog API: stop the worker first
        if self._worker is not None:
            self._worker.cancel()
            self._worker.wait()
        super().done(result)


def open_group(window: Any, group_id: int | None) -> GroupViewDialog | None:
    """Open the group view of ``group_id`` of the window's current grouping."""
    collection = getattr(window, "collection", None)
    grouping = getattr(collection, "grouping", None) if collection is not None else None
    if grouping is None or group_id is None:
        return None
    group = grouping.group(group_id)
    if group is None:
        return None
    dialog = GroupViewDialog(collection, group, window)
    pairs = getattr(window, "pairs", None)
    if pairs is not None:  # the pairs table shows the verdicts the group view set
        dialog.verdictsChanged.connect(
            lambda changed: [pairs.model.set_verdict(a, b, v) for (a, b), v in changed.items()])
    status = getattr(window, "statusBar", None)
    if status is not None:  # the window's status line says what the view did (it kept a stale line)
        dialog.reviewed.connect(lambda _action: status().showMessage(f"Group {group.group_id}: {dialog.status.text()}"))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    window.group_view = dialog
    dialog.show()
    return dialog


def install_group_view(window: Any) -> None:
    """Open the group view from the Groups tab: double-click a row, Ctrl+G, or "Open group…"."""
    from .cluster_model import GROUP_ROLE

    tree = window.clusters
    window.group_view = None

    def current_group() -> int | None:
        idx = tree.view.currentIndex()
        return idx.data(GROUP_ROLE) if idx.isValid() else None

    tree.view.doubleClicked.connect(lambda idx: open_group(window, idx.data(GROUP_ROLE)))
    button = QPushButton("Open &group…", tree)
    button.setObjectName("openGroup")
    button.setToolTip("Show the selected group against its reference document (Ctrl+G or double-click)")
    button.setShortcut("Ctrl+G")
    button.clicked.connect(lambda: open_group(window, current_group()))
    tree.layout().itemAt(0).layout().addWidget(button)
    tree.open_group_button = button
    window.extra_views.append(_GroupViewCloser(window))


class _GroupViewCloser:
    """Closes the group view (and stops its worker) with the collection it shows."""

    def __init__(self, window: Any):
        self.window = window

    def shutdown(self) -> None:
        """The collection closes: close the view."""
        self.clear()

    def clear(self) -> None:
        """The collection's views are emptied: close the view."""
        dialog = getattr(self.window, "group_view", None)
        self.window.group_view = None
        if dialog is not None:
            try:
                dialog.done(0)
            except RuntimeError:  # already deleted by Qt after it was closed
                pass
