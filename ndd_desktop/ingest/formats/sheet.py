"""Spreadsheets (XLSX, XLS, ODS) through python-calamine.

Every sheet, in workbook order, becomes a block: its name on a line of its own, then one
line per row with the cells separated by tabs (empty rows and trailing empty cells left
out), and a blank line between sheets. Numbers that are whole print without ``.0``;
dates print in ISO form. XLSX and ODS packages get the ZIP and DTD checks of every
office package before calamine reads them.
"""

from __future__ import annotations

import datetime
import io

from python_calamine import CalamineWorkbook

from ndd_desktop.ingest.detect import OLE_MAGIC
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.formats.package import Package


def extract(data: bytes, ctx: Context) -> Extraction:
    """The cells of every sheet, row by row."""
    what = "XLS" if data.startswith(OLE_MAGIC) else "ODS" if b"opendocument.spreadsheet" in data[:200] else "XLSX"
    if what != "XLS":
        with Package(data, ctx, what):
            pass  # the checks only; calamine reads the package itself
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
    if total == 0:
        return Extraction(text="")  # sheet names alone are no document
    return Extraction(text="\n\n".join(blocks))


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
