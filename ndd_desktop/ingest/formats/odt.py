"""OpenDocument text (ODT) through odfpy, after the zip-bomb and DTD checks.

odfpy parses through defusedxml's SAX parser. Each paragraph and heading becomes one
line, in document order (tables and frames included). The document date is
``meta:creation-date``.
"""

from __future__ import annotations

import io
import zipfile
from datetime import datetime
from xml.sax import SAXException

from odf import meta, teletype
from odf.element import Node
from odf.opendocument import load

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.docx import check_package, to_epoch

TEXTNS = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_LINES = {(TEXTNS, "p"), (TEXTNS, "h")}


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text and creation date of an ODT file."""
    check_package(data, ctx, "ODT")
    try:
        doc = load(io.BytesIO(data))
    except (KeyError, ValueError, SAXException, zipfile.BadZipFile, AttributeError, IndexError) as exc:
        raise Fail(f"corrupt ODT: {type(exc).__name__}: {exc}") from None
    body = getattr(doc, "text", None)
    if body is None:
        raise Fail("corrupt ODT: no text body")
    lines: list[str] = []
    total = 0
    stack = list(reversed(body.childNodes))
    while stack and total <= ctx.limits.max_text_chars:
        node = stack.pop()
        if node.nodeType != Node.ELEMENT_NODE:
            continue
        if node.qname in _LINES:
            line = teletype.extractText(node)
            lines.append(line)
            total += len(line) + 1
        else:
            stack.extend(reversed(node.childNodes))
    return Extraction(text="\n".join(lines), date=_created(doc))


def _created(doc) -> float | None:
    try:
        found = doc.meta.getElementsByType(meta.CreationDate)
        if not found:
            return None
        value = teletype.extractText(found[0]).strip()
        return to_epoch(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except (ValueError, AttributeError, IndexError):
        return None
