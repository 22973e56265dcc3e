"""Spreadsheets (XLSX, XLS, ODS) through python-calamine.

Every sheet, in workbook order, becomes a block: its name on a line of its own, then one
line per row with the cells separated by tabs (empty rows and trailing empty cells left
out), and a blank line between sheets. Numbers that are whole print without ``.0``;
dates print in ISO form. XLSX and ODS packages get the ZIP and DTD checks of every
office package before calamine reads them.

calamine holds a sheet's used range as one dense block, so an XLSX sheet with a cell in
A1 and another in XFD1048576 would ask for hundreds of gigabytes (and abort the process,
not raise): the cell references of every XLSX sheet are measured first and a sheet
spanning more than ``MAX_CELLS`` is refused.

A formula's value is what the program that saved the file computed and stored with it.
Programs that write workbooks without computing them (openpyxl, pandas, many exports)
store the formula alone, and calamine reads such a cell as empty: two budgets whose
figures differ only in their formulas' inputs read as one text. Those formulas are read in
their place, after the sheets ("B2 =100*12"), with a note saying how many had no value.
"""

from __future__ import annotations

import datetime
import io
import re

from python_calamine import CalamineWorkbook

from ndd_desktop.ingest.detect import OLE_MAGIC
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.formats.package import Package

MAX_CELLS = 30_000_000  # calamine keeps about 32 bytes a cell: 1 GB
_WORKSHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$")
_CELL_REF = re.compile(rb'\sr="([A-Z]{1,3})([0-9]{1,7})"')


def extract(data: bytes, ctx: Context) -> Extraction:
    """The cells of every sheet, row by row."""
    what = "XLS" if data.startswith(OLE_MAGIC) else "ODS" if b"opendocument.spreadsheet" in data[:200] else "XLSX"
    unsaved: list[str] = []  # formulas stored without their value
    if what != "XLS":
        with Package(data, ctx, what) as package:
            if what == "XLSX":
                for name in sorted(package.names(), key=_part_order):
                    if _WORKSHEET.match(name):
                        part = package.read(name)
                        _check_span(part, name)
                        unsaved += [f"{ref.decode()}\t={_unescape(formula)}" for ref, formula in _UNSAVED.findall(part)]
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except Exception as exc:  # calamine raises its own types (CalamineError, PasswordError, ...)
        raise _failure(what, exc) from None
    blocks: list[str] = []
    total = 0
    try:
        for name in book.sheet_names:
            lines = [name]
            for row in book.get_sheet_by_name(name).iter_rows():
                cells = [_cell(value) for value in row]
                while cells and not cells[-1]:
                    cells.pop()
                if cells:
                    line = "\t".join(cells)
                    lines.append(line)
                    total += len(line) + 1
                    if total > ctx.limits.max_text_chars:
                        break
            blocks.append("\n".join(lines))
            if total > ctx.limits.max_text_chars:
                break
    except Exception as exc:
        raise _failure(what, exc) from None
    finally:
        getattr(book, "close", lambda: None)()
    notes = []
    if unsaved:
        blocks.append("\n".join(unsaved))
        total += sum(len(line) + 1 for line in unsaved)
        notes.append(f"{len(unsaved):,} formula cell{'s' if len(unsaved) != 1 else ''} stored without a value (the "
                     "program that wrote the file did not compute them): their formulas are read in their place")
    if total == 0:
        return Extraction(text="")  # sheet names alone are no document
    return Extraction(text="\n\n".join(blocks), notes=notes)


# a cell whose formula has no stored value: <c r="B5" ...><f>SUM(B2:B4)</f></c> (or an
# empty <v/>); a shared formula's <f .../> without text is left alone
_UNSAVED = re.compile(rb'<c r="([A-Z]{1,3}[0-9]{1,7})"[^>]*>\s*<f(?:\s[^>]*)?>([^<]+)</f>\s*(?:<v\s*/>|<v>\s*</v>)?\s*</c>')
_SHEET_NUMBER = re.compile(r"(\d+)\.xml$")


def _part_order(name: str) -> tuple[int, str]:
    """Worksheet parts in their numbers' order (sheet2 before sheet10)."""
    found = _SHEET_NUMBER.search(name)
    return (int(found.group(1)) if found else 0, name)


def _unescape(formula: bytes) -> str:
    return formula.decode("utf-8", "replace").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') \
        .replace("&apos;", "'").replace("&amp;", "&")


def _check_span(part: bytes, name: str) -> None:
    """Skip the workbook when one sheet's cells span more than MAX_CELLS."""
    rows: list[int] = []
    cols: list[int] = []
    for letters, digits in _CELL_REF.findall(part):
        col = 0
        for ch in letters:
            col = col * 26 + ch - 64
        cols.append(col)
        rows.append(int(digits))
    if rows:
        span = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
        if span > MAX_CELLS:
            raise Skip(f"spreadsheet too large: {name} spans {span:,} cells (limit {MAX_CELLS:,})")


def _cell(value) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value)
    return " ".join(str(value).split()) if "\n" in str(value) else str(value)


def _failure(what: str, exc: Exception) -> Exception:
    text = str(exc) or type(exc).__name__
    if "password" in text.lower() or "encrypt" in text.lower() or "Password" in type(exc).__name__:
        return Skip("encrypted: no password")
    text = text if len(text) <= 160 else text[:157] + "..."
    return Fail(f"corrupt {what}: {type(exc).__name__}: {text}")
