"""Reviewing pairs from the keyboard: duplicate, not duplicate, undo, next and previous.

=====================  ===========================================
Key                    Does
=====================  ===========================================
D                      mark the selected pair duplicate, go to next
N                      mark it not duplicate (keeps the two apart in the groups), go to next
C                      clear its verdict
U or Ctrl+Z            undo the last verdict or keeper choice (Make keeper)
J or ↓                 next pair
K or ↑                 previous pair
=====================  ===========================================

The single-letter keys are window shortcuts; a text box that has the focus still gets its
letters (Qt gives typed text precedence over shortcuts).

The pair keys are enabled only while a pair set of the open collection is shown (a pair
still on screen from another collection must never be judged into this one's store); Undo
only while there is something to undo. They act only while the Pairs tab is in view: on
another tab (the Groups tab shows a group's member beside its principal) the selected pair
of the hidden list is not the pair on screen, and N marked that one "not duplicate"; the
key then says where it works (``elsewhere``) and does nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from .collection import Collection
from .pairs_view import PairsView


class ReviewActions(QObject):
    """The review QActions, bound to a pairs view and the collection that saves verdicts."""

    reviewed = Signal(int, int, object)
    undone = Signal(str, object)  # "verdict", (a, b) or "keeper", the doc id that was made keeper
    elsewhere = Signal(str)  # a pair key pressed away from the Pairs tab: what to do instead

    def __init__(self, window: QWidget, pairs: PairsView):
        super().__init__(window)
        self.pairs = pairs
        self.collection: Collection | None = None
        self.duplicate = self._action(window, "Mark &duplicate", ["D"], "The selected pair is a duplicate (D)")
        self.not_duplicate = self._action(window, "Mark &not duplicate", ["N"],
                                          "The selected pair is not a duplicate: keep the two apart (N)")
        self.clear = self._action(window, "&Clear verdict", ["C"], "Forget the verdict of the selected pair (C)")
        self.undo = self._action(window, "&Undo", ["U", QKeySequence.StandardKey.Undo],
                                 "Undo the last verdict or keeper choice (U or Ctrl+Z)")
        self.next = self._action(window, "Ne&xt pair", ["J"], "Go to the next pair (J or ↓)")
        self.previous = self._action(window, "&Previous pair", ["K"], "Go to the previous pair (K or ↑)")
        self.duplicate.triggered.connect(lambda: self.mark("duplicate"))
        self.not_duplicate.triggered.connect(lambda: self.mark("not_duplicate"))
        self.clear.triggered.connect(lambda: self.mark(None, advance=False))
        self.undo.triggered.connect(self.undo_last)
        self.next.triggered.connect(lambda: self._in_view() and self.pairs.step(+1))
        self.previous.triggered.connect(lambda: self._in_view() and self.pairs.step(-1))
        self._shown = False
        self.set_collection(None)

    @staticmethod
    def _action(window: QWidget, text: str, keys: list, tip: str) -> QAction:
        action = QAction(text, window)
        action.setShortcuts([QKeySequence(k) for k in keys])
        action.setToolTip(tip)
        action.setStatusTip(tip)
        window.addAction(action)
        return action

    def actions(self) -> list[QAction]:
        """All review actions, in menu order."""
        return [self.duplicate, self.not_duplicate, self.clear, self.undo, self.next, self.previous]

    def set_collection(self, collection: Collection | None) -> None:
        """Bind to the open collection (None: disable). The pair keys stay disabled until
        :meth:`set_pairs_shown` says this collection's pairs are on screen."""
        if self.collection is not None:
            try:
                self.collection.undoChanged.disconnect(self._update)
            except (RuntimeError, TypeError):
                pass
        self.collection = collection
        self._shown = False
        if collection is not None:
            collection.undoChanged.connect(self._update)
        self._update()

    def set_pairs_shown(self, shown: bool) -> None:
        """Whether the pairs view shows a pair set of the bound collection."""
        self._shown = bool(shown) and self.collection is not None
        self._update()

    def refresh(self) -> None:
        """Enable the actions anew (after the collection turned out read-only)."""
        self._update()

    def _update(self, *_: object) -> None:
        # A collection opened read-only can be browsed, not reviewed.
        writable = self.collection is not None and not self.collection.store.read_only
        for a in (self.duplicate, self.not_duplicate, self.clear):
            a.setEnabled(self._shown and writable)
        for a in (self.next, self.previous):
            a.setEnabled(self._shown)
        self.undo.setEnabled(writable and self.collection.can_undo())

    def _in_view(self) -> bool:
        """Whether the pairs list is the page in view (its selection is the pair on screen);
        if not, say where the keys work."""
        if self.pairs.isVisibleTo(self.parent()):
            return True
        self.elsewhere.emit("The review keys (D, N, C, J, K) work on the Pairs tab, on the pair selected there; "
                            "nothing was marked")
        return False

    def mark(self, verdict: str | None, advance: bool = True) -> bool:
        """Save ``verdict`` for the selected pair; move to the next one."""
        pair = self.pairs.current_pair()
        if pair is None or self.collection is None or not self._shown or self.collection.data is None:
            return False
        if not self._in_view():
            return False
        if self.collection.store.read_only:
            return False
        row = self.pairs.current_row()
        self.collection.set_verdict(pair.a, pair.b, verdict)
        self.pairs.model.set_verdict(pair.a, pair.b, verdict)
        self.reviewed.emit(pair.a, pair.b, verdict)
        if advance:
            self.pairs.select_row(min(row + 1, self.pairs.model.total_rows() - 1))
        return True

    def undo_last(self) -> bool:
        """Undo the last verdict (and select its pair again) or the last keeper choice."""
        if self.collection is None:
            return False
        step = self.collection.undo()
        if step is None:
            return False
        kind, key = step
        if kind == "verdict":
            a, b = key
            self.pairs.model.set_verdict(a, b, self.collection.verdict(a, b))
            self.pairs.select_pair(a, b)
        elif kind == "group":  # the group view's bulk action: every pair it had set
            for a, b in key.verdicts_before:
                self.pairs.model.set_verdict(a, b, self.collection.verdict(a, b))
        self.undone.emit(kind, key)
        return True
