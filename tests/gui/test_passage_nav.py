"""Next/previous shared passage in the compare view: both sides scroll to it, its places shown."""

from __future__ import annotations

from types import SimpleNamespace

from ndd_desktop.gui.compare_view import CompareView
from ndd_desktop.gui.passage_nav import PassageNav

LETTER = "We regret to tell the council that the bridge over the river will close for repairs in May."


def doc(i: int, name: str, fmt: str) -> SimpleNamespace:
    return SimpleNamespace(id=i, root="/archive", relpath=f"box/{name}", abspath=f"/archive/box/{name}",
                           size=2048, date=1.6e9, mtime_ns=int(1.6e18), format=fmt,
                           xxh128=f"{i:032x}", sha256=f"{i:064x}", reference=False)


def test_passage_buttons_scroll_both_sides_to_the_shared_text(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    filler = [f"Paragraph {k} of the annual report: {'harbour ledger entries ' * 8}{k}." for k in range(60)]
    report_pages = ["\n\n".join(filler[:30]), "\n\n".join(filler[30:45] + [LETTER] + filler[45:])]
    texts = {1: "Dear members,\n\n" + LETTER + "\n\nYours, the clerk.", 2: "\f".join(report_pages)}
    nav = PassageNav(view, texts.get)
    with qtbot.waitSignal(nav.found, timeout=10000):
        view.show_pair(doc(1, "letter.txt", "txt"), doc(2, "report.pdf", "pdf"), texts.get)
    assert len(nav.passages) == 1 and nav.next_button.isEnabled()
    assert nav.contained is None  # "Dear members" and the closing are not in the report
    nav.next_button.click()
    assert "left ¶ 2 ↔ right p. 2" in nav.label.text()
    top = view.text_b.cursorForPosition(view.text_b.viewport().rect().topLeft()).position()
    assert abs(top - view.diff.text_b.index("We regret")) < 80
    # the other way round: the letter alone is wholly inside the report
    texts[3] = LETTER
    with qtbot.waitSignal(nav.found, timeout=10000):
        view.show_pair(doc(3, "quote.txt", "txt"), doc(2, "report.pdf", "pdf"), texts.get)
    assert nav.contained == "A lies wholly in B at p. 2" and "wholly" in nav.label.text()
    nav.prev_button.click()
    assert nav.index == 0
    # the view emptied (another tab, a filter matching nothing): no passage line, no buttons
    view.clear()
    assert nav.label.text() == "" and nav.passages == []
    assert not nav.next_button.isEnabled() and not nav.prev_button.isEnabled()


def test_the_passage_place_has_the_width_of_the_view(qtbot):
    """Beside the summary and four buttons it was cut to "A lies nearly wholly in B at ¶ 1-"
    in a window of 1280 pixels."""
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(900, 400)
    view.show()
    texts = {1: LETTER, 2: "Dear members,\n\n" + LETTER + "\n\nYours, the clerk."}
    nav = PassageNav(view, texts.get)
    with qtbot.waitSignal(nav.found, timeout=10000):
        view.show_pair(doc(1, "quote.txt", "txt"), doc(2, "letter.txt", "txt"), texts.get)
    qtbot.wait(20)
    text = nav.label.text()
    assert text.startswith("A lies wholly in B at")
    assert nav.label.fontMetrics().horizontalAdvance(text) <= nav.label.width()  # shown whole
