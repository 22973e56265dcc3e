"""Where a character offset of a stored text lies, in words a reader can find it by.

The place follows how ingest wrote the text (docs/ingest.md):

* **PDF**: pages are separated by a form feed (``"\\f"``); text stored before the reader
  wrote form feeds has none, and its places are paragraphs instead.
* **Spreadsheets** (XLSX, XLS, ODS): one block per sheet separated by a blank line, the
  sheet's name on the block's first line, then one line per row that holds anything (empty
  rows are left out, so "row 3" is the third row with content).
* **Everything else**: paragraphs, the blocks separated by blank lines; a text without
  blank lines counts each line as a paragraph.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

SHEET_FORMATS = frozenset({"xlsx", "xls", "ods", "xlsm", "xlsb"})
_BLANK = re.compile(r"\n[ \t\r]*\n\s*|\s*\f\s*")  # a page break ends a paragraph too


@dataclass(frozen=True)
class Place:
    """A place in a document: ``unit`` page, paragraph or row; ``number`` from 1; ``sheet``
    for spreadsheet rows."""

    unit: str
    number: int
    sheet: str | None = None

    def label(self) -> str:
        """"p. 3", "¶ 12" or "Sheet1 row 4"."""
        if self.unit == "page":
            return f"p. {self.number}"
        if self.unit == "row":
            return f"{self.sheet} row {self.number}"
        return f"¶ {self.number}"


def span_label(first: Place, last: Place) -> str:
    """One label for a passage from ``first`` to ``last``: "p. 2–3", "¶ 4", "Sheet1 rows 2–9"."""
    if first == last:
        return first.label()
    if first.unit == last.unit and first.sheet == last.sheet:
        if first.unit == "page":
            return f"pp. {first.number}–{last.number}"
        if first.unit == "row":
            return f"{first.sheet} rows {first.number}–{last.number}"
        return f"¶ {first.number}–{last.number}"
    return f"{first.label()} – {last.label()}"


class Places:
    """Maps character offsets of one stored text to :class:`Place` values."""

    def __init__(self, text: str, fmt: str | None = None):
        fmt = (fmt or "").lower().lstrip(".")
        self._sheets: list[str] = []
        if fmt == "pdf" and "\f" in text:
            self.unit = "page"
            self._starts = [0] + [m.end() for m in re.finditer("\f", text)]
        elif fmt in SHEET_FORMATS:
            self.unit = "row"
            self._starts, self._rows = [], []
            self._sheet_of: list[int] = []
            for block in _blocks(text, _BLANK):
                start, body = block
                lines = body.split("\n")
                self._sheets.append(lines[0])
                pos = start + len(lines[0]) + 1
                self._starts.append(start)  # the name line counts as row 0
                self._rows.append(0)
                self._sheet_of.append(len(self._sheets) - 1)
                for n, line in enumerate(lines[1:], start=1):
                    self._starts.append(pos)
                    self._rows.append(n)
                    self._sheet_of.append(len(self._sheets) - 1)
                    pos += len(line) + 1
        else:
            self.unit = "paragraph"
            pattern = _BLANK if _BLANK.search(text) else re.compile(r"\n\s*")
            self._starts = [start for start, _ in _blocks(text, pattern)] or [0]

    def at(self, offset: int) -> Place:
        """The place of character ``offset``."""
        k = max(bisect.bisect_right(self._starts, offset) - 1, 0)
        if self.unit == "row":
            return Place("row", max(self._rows[k], 1), self._sheets[self._sheet_of[k]])
        return Place(self.unit, k + 1)

    def span(self, start: int, end: int) -> str:
        """The label of characters ``[start, end)``."""
        return span_label(self.at(start), self.at(max(start, end - 1)))


def _blocks(text: str, separator: re.Pattern) -> list[tuple[int, str]]:
    """The blocks of ``text`` between separators, with where each starts."""
    out, pos = [], 0
    for m in separator.finditer(text):
        if m.start() > pos:
            out.append((pos, text[pos:m.start()]))
        pos = m.end()
    if pos < len(text) or not out:
        out.append((pos, text[pos:]))
    return out
