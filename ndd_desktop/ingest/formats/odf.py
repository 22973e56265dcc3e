"""OpenDocument text and presentations (ODT, ODP): ``content.xml`` read directly.

The package gets the ZIP and DTD checks of every office package, then ``content.xml`` is
streamed with lxml. No other part is parsed: ``styles.xml`` holds no document text, and
some writers (pandoc) produce one that repeats a namespace attribute, which a strict
parser rejects along with the whole document. Each paragraph and heading becomes one
line, in document order (tables, lists, frames, slides and notes included); ``text:s``,
``text:tab`` and ``text:line-break`` become spaces, a tab and a line break. A
presentation's speaker notes follow its slides, as the PowerPoint reader gives them (the
same deck as PPTX and ODP did not pair when one had its notes inline and the other none),
without the notes page's placeholders for the slide number, date, header and footer
(which read "<number>" on every notes page). The document date is ``meta:creation-date``
from ``meta.xml`` (when that part parses).
"""

from __future__ import annotations

from datetime import datetime

from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.docx import to_epoch
from ndd_desktop.ingest.formats.package import Package, drop_done, iterparse

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
META = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
LINES = (f"{{{TEXT}}}p", f"{{{TEXT}}}h")
_SPACE, _TAB, _BREAK = f"{{{TEXT}}}s", f"{{{TEXT}}}tab", f"{{{TEXT}}}line-break"
_COUNT = f"{{{TEXT}}}c"


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text and creation date of an ODT or ODP file."""
    what = _kind(data)
    with Package(data, ctx, what) as package:
        content = package.read("content.xml")
        meta = package.read("meta.xml") if package.has("meta.xml") else b""
    lines: list[str] = []
    notes: list[str] = []
    slides = what == "ODP"
    total = 0
    try:
        for _, elem in iterparse(content, tag=LINES):
            place = _place(elem) if slides else "body"
            if place != "placeholder":
                line = inline_text(elem)
                (notes if place == "notes" else lines).append(line)
                total += len(line) + 1
            drop_done(elem)
            if total > ctx.limits.max_text_chars:
                break
    except etree.XMLSyntaxError as exc:
        raise Fail(f"corrupt {what}: content.xml: {exc}") from None
    text = "\n".join(lines)
    if any(line.strip() for line in notes):
        text += "\n\n" + "\n".join(notes)
    return Extraction(text=text, date=_created(meta))


_NOTES = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}notes"
_CLASS = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}class"
#: Frames of a slide or notes page that hold no text of the author's.
_PLACEHOLDERS = {"page-number", "date-time", "header", "footer"}


def _place(elem: etree._Element) -> str:
    """Where a paragraph of a presentation lies: "notes", "placeholder" (a page number,
    date, header or footer frame) or "body"."""
    place = "body"
    for up in elem.iterancestors():
        if up.get(_CLASS) in _PLACEHOLDERS:
            return "placeholder"
        if up.tag == _NOTES:
            place = "notes"
    return place


def inline_text(elem: etree._Element) -> str:
    """The characters of one paragraph, nested spans and links included; paragraphs
    nested inside it (text boxes, notes) are lines of their own and left out here."""
    out = [elem.text or ""]
    for child in elem:
        tag = child.tag
        if tag == _SPACE:
            try:
                out.append(" " * max(1, min(int(child.get(_COUNT, "1")), 1000)))
            except ValueError:
                out.append(" ")
        elif tag == _TAB:
            out.append("\t")
        elif tag == _BREAK:
            out.append("\n")
        elif isinstance(tag, str) and tag not in LINES:
            out.append(inline_text(child))  # lxml limits nesting depth (256) without huge_tree
        out.append(child.tail or "")
    return "".join(out)


def _kind(data: bytes) -> str:
    # the "mimetype" member comes first and uncompressed in every ODF package
    return "ODP" if b"opendocument.presentation" in data[:200] else "ODT"


def _created(meta: bytes) -> float | None:
    if not meta:
        return None
    try:
        for _, elem in iterparse(meta, tag=f"{{{META}}}creation-date"):
            value = (elem.text or "").strip()
            return to_epoch(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except (etree.XMLSyntaxError, ValueError):
        return None
    return None
