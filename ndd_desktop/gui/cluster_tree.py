"""The groups: a tree of each group's principal and members, with the keeper marked.

The keeper of a group is the reviewer's choice when there is one, else the rule picked
here (prefer reference copies, then oldest; oldest; newest; longest; folder priority, which
follows the order of the folders list; latest version, from the version order). The Version
column numbers each group's members in the order they were written (worked out off the GUI
thread after each grouping, ``Collection.lineageChanged``); a click on a column's header
sorts the members of every group by it. The tree is a view over a lazy model
(``cluster_model.ClusterModel``): a new grouping is a model reset and the view reads only the
rows it shows, so moving the threshold never blocks the window however many groups there are.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
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

from .cluster_model import DOC_ROLE, GROUP_ROLE, HEADERS, ClusterModel, score_text
from .flow_layout import FlowLayout
from .formatting import count_of, doc_label

RULE_LABELS = {
    "reference-oldest": "Reference copies first, then oldest",
    "oldest": "Oldest",
    "newest": "Newest",
    "longest": "Longest text",
    "folder-priority": "Folder priority (order of the folders list)",
    "latest": "Latest version (from the texts)",
}
__all__ = ["DOC_ROLE", "GROUP_ROLE", "HEADERS", "RULE_LABELS", "ClusterModel", "ClusterTree"]
# The starting width of each narrow column: its usual widest text (the user can widen it; a
# longer text is elided and shown whole in its tooltip).
COLUMN_SAMPLES = {1: "0.000 via others", 2: "principal, ★ keeper", 3: "1023.9 MB", 4: "2000-12-31",
                  5: "order medium"}


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
        self._expanded: set[int] = set()  # group ids of the expanded group rows
        self.model = ClusterModel(self)
        self.view = QTreeView(self)
        self.view.setObjectName("clusterTree")
        self.view.setModel(self.model)
        self.view.setUniformRowHeights(True)
        self.view.setAlternatingRowColors(True)
        self.view.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)
        self.view.setToolTip("Each group: its principal and the members with their score to it; a member marked "
                             "'via others' is linked to the principal only through other members.\n"
                             "★ marks the keeper. Select a member to compare it with the principal.")
        # Starting widths from the font, never sized to the contents (that reads every row, and a
        # group's long 'keep ...' would take the room): the Document column takes the rest.
        header = self.view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        metrics = self.view.fontMetrics()
        for col, sample in COLUMN_SAMPLES.items():
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, metrics.horizontalAdvance(sample) + 12)
        # Sorting reorders the members inside each group (the model's sort); no column is
        # sorted at first, so the members keep the grouping's order (principal first).
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.expanded.connect(self._on_expanded)
        self.view.collapsed.connect(self._on_collapsed)
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
        self.read_only = False  # a read-only collection: no keeper can be chosen
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

    def set_rule(self, rule: str) -> None:
        """Select a keeper rule without emitting."""
        idx = self.rule.findData(rule)
        if idx >= 0:
            self.rule.blockSignals(True)
            self.rule.setCurrentIndex(idx)
            self.rule.blockSignals(False)

    def set_grouping(self, grouping: Any, docs: dict[int, Any]) -> None:
        """Show a pipeline ``Grouping`` (documents by id for the labels).

        The groups expanded before stay expanded (by group id) and the selected document stays
        selected when it is still in a group.
        """
        self.docs = docs
        # the groups as they come (a GroupList makes each group when the view reads it)
        self.groups = grouping.groups if grouping is not None else []
        expanded, current = set(self._expanded), self.current_document()
        self._expanded = set()
        self.model.set_groups(self.groups, docs)  # a reset: the view lays out the rows it shows
        n_docs = grouping.member_count() if grouping is not None else 0
        apart = sorted(getattr(grouping, "left_out", ()) or ())
        text = f"{count_of(len(self.groups), 'group')} · {count_of(n_docs, 'document')}"
        tip = ""
        if apart:
            # similar to others at this threshold, but a "not duplicate" verdict keeps them out
            text += f" · {len(apart):,} kept apart by your verdicts"
            tip = ("Similar to other documents at this threshold, but a “not duplicate” verdict keeps "
                   "them out of every group (each stays in an export):\n" + _names(apart, docs))
        partial = sorted(getattr(grouping, "partial", ()) or ())
        if partial:
            text += f" · {len(partial):,} too long to compare whole"
            tip += ("\n\n" if tip else "") + (
                "Texts cut at the size limit were compared on their beginning only, so they join a "
                "group only through a file of the very same bytes (each stays in an export):\n"
                + _names(partial, docs))
        self.summary.setText(text)
        self.summary.setToolTip(tip)
        if not expanded and len(self.groups) <= 30:
            rows: Any = range(len(self.groups))
        else:
            rows = (self.model.row_of_group(gid) for gid in expanded)
        for row in rows:
            if row is not None:
                self.view.expand(self.model.group_index(row))
        self.keep_button.setEnabled(False)
        if current is not None:
            self.select_document(current)

    def set_lineage(self, orders: dict[int, Any]) -> None:
        """Show the version order of the groups (``pipeline.lineage.GroupOrder`` by group id)."""
        current = self.current_document()
        self.model.set_lineage(orders)
        self.view.viewport().update()
        if current is not None and self.current_document() != current:
            self.select_document(current)

    def sort_by_version(self, descending: bool = False) -> None:
        """Sort the members of every group by their place in the version order."""
        from .cluster_model import VERSION_COLUMN

        self.view.sortByColumn(VERSION_COLUMN, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)

    def clear(self) -> None:
        """Show no groups (no pair set of the open collection is loaded)."""
        self.docs, self.groups = {}, []
        self._expanded = set()
        self.model.set_groups([], {})
        self.summary.setText("")
        self.keep_button.setEnabled(False)

    def fully_filled(self) -> bool:
        """True when every group is in the tree (always, since the model reads them on demand)."""
        return self.model.rowCount() == len(self.groups)

    def _on_expanded(self, index: QModelIndex) -> None:
        gid = index.data(GROUP_ROLE)
        if gid is not None and index.data(DOC_ROLE) is None:
            self._expanded.add(gid)

    def _on_collapsed(self, index: QModelIndex) -> None:
        self._expanded.discard(index.data(GROUP_ROLE))

    # -- selection and keepers ------------------------------------------------------------
    def _group(self, group_id: int) -> Any:
        return self.model.group(group_id)

    def current_document(self) -> int | None:
        """The document of the selected member row, or None."""
        idx = self.view.currentIndex()
        return idx.data(DOC_ROLE) if idx.isValid() else None

    def select_document(self, doc_id: int) -> bool:
        """Select the member row of ``doc_id``."""
        idx = self.model.document_index(doc_id)
        if not idx.isValid():
            return False
        self.view.expand(idx.parent())
        self.view.setCurrentIndex(idx)
        self.view.scrollTo(idx)
        return True

    def current_pair(self) -> tuple[int, int] | None:
        """The two documents the selected member row compares: (its group's principal, the
        member), or for the principal's own row (the principal, another member); None when
        no member row is selected."""
        return self._pair_at(self.view.currentIndex())

    def _pair_at(self, index: QModelIndex) -> tuple[int, int] | None:
        doc = index.data(DOC_ROLE) if index.isValid() else None
        group = self._group(index.data(GROUP_ROLE)) if doc is not None else None
        if group is None:
            return None
        if doc != group.principal:
            return group.principal, doc
        return doc, next((m for m in group.members if m != doc), doc)

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.keep_button.setEnabled(current.data(DOC_ROLE) is not None and not self.read_only)
        pair = self._pair_at(current)
        if pair is not None:
            self.memberSelected.emit(*pair)

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
    return score_text(group, member)


def _names(ids: list[int], docs: dict[int, Any], shown: int = 20) -> str:
    """The labels of the first ``shown`` documents, one per line, and how many more."""
    lines = [doc_label(docs[d]) if d in docs else f"#{d}" for d in ids[:shown]]
    if len(ids) > shown:
        lines.append(f"… and {len(ids) - shown:,} more")
    return "\n".join(lines)
