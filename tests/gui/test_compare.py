"""Flow 6: two documents side by side, differing passages highlighted, scrolling together."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtGui import QTextCursor

from ndd_desktop.gui import compare_view
from ndd_desktop.gui.compare_view import LEFT_COLOUR, RIGHT_COLOUR, CompareView


def doc(i: int, name: str) -> SimpleNamespace:
    return SimpleNamespace(id=i, root="/archive", relpath=f"box/{name}", abspath=f"/archive/box/{name}",
                           size=2048 * i, date=1.6e9, mtime_ns=int(1.6e18), format="txt",
                           xxh128=f"{i:032x}", sha256=f"{i:064x}", reference=i == 1)


def _background_at(edit, pos: int):
    cursor = QTextCursor(edit.document())
    cursor.setPosition(pos + 1)
    return cursor.charFormat().background().color()


def test_side_by_side_highlight_header_and_scroll(qtbot, monkeypatch):
    shared = "\n".join(f"Line {k} of the parish minutes, read and approved." for k in range(400))
    text_a = shared + "\nSigned by the clerk in ink.\n" + shared
    text_b = shared + "\nSigned by the chairman, stamped.\n" + shared
    texts = {1: text_a, 2: text_b}
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.show_pair(doc(1, "minutes.txt"), doc(2, "minutes-copy.txt"), texts.get)
    assert view.text_a.toPlainText() == text_a
    assert "box/minutes.txt" in view.header_a.title.text()
    assert "reference" in view.header_a.title.text()
    assert "4.0 KB" in view.header_b.details.text() and "txt" in view.header_b.details.text()
    assert "0000000000000000" in view.header_a.details.text()  # the hash
    # shared text plain, the differing words tinted on each side
    assert _background_at(view.text_a, text_a.index("clerk")) == LEFT_COLOUR
    assert _background_at(view.text_b, text_b.index("chairman")) == RIGHT_COLOUR
    assert _background_at(view.text_a, text_a.index("Line 3 ")) != LEFT_COLOUR
    assert "differing passage" in view.summary.text()
    # scrolling one side scrolls the other to the matching place
    bar_a, bar_b = view.text_a.verticalScrollBar(), view.text_b.verticalScrollBar()
    bar_a.setValue(bar_a.maximum() // 2)
    assert abs(bar_b.value() - bar_a.value()) <= 2
    view.goto_change(+1)
    top = view.text_b.cursorForPosition(view.text_b.viewport().rect().topLeft()).position()
    assert abs(top - text_b.index("Signed")) < 80
    # Open and Show in folder go to the desktop
    opened = []
    monkeypatch.setattr(compare_view, "open_url", lambda url: opened.append(url.toLocalFile()) or True)
    view.header_a.open_button.click()
    view.header_b.folder_button.click()
    assert opened == ["/archive/box/minutes.txt", "/archive/box"]


def test_a_new_pair_replaces_a_slower_old_one(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    texts = {1: "alpha beta", 2: "alpha gamma", 3: "one two", 4: "one three"}
    view.show_pair(doc(1, "a"), doc(2, "b"), texts.get)
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.show_pair(doc(3, "c"), doc(4, "d"), texts.get)
    qtbot.waitUntil(lambda: not view.busy(), timeout=5000)
    assert view.text_a.toPlainText() == "one two"
    # no tint is carried over from one pair to the next: shared words stay plain
    texts.update({5: "changed everything here", 6: "nothing alike at all", 7: "same words then", 8: "same words now"})
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.show_pair(doc(5, "e"), doc(6, "f"), texts.get)
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.show_pair(doc(7, "g"), doc(8, "h"), texts.get)
    assert _background_at(view.text_a, 0) != LEFT_COLOUR
    assert _background_at(view.text_b, 0) != RIGHT_COLOUR
    assert _background_at(view.text_b, len("same words n")) == RIGHT_COLOUR


def test_a_side_without_text_says_why(qtbot):
    view = CompareView()
    qtbot.addWidget(view)
    why = {2: "its text is read from /archive/box/b.txt, and the file is no longer there: rescan to read it again"}
    with qtbot.waitSignal(view.loaded, timeout=10000):
        view.show_pair(doc(1, "a.txt"), doc(2, "b.txt"), {1: "The minutes of the board."}.get, why.get)
    assert view.text_a.toPlainText() == "The minutes of the board."
    assert view.text_b.toPlainText() == ""
    assert "Right: no text, its text is read from /archive/box/b.txt, and the file is no longer there" \
        in view.summary.text()
    assert "Left:" not in view.summary.text()


def test_a_share_short_of_whole_never_reads_100_percent():
    """"100% of words shared · 2 differing passages" contradicted itself (0.996 rounded)."""
    from ndd_desktop.gui.compare_view import shared_percent

    assert [shared_percent(x) for x in (1.0, 0.996, 0.9996, 0.5, 0.004, 0.0)] == [
        "100%", "99.6%", "99.9%", "50%", "<1%", "0%"]
