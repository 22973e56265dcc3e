"""The Threads tab: threads as a tree after a scan, inclusive messages marked."""

from __future__ import annotations

from gui_helpers import scan
from mail_files import quote, write_message

A = ("The committee meets on Friday in the library to agree the budget for the new reading room "
     "and the repairs to the roof above the archive store.")
B = "Friday is fine. I will bring the estimate from the roofer and the figures for the shelving."


def test_threads_tab_shows_the_tree(qtbot, window, tmp_path):
    root = tmp_path / "mail"
    root.mkdir()
    write_message(root / "a.eml", sender="Ann <ann@x.org>", subject="Budget", mid="a@x.org",
                  date="Mon, 03 Jan 2022 10:00:00 +0000", body=A)
    write_message(root / "b.eml", sender="Bo <bo@x.org>", subject="Re: Budget", mid="b@x.org", in_reply_to="a@x.org",
                  date="Mon, 03 Jan 2022 11:00:00 +0000", body=f"{B}\n\nOn Mon, 3 Jan 2022, Ann wrote:\n{quote(A)}")
    (root / "note.txt").write_text("not a message at all, just a note about the archive and its roof")
    window.open_folder(str(root))
    scan(qtbot, window)
    view = window.threads_view
    with qtbot.waitSignal(view.loaded, timeout=20000) as blocker:
        window.tabs.setCurrentWidget(view)
    assert blocker.args == [1]
    top = view.tree.topLevelItem(0)
    assert top.text(0) == "Budget" and top.text(1) == "1 of 2"
    first = top.child(0)
    assert (first.text(4), first.text(1)) == ("a.eml", "no")
    reply = first.child(0)
    assert (reply.text(4), reply.text(1)) == ("b.eml", "yes")
    assert "b.eml" in first.toolTip(1)
