"""Vendored copy of ndd_desktop/ingest/formats/docx.py as of commit 6569fce (before issue 19
item 4), kept only so ``benchmarks/bench_ingest.py --compare`` can run the old reader.

Word DOCX through python-docx, after the zip-bomb and DTD checks.

Every paragraph of the body (including table cells and text boxes) becomes one line, in
document order; the Fallback copy of text boxes is left out so it is not read twice.
The document date is the core properties' creation date.
"""

from __future__ import annotations

import io
from datetime import datetime, timezone

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph
from lxml.etree import LxmlError

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.xml import refuse_dtd
from ndd_desktop.ingest.formats.zip import check_archive, open_zip, read_member

_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text and creation date of a DOCX file."""
    check_package(data, ctx, "DOCX")
    try:
        document = docx.Document(io.BytesIO(data))
        lines: list[str] = []
        total = 0
        for p in document.element.body.iter(qn("w:p")):
            if next(p.iterancestors(_FALLBACK), None) is not None:
                continue
            line = Paragraph(p, document).text
            lines.append(line)
            total += len(line) + 1
            if total > ctx.limits.max_text_chars:
                break
        date = to_epoch(document.core_properties.created)
    except (PackageNotFoundError, KeyError, ValueError, LxmlError, AttributeError) as exc:
        raise Fail(f"corrupt DOCX: {type(exc).__name__}: {exc}") from None
    return Extraction(text="\n".join(lines), date=date)


def check_package(data: bytes, ctx: Context, what: str) -> None:
    """Zip-bomb checks on the package, then refuse any XML part that declares a DTD."""
    zf = open_zip(data, what)
    with zf:
        for info in check_archive(zf, ctx):
            name = info.filename.lower()
            if name.endswith((".xml", ".rels")):
                refuse_dtd(read_member(zf, info), info.filename)


def to_epoch(value: datetime | None) -> float | None:
    """A datetime as epoch seconds; naive values are taken as UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    try:
        return value.timestamp()
    except (OverflowError, OSError, ValueError):
        return None
