"""The groups: a tree of each group's principal and members, with the keeper marked.

The keeper of a group is the reviewer's choice when there is one, else the rule picked
here (prefer reference copies, then oldest; oldest; newest; longest; folder priority, which
follows the order of the folders list). Large groupings are put in the tree a slice at a
time so the window never freezes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from .flow_layout import FlowLayout
from .formatting import doc_date, doc_label, fmt_date, human_size

RULE_LABELS = {
    "reference-oldest": "Reference copies first, then oldest",
    "oldest": "Oldest",
    "newest": "Newest",
    "longest": "Longest text",
    "folder-priority": "Folder priority (order of the folders list)",
}
DOC_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2
HEADERS = ("Document", "Score", "Role", "Size", "Date")
CHUNK = 400


class ClusterTree(QWidget):
    """Groups as a tree; ``memberSelected(principal, member)`` when a member row is chosen."""

    memberSelected = Signal(int, int)
    keeperRuleChanged = Signal(str)
    groupingModeChanged = Signal(str)
    keeperChosen = Signal(int, list)  # doc id, members of its group

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.docs: dict[int, Any] = {}
        self.groups: list[Any] = []
        self._filled = 0
        self._expanded: set[int] = set()
        self._restore_doc: int | None = None
        self.model = QStandardItemModel(self)
        self.model.setHorizontalHeaderLabels(list(HEADERS))
        self.view = QTreeView(self)
        self.view.setObjectName("clusterTree")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)
        self.view.setToolTip("Each group: its principal and the members with their score to it; a member marked "
                             "'via others' is linked to the principal only through other members.\n"
                             "★ marks the keeper. Select a member to compare it with the principal.")
        header = self.view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for col in range(1, len(HEADERS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.view.selectionModel().currentChanged.connect(self._on_current)
        self.rule = QComboBox(self)
        self.rule.setObjectName("keeperRule")
        self.rule.setToolTip("How the document to keep in each group is chosen when you have not chosen one")
        for key, label in RULE_LABELS.items():
            self.rule.addItem(label, key)
        self.rule.currentIndexChanged.connect(lambda _: self.keeperRuleChanged.emit(self.rule.currentData()))
        self.mode = QComboBox(self)
        self.mode.setObjectName("groupingMode")
        self.mode.addItem("All linked documents", "components")
        self.mode.addItem("Around the longest document", "principal")
        self.mode.setToolTip("All linked documents: one group per chain of similar documents, led by the most "
                             "linked one\n(partial copies of one source meet in its group).\n"
                             "Around the longest document: each member is directly similar to the principal.")
        self.mode.currentIndexChanged.connect(lambda _: self.groupingModeChanged.emit(self.mode.currentData()))
        mode_label = QLabel("&Groups:", self)
        mode_label.setBuddy(self.mode)
        rule_label = QLabel("&Keeper:", self)
        rule_label.setBuddy(self.rule)
        self.keep_button = QPushButton("Make &keeper", self)
        self.keep_button.setToolTip("Keep the selected document in its group (Ctrl+K); your choice overrides the rule")
        self.keep_button.setShortcut("Ctrl+K")
        self.keep_button.clicked.connect(self.choose_current_as_keeper)
        self.summary = QLabel(self)
        # The toolbar wraps onto a second row in a narrow window instead of widening it.
        top = FlowLayout()
        for label, combo in ((mode_label, self.mode), (rule_label, self.rule)):
            pair = QWidget(self)
            pl = QHBoxLayout(pair)
            pl.setContentsMargins(0, 0, 0, 0)
            pl.addWidget(label)
            pl.addWidget(combo)
            top.addWidget(pair)
        top.addWidget(self.keep_button)
        top.addWidget(self.summary, right=True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._fill_chunk)

    def set_rule(self, rule: str) -> None:
        """Select a keeper rule without emitting."""
        idx = self.rule.findData(rule)
        if idx >= 0:
            self.rule.blockSignals(True)
            self.rule.setCurrentIndex(idx)
            self.rule.blockSignals(False)

    def set_grouping(self, grouping: Any, docs: dict[int, Any]) -> None:
        """Show a pipeline ``Grouping`` (documents by id for the labels)."""
        self.docs = docs
        self.groups = list(grouping.groups) if grouping is not None else []
        expanded = self._expanded_group_ids()
        current = self.current_document()
        self.model.removeRows(0, self.model.rowCount())
        self._filled = 0
        n_docs = sum(len(g.members) for g in self.groups)
        self.summary.setText(f"{len(self.groups):,} groups · {n_docs:,} documents")
        self._expanded, self._restore_doc = expanded, current
        self._fill_chunk()
        if self._filled < len(self.groups):
            self._timer.start()

    def clear(self) -> None:
        """Show no groups (no pair set of the open collection is loaded)."""
        self._timer.stop()
        self.docs, self.groups = {}, []
        self._filled = 0
        self._expanded, self._restore_doc = set(), None
        self.model.removeRows(0, self.model.rowCount())
        self.summary.setText("")
        self.keep_button.setEnabled(False)

    def fully_filled(self) -> bool:
        """True when every group is in the tree."""
        return self._filled >= len(self.groups)

    def _expanded_group_ids(self) -> set[int]:
        out = set()
        for row in range(self.model.rowCount()):
            idx = self.model.index(row, 0)
            if self.view.isExpanded(idx):
                out.add(idx.data(GROUP_ROLE))
        return out

    def _fill_chunk(self) -> None:
        end = min(self._filled + CHUNK, len(self.groups))
        for g in self.groups[self._filled:end]:
            self.model.appendRow(self._group_row(g))
            if g.group_id in self._expanded or (len(self.groups) <= 30 and not self._expanded):
                self.view.expand(self.model.index(self.model.rowCount() - 1, 0))
        self._filled = end
        if self._filled >= len(self.groups):
            self._timer.stop()
            if self._restore_doc is not None:
                self.select_document(self._restore_doc)

    def _group_row(self, g: Any) -> list[QStandardItem]:
        keeper = self.docs.get(g.keeper)
        head = QStandardItem(f"Group {g.group_id} · {len(g.members)} documents")
        head.setData(g.group_id, GROUP_ROLE)
        bold = QFont(head.font())
        bold.setBold(True)
        head.setFont(bold)
        row = [head, QStandardItem(""), QStandardItem(f"keep {doc_label(keeper)}" if keeper else ""),
               QStandardItem(""), QStandardItem("")]
        for member in g.members:
            doc = self.docs.get(member)
            roles = []
            if member == g.principal:
                roles.append("principal")
            if member == g.keeper:
                roles.append("★ keeper")
            if getattr(doc, "reference", False):
                roles.append("reference")
            items = [
                QStandardItem(doc_label(doc) if doc else f"#{member}"),
                QStandardItem(_score_text(g, member)),
                QStandardItem(", ".join(roles)),
                QStandardItem(human_size(getattr(doc, "size", None))),
                QStandardItem(fmt_date(doc_date(doc)) if doc else "–"),
            ]
            items[0].setToolTip(str(getattr(doc, "abspath", "")))
            if member == g.keeper:
                f = QFont(items[0].font())
                f.setBold(True)
                items[0].setFont(f)
            for it in items:
                it.setData(member, DOC_ROLE)
                it.setData(g.group_id, GROUP_ROLE)
            head.appendRow(items)
        return row

    # -- selection and keepers ------------------------------------------------------------
    def _group(self, group_id: int) -> Any:
        return next((g for g in self.groups if g.group_id == group_id), None)

    def current_document(self) -> int | None:
        """The document of the selected member row, or None."""
        idx = self.view.currentIndex()
        return idx.data(DOC_ROLE) if idx.isValid() else None

    def select_document(self, doc_id: int) -> bool:
        """Select the member row of ``doc_id``."""
        for row in range(self.model.rowCount()):
            head = self.model.item(row, 0)
            for k in range(head.rowCount()):
                if head.child(k, 0).data(DOC_ROLE) == doc_id:
                    idx = head.child(k, 0).index()
                    self.view.expand(head.index())
                    self.view.setCurrentIndex(idx)
                    self.view.scrollTo(idx)
                    return True
        return False

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        doc = current.data(DOC_ROLE)
        group = self._group(current.data(GROUP_ROLE)) if current.isValid() else None
        self.keep_button.setEnabled(doc is not None)
        if doc is not None and group is not None:
            other = group.principal if doc != group.principal else next(
                (m for m in group.members if m != doc), doc)
            self.memberSelected.emit(group.principal if doc != group.principal else doc,
                                     doc if doc != group.principal else other)

    def choose_current_as_keeper(self) -> None:
        """Make the selected document its group's keeper."""
        idx = self.view.currentIndex()
        doc = idx.data(DOC_ROLE)
        group = self._group(idx.data(GROUP_ROLE)) if idx.isValid() else None
        if doc is not None and group is not None:
            self.keeperChosen.emit(int(doc), [int(m) for m in group.members])

    def keeper_of(self, group_id: int) -> int | None:
        """The keeper of a group as shown."""
        g = self._group(group_id)
        return g.keeper if g else None


def _score_text(group: Any, member: int) -> str:
    """The member's score to the principal; members linked only through others say so."""
    score = group.scores.get(member, 1.0)
    linked = getattr(group, "linked", lambda _: True)(member)
    text = "–" if score is None else f"{score:.3f}"
    return text if linked else f"{text} via others"
