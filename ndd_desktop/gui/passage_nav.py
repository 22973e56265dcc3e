"""Next and previous shared passage in the compare view (F7, Shift+F7).

Once the compare view has shown a pair, the passages the two documents share
(``pipeline.passages``) are found on a worker thread; the buttons then scroll both sides to
a passage and say where it lies in each document (page, paragraph, sheet and row) and how
much of each it covers. A short document wholly inside the other is said to be contained.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy

from ..pipeline.passages import PlacedPassage, compare_texts
from .compare_view import CompareView, _qpos, _scroll_to
from .worker import Worker


def _as_shown(text: str | None) -> str:
    """The stored text with the viewer's line breaks but its form feeds kept (the page
    breaks): the same length as the text shown, so offsets carry over."""
    if not text:
        return ""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


class PassageNav(QObject):
    """The passage buttons of one compare view."""

    found = Signal()  # the passages of the pair on screen are known

    def __init__(self, compare: CompareView, load_text: Callable[[int], str | None]):
        super().__init__(compare)
        self.compare = compare
        self.load_text = load_text
        self.passages: list[PlacedPassage] = []
        self.contained: str | None = None
        self.index = -1
        self._request = 0
        self._workers: set[Worker] = set()
        self.prev_button = QPushButton("◀ Passage", compare)
        self.prev_button.setToolTip("Scroll both sides to the previous shared passage (Shift+F7)")
        self.prev_button.setShortcut("Shift+F7")
        self.next_button = QPushButton("Passage ▶", compare)
        self.next_button.setToolTip("Scroll both sides to the next shared passage (F7)")
        self.next_button.setShortcut("F7")
        self.label = QLabel(compare)
        self.label.setObjectName("passagePlace")
        self.prev_button.clicked.connect(lambda: self.goto(-1))
        self.next_button.clicked.connect(lambda: self.goto(+1))
        # the buttons beside the difference buttons; the place on a line of its own under
        # them (beside them it was cut to "A lies nearly wholly in B at ¶ 1-" at 1280 px); it
        # never widens the window (a longer one is cut, its whole text in the tooltip)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        nav = compare.layout().itemAt(1).layout()
        nav.insertWidget(1, self.prev_button)
        nav.insertWidget(2, self.next_button)
        compare.layout().addWidget(self.label)
        compare.loaded.connect(self._start)
        compare.cleared.connect(self._forget)
        self._set_passages([], None)

    def _set_passages(self, passages: list[PlacedPassage], contained: str | None) -> None:
        self.passages, self.contained, self.index = passages, contained, -1
        for b in (self.prev_button, self.next_button):
            b.setEnabled(bool(passages))
        n = len(passages)
        self._say("" if not passages and contained is None else
                  (f"{contained} · " if contained else "") + f"{n} shared passage{'' if n == 1 else 's'}")

    def _say(self, text: str) -> None:
        self.label.setText(text)
        self.label.setToolTip(text)

    def _start(self) -> None:
        doc_a, doc_b = self.compare.header_a.doc, self.compare.header_b.doc
        self._request += 1
        request = self._request
        self._set_passages([], None)
        if doc_a is None or doc_b is None:
            return
        load = self.load_text

        def job(progress, cancel):
            shared, placed, contained = compare_texts(_as_shown(load(doc_a.id)), _as_shown(load(doc_b.id)),
                                                      doc_a.format, doc_b.format)
            return placed, contained, shared.complete

        worker = Worker(job, name="passages", parent=self)
        worker.finished.connect(lambda r: self._found(request, r))
        worker.done.connect(lambda: self._workers.discard(worker))
        self._workers.add(worker)
        worker.start()

    def _found(self, request: int, result: Any) -> None:
        if request != self._request:
            return
        placed, contained, complete = result
        self._set_passages(placed, contained)
        if not complete:
            self._say(self.label.text() + " (partial)")
        self.found.emit()

    def goto(self, step: int) -> None:
        """Scroll both sides to the next (``+1``) or previous (``-1``) shared passage."""
        diff = self.compare.diff
        if not self.passages or diff is None:
            return
        self.index = (self.index + step) % len(self.passages)
        p = self.passages[self.index]
        self.compare._syncing = True  # both sides move to the passage, not one after the other
        try:
            _scroll_to(self.compare.text_a, _qpos(diff.text_a, p.a_chars[0]))
            _scroll_to(self.compare.text_b, _qpos(diff.text_b, p.b_chars[0]))
        finally:
            self.compare._syncing = False
        self._say(f"Passage {self.index + 1}/{len(self.passages)}: left {p.a_place} ↔ right {p.b_place}"
                           f" · {p.words_a:,} words ({p.share_of_a:.0%} of left, {p.share_of_b:.0%} of right)")

    def shutdown(self) -> None:
        """Wait for a running search (the collection closes)."""
        self.clear()

    def _forget(self) -> None:
        """The compare view shows no pair: no passages, buttons off (a search still running
        is not waited for; its answer is dropped as stale)."""
        self._request += 1
        self._set_passages([], None)

    def clear(self) -> None:
        """Forget the passages and wait for a running search (the collection closes)."""
        self._request += 1
        for w in list(self._workers):
            w.wait()
        self._set_passages([], None)


def install_passage_nav(window: Any) -> PassageNav:
    """Add the passage buttons to the window's compare view (texts read from its collection)."""
    def load(doc_id: int) -> str | None:
        collection = getattr(window, "collection", None)
        return None if collection is None else collection.store.documents.text(doc_id)

    nav = PassageNav(window.compare, load)
    window.passage_nav = nav
    window.extra_views.append(nav)  # stopped with the collection
    return nav
