"""A layout that lays its widgets out in a row and wraps them onto more rows when narrow.

Used for toolbars that would otherwise set the window's minimum width (a port of Qt's
*Flow Layout* example). An item marked with :meth:`FlowLayout.addWidget`'s ``right=True``
is pushed to the right end of its row.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget, QWidgetItem


class FlowLayout(QLayout):
    """Items left to right, wrapping to a new row when the next one does not fit."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 6):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._right: set[int] = set()  # ids of items pushed to the right end of their row
        self.setSpacing(spacing)
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt API
        """Append an item (Qt calls this for addWidget)."""
        self._items.append(item)

    def addWidget(self, widget: QWidget, right: bool = False) -> None:  # noqa: N802 - Qt API
        """Append a widget; ``right``: at the right end of its row."""
        self.addChildWidget(widget)
        item = QWidgetItem(widget)
        self.addItem(item)
        if right:
            self._right.add(id(item))
        self.invalidate()

    def count(self) -> int:
        """Number of items."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        """The item at ``index`` or None."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt API
        """Remove and return the item at ``index``."""
        if 0 <= index < len(self._items):
            item = self._items.pop(index)
            self._right.discard(id(item))
            return item
        return None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt API
        """Never expands beyond its rows."""
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        """Its height depends on its width (the rows it wraps into)."""
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt API
        """The height needed at ``width``."""
        return self._do_layout(QRect(0, 0, width, 0), test_only=True)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt API
        """Place the items in ``rect``."""
        super().setGeometry(rect)
        self._do_layout(rect, test_only=False)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """Everything on one row."""
        w = h = 0
        for item in self._visible():
            hint = item.sizeHint()
            w += hint.width() + (self.spacing() if w else 0)
            h = max(h, hint.height())
        m = self.contentsMargins()
        return QSize(w + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt API
        """The widest single item (everything else wraps)."""
        size = QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self) -> list[QLayoutItem]:
        return [it for it in self._items if not (it.widget() and it.widget().isHidden())]

    def _do_layout(self, rect: QRect, test_only: bool) -> int:
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        rows: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = 0
        for item in self._visible():
            hint = item.sizeHint()
            width = min(hint.width(), area.width())
            if rows[-1] and x + width > area.width():
                rows.append([])
                x = 0
            rows[-1].append((item, QSize(width, hint.height())))
            x += width + self.spacing()
        y = area.y()
        for row in rows:
            if not row:
                continue
            height = max(size.height() for _, size in row)
            if not test_only:
                left = [(it, s) for it, s in row if id(it) not in self._right]
                right = [(it, s) for it, s in row if id(it) in self._right]
                x = area.x()
                for it, s in left:
                    it.setGeometry(QRect(QPoint(x, y + (height - s.height()) // 2), s))
                    x += s.width() + self.spacing()
                x = area.right() + 1
                for it, s in reversed(right):
                    x -= s.width()
                    it.setGeometry(QRect(QPoint(x, y + (height - s.height()) // 2), s))
                    x -= self.spacing()
            y += height + self.spacing()
        return y - self.spacing() - rect.y() + m.bottom()

