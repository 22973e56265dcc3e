"""The groups as a lazy two-level Qt model: a row per group, under it a row per member.

The model holds the pipeline's ``Grouping`` as is and computes a row's texts only when the
view asks for them (and keeps them until the next grouping), so showing a new grouping is a
model reset that costs the same for ten groups or ten thousand; the view then asks for the
rows it paints. The groups of ``groups_at`` are a ``pipeline.group_list.GroupList``, which
makes a group's ``DocGroup`` only when it is read: the model reads only the groups the view
shows, and asks the list (not every group) which row holds a group or a document. Group rows
have ``internalId`` 0; member rows carry their group's row + 1.

The Version column shows each member's place in its group's version order (1: the oldest,
``pipeline.lineage``), which arrives after the grouping (:meth:`ClusterModel.set_lineage`).
Sorting by a column reorders the members inside each group; the groups keep their order.
The view lays out every group row once per grouping, calling ``index`` and ``hasChildren``
for each, so those two stay minimal and ``flags`` is left to Qt (enabled and selectable).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from .formatting import doc_date, doc_label, fmt_date, human_size

DOC_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2
HEADERS = ("Document", "Score", "Role", "Size", "Date", "Version")
VERSION_COLUMN = 5

_DISPLAY = Qt.ItemDataRole.DisplayRole
_FONT = Qt.ItemDataRole.FontRole
_TIP = Qt.ItemDataRole.ToolTipRole


def _bold() -> QFont:
    font = QFont()  # only the weight is set: the rest comes from the view's font
    font.setBold(True)
    return font


class ClusterModel(QAbstractItemModel):
    """Groups and their members, read from a ``Grouping`` on demand."""

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.groups: list[Any] = []
        self.docs: dict[int, Any] = {}
        self._texts: dict[tuple[int, int], tuple[str, ...]] = {}
        self._row_of_group: dict[int, int] | None = None
        self._bold = _bold()
        self.orders: dict[int, Any] = {}  # group id -> pipeline.lineage.GroupOrder
        self._places: dict[int, dict[int, int]] = {}  # group id -> {doc id: place from 1}
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)
        self._perm: dict[int, list[int]] = {}  # group row -> member positions in display order

    # -- contents ---------------------------------------------------------------------------
    def set_groups(self, groups: list[Any], docs: dict[int, Any]) -> None:
        """Show ``groups`` (pipeline ``DocGroup`` objects); ``docs`` by id for the labels."""
        self.beginResetModel()
        self.groups, self.docs = groups, docs
        self._texts = {}
        self._row_of_group = None
        self._perm = {}
        self.orders, self._places = {}, {}
        self.endResetModel()

    def set_lineage(self, orders: dict[int, Any]) -> None:
        """Show the version order of the groups (``GroupOrder`` by group id); ids of groups
        not shown are ignored, so a late answer for an older grouping does no harm."""
        self.orders = {gid: o for gid, o in orders.items() if self.row_of_group(gid) is not None
                       and set(o.order) == set(self._member_ids(self.row_of_group(gid)))}
        self._places = {gid: {m: k for k, m in enumerate(o.order, start=1)} for gid, o in self.orders.items()}
        self._texts = {}
        if self._sort[0] == VERSION_COLUMN:
            self.sort(*self._sort)
        elif self.groups:
            self.dataChanged.emit(self.group_index(0, VERSION_COLUMN),
                                  self.group_index(len(self.groups) - 1, VERSION_COLUMN))

    def _member_ids(self, group_row: int) -> list[int]:
        """The members of a group row, without making its ``DocGroup`` when the list can."""
        member_ids = getattr(self.groups, "member_ids", None)
        return member_ids(group_row) if member_ids is not None else self.groups[group_row].members

    def version_place(self, group_id: int, doc_id: int) -> int | None:
        """A member's place in its group's version order (1: the oldest), None before known."""
        return self._places.get(group_id, {}).get(doc_id)

    def member_at(self, group_row: int, member_row: int) -> int:
        """The document shown at ``member_row`` of a group (after sorting)."""
        members = self.groups[group_row].members
        perm = self._perm.get(group_row)
        if perm is None and self._sort[0] >= 0:
            perm = self._perm[group_row] = self._sorted_positions(group_row)
        return members[perm[member_row]] if perm is not None else members[member_row]

    def _sorted_positions(self, group_row: int) -> list[int]:
        g = self.groups[group_row]
        column, order = self._sort
        inf = float("inf")

        def key(k: int) -> Any:
            m = g.members[k]
            doc = self.docs.get(m)
            if column == 0:
                return doc_label(doc).casefold() if doc else ""
            if column == 1:
                sc = g.scores.get(m, 1.0)
                return -inf if sc is None else sc
            if column == 2:
                return self._member_texts(g, m)[2]
            if column == 3:
                return getattr(doc, "size", 0) or 0
            if column == 4:
                d = doc_date(doc) if doc else None
                return inf if d is None else d
            place = self.version_place(g.group_id, m)
            return inf if place is None else place

        return sorted(range(len(g.members)), key=key, reverse=order == Qt.SortOrder.DescendingOrder)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:  # noqa: D102 - Qt API
        """Order the members of every group by ``column`` (-1: as grouped); the groups stay."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        held = [(ix.internalId(), self.member_at(ix.internalId() - 1, ix.row()) if ix.internalId() else None, ix)
                for ix in old]
        self._sort = (column, order)
        self._perm = {}
        self._texts = {}
        new = []
        for gid, member, ix in held:
            if member is None:
                new.append(ix)
                continue
            row = self._display_row(gid - 1, member)
            new.append(self.createIndex(row, ix.column(), gid) if row is not None else QModelIndex())
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _display_row(self, group_row: int, member: int) -> int | None:
        members = self.groups[group_row].members
        if member not in members:
            return None
        pos = members.index(member)
        if self._sort[0] < 0:
            return pos
        self.member_at(group_row, 0)  # builds the permutation
        return self._perm[group_row].index(pos)

    def row_of_group(self, group_id: Any) -> int | None:
        """The row of the group with ``group_id`` (None when it is not shown)."""
        row_of = getattr(self.groups, "row_of", None)
        if row_of is not None:  # a GroupList: group k + 1 is row k
            return row_of(group_id)
        if self._row_of_group is None:
            self._row_of_group = {g.group_id: r for r, g in enumerate(self.groups)}
        return self._row_of_group.get(group_id)

    def group(self, group_id: Any) -> Any:
        row = self.row_of_group(group_id)
        return None if row is None else self.groups[row]

    def place_of(self, doc_id: Any) -> tuple[int, int] | None:
        """(group row, member row) of ``doc_id`` (its first group), or None."""
        place_of = getattr(self.groups, "place_of", None)
        if place_of is not None:  # a GroupList finds it in its arrays
            place = place_of(doc_id)
            return None if place is None else (place[0], self._display_row(place[0], doc_id))
        for r, g in enumerate(self.groups):  # a scan (each test is C code) beats building a map once per grouping
            if doc_id in g.members:
                return r, self._display_row(r, doc_id)
        return None

    def group_index(self, row: int, column: int = 0) -> QModelIndex:
        return self.createIndex(row, column, 0)

    def member_index(self, group_row: int, member_row: int, column: int = 0) -> QModelIndex:
        return self.createIndex(member_row, column, group_row + 1)

    def document_index(self, doc_id: Any) -> QModelIndex:
        """The index of ``doc_id``'s member row (invalid when it is in no group)."""
        place = self.place_of(doc_id)
        return QModelIndex() if place is None else self.member_index(*place)

    # -- QAbstractItemModel -----------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        if column < 0 or column >= len(HEADERS) or row < 0:
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0) if row < len(self.groups) else QModelIndex()
        if parent.internalId() == 0 and parent.column() == 0 and parent.row() < len(self.groups):
            if row < len(self.groups[parent.row()].members):
                return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        gid = index.internalId()
        return QModelIndex() if gid == 0 else self.createIndex(gid - 1, 0, 0)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.groups)
        if parent.internalId() == 0 and parent.column() == 0 and parent.row() < len(self.groups):
            return len(self.groups[parent.row()].members)
        return 0

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:
        return len(HEADERS)

    def hasChildren(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:
        if not parent.isValid():
            return bool(self.groups)
        return parent.internalId() == 0 and parent.column() == 0 and parent.row() < len(self.groups)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == _DISPLAY and 0 <= section < len(HEADERS):
            return HEADERS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        gid, row, col = index.internalId(), index.row(), index.column()
        if gid == 0:
            if row >= len(self.groups):
                return None
            g = self.groups[row]
            if role == _DISPLAY:
                return self._row_texts(row, -1)[col]
            if role == GROUP_ROLE:
                return g.group_id
            if role == _FONT and col == 0:
                return self._bold
            if role == _TIP and col == 2:
                return self._row_texts(row, -1)[2] or None
            if role == _TIP and col == VERSION_COLUMN:
                return self._order_tip(g.group_id)
            return None
        if gid > len(self.groups):
            return None
        g = self.groups[gid - 1]
        if row >= len(g.members):
            return None
        member = self.member_at(gid - 1, row)
        if role == _DISPLAY:
            return self._row_texts(gid - 1, row)[col]
        if role == DOC_ROLE:
            return member
        if role == GROUP_ROLE:
            return g.group_id
        if role == _FONT and col == 0 and member == g.keeper:
            return self._bold
        if role == _TIP and col == 0:
            return str(getattr(self.docs.get(member), "abspath", "")) or None
        if role == _TIP and col == 2:
            return _role_tip(self._row_texts(gid - 1, row)[2], g, member)
        if role == _TIP and col == VERSION_COLUMN:
            return self._order_tip(g.group_id)
        return None

    # -- texts ------------------------------------------------------------------------------
    def _row_texts(self, group_row: int, member_row: int) -> tuple[str, ...]:
        key = (group_row, member_row)
        texts = self._texts.get(key)
        if texts is None:
            g = self.groups[group_row]
            texts = self._group_texts(g) if member_row < 0 else self._member_texts(g, self.member_at(group_row, member_row))
            self._texts[key] = texts
        return texts

    def _group_texts(self, g: Any) -> tuple[str, ...]:
        keeper = self.docs.get(g.keeper)
        extra = len(getattr(g, "keepers", ())) - 1
        more = f" and {extra} more kept" if extra > 0 else ""  # by the reviewer or the cover: the rows say
        order = self.orders.get(g.group_id)
        return (f"Group {g.group_id} · {len(g.members)} documents", "",
                f"keep {doc_label(keeper)}{more}" if keeper else "", "", "",
                "" if order is None else "same text" if order.same_text else f"order {order.level}")

    def _member_texts(self, g: Any, member: int) -> tuple[str, ...]:
        doc = self.docs.get(member)
        roles = []
        if member == g.principal:
            roles.append("principal")
        if member == g.keeper:
            roles.append("★ keeper")
        elif member in getattr(g, "keepers", ()):
            roles.append(f"★ kept too ({_score(g.to_keeper.get(member))} to the keeper)")
        if getattr(doc, "reference", False):
            roles.append("reference")
        cover = getattr(g, "covered_by", {}).get(member)
        if cover is not None:
            roles.append(f"duplicate of {doc_label(self.docs.get(cover[0]))} ({_score(cover[1])})")
        place = self.version_place(g.group_id, member)
        version = "" if place is None else f"{place} latest" if place == len(g.members) else str(place)
        return (doc_label(doc) if doc else f"#{member}", score_text(g, member), ", ".join(roles),
                human_size(getattr(doc, "size", None)), fmt_date(doc_date(doc)) if doc else "–", version)

    def _order_tip(self, group_id: int) -> str | None:
        order = self.orders.get(group_id)
        if order is None:
            return "The version order is being worked out" if self.groups else None
        votes = ", ".join(f"{k.replace('_', ' ')} {v:+.2f}" for k, v in sorted(order.votes.items()))
        return (f"Place in the order the versions were written (1: the oldest), from their texts.\n"
                f"How sure: {order.level} ({order.confidence:.2f})" + (f"; evidence: {votes}" if votes else ""))


def _role_tip(text: str, g: Any, member: int) -> str | None:
    """The role cell with what it means for an export: "kept too" read as a contradiction
    beside a high score to the keeper (it is kept because the keeper lies wholly in it and it
    has text of its own, which the score does not show)."""
    if not text:
        return None
    if member == g.keeper:
        why = "Kept: the group's keeper (the keeper rule's choice, or yours)."
    elif member in getattr(g, "keepers", ()):
        why = ("Kept too: no kept document can stand in for it. None holds half of its text, or the keeper lies "
               "wholly in it and it has text of its own (a high score to the keeper says only that they share "
               "much). A keeper you chose is kept as chosen.")
    elif member in getattr(g, "covered_by", {}):
        why = ("Left out of an export: the kept document named holds enough of its text to stand in for it. "
               "What it has of its own goes out only if another kept document holds it: compare them before "
               "deleting the original.")
    else:
        return text
    return f"{text}\n{why}"


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def score_text(group: Any, member: int) -> str:
    """The member's score to the principal; members linked only through others say so."""
    score = group.scores.get(member, 1.0)
    linked = getattr(group, "linked", lambda _: True)(member)
    text = "–" if score is None else f"{score:.3f}"
    return text if linked else f"{text} via others"
