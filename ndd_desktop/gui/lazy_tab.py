"""A tab that works only while it is seen: a change marks it stale, showing it refreshes it."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


class LazyTab(QWidget):
    """Base of the tabs whose content is computed on a worker (Folders, Threads).

    Subclasses implement :meth:`refresh`; they call :meth:`mark_stale` when their source
    changes. A hidden tab computes nothing until it is shown.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._stale = False

    def refresh(self) -> None:
        """Compute the content (in the background)."""
        raise NotImplementedError

    def mark_stale(self) -> None:
        """The source changed: refresh now if shown, else when next shown."""
        self._stale = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        """Refresh when shown after a change."""
        super().showEvent(event)
        if self._stale:
            self.refresh()
