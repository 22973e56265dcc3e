"""The Errors tab counts failures by reason above the list; a reason narrows the list."""

from __future__ import annotations

from types import SimpleNamespace

from ndd_desktop.gui.errors_panel import ErrorsPanel


def failure(path: str, status: str, reason: str):
    return SimpleNamespace(root="/archive", relpath=path, status=status, reason=reason)


def test_reasons_are_counted_and_narrow_the_list(qtbot):
    panel = ErrorsPanel()
    qtbot.addWidget(panel)
    counts = []
    panel.countChanged.connect(counts.append)
    panel.add([failure(f"man/ls{i}.1.gz", "skipped", "decompression bomb protection: gzip data expands beyond 200:1")
               for i in range(5)])
    panel.add([failure("a.pdf", "error", "corrupt PDF: EOF marker not found"),
               failure("b.pdf", "error", "corrupt PDF: startxref wrong"),
               failure("c.odt", "skipped", "no text (empty document)")])
    assert counts == [5, 8] and panel.count() == 8
    rows = [[panel.reasons.data(panel.reasons.index(r, c)) for c in range(4)] for r in range(panel.reasons.rowCount())]
    assert rows == [["5", "skipped", "decompression bomb protection", ".gz"],
                    ["2", "error", "corrupt PDF", ".pdf"],
                    ["1", "skipped", "no text (empty document)", ".odt"]]
    assert panel.view.model().rowCount() == 8 and panel.shown.text() == "All 8 files"

    panel.choose_reason(1)
    shown = [panel.view.model().index(r, 0).data() for r in range(panel.view.model().rowCount())]
    assert shown == ["/archive/a.pdf", "/archive/b.pdf"]
    assert panel.shown.text() == "2 of 8 files: error: corrupt PDF" and panel.show_all.isEnabled()

    panel.add([failure("d.pdf", "error", "corrupt PDF: no pages")])  # the choice survives new arrivals
    assert panel.view.model().rowCount() == 3 and panel.reasons.data(panel.reasons.index(1, 0)) == "3"

    panel.show_all.click()
    assert panel.view.model().rowCount() == 9 and not panel.show_all.isEnabled()
    panel.clear()
    assert panel.count() == 0 and panel.reasons.rowCount() == 0 and counts[-1] == 0
