"""EPUB books: the spine's XHTML documents in reading order, through the HTML reader.

``META-INF/container.xml`` names the package document (OPF); its manifest maps ids to
files and its spine gives the reading order. Each spine document's visible text comes
from :func:`ndd_desktop.ingest.formats.html.html_to_text`; the chapters are joined by
line breaks. The package gets the ZIP checks (entry count, expanded size, ratio) and its
XML parts the DTD check of every office package. The date is the OPF's ``dc:date``
when it is a full ISO date.
"""

from __future__ import annotations

import posixpath
from datetime import datetime
from urllib.parse import unquote

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.docx import to_epoch
from ndd_desktop.ingest.formats.html import html_to_text
from ndd_desktop.ingest.formats.package import Package, parse

CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
OPF = "http://www.idpf.org/2007/opf"
DC = "http://purl.org/dc/elements/1.1/"
_READABLE = ("application/xhtml+xml", "text/html", "application/xml", "text/x-oeb1-document")


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text of the book in spine order, and its date."""
    with Package(data, ctx, "EPUB") as package:
        container = parse(package.read("META-INF/container.xml"), "EPUB", "META-INF/container.xml")
        rootfile = container.find(f".//{{{CONTAINER}}}rootfile")
        opf_path = rootfile.get("full-path", "") if rootfile is not None else ""
        if not opf_path:
            raise Fail("corrupt EPUB: container.xml names no package document")
        opf = parse(package.read(opf_path), "EPUB", opf_path)
        base = posixpath.dirname(opf_path)
        manifest = {
            item.get("id"): (item.get("href", ""), item.get("media-type", ""))
            for item in opf.iter(f"{{{OPF}}}item")
        }
        parts: list[str] = []
        total = 0
        for ref in opf.iter(f"{{{OPF}}}itemref"):
            href, media = manifest.get(ref.get("idref"), ("", ""))
            if not href or media not in _READABLE:
                continue
            name = posixpath.normpath(posixpath.join(base, unquote(href.split("#", 1)[0])))
            if not package.has(name):
                continue
            text = html_to_text(package.read(name))
            if text:
                parts.append(text)
                total += len(text) + 1
            if total > ctx.limits.max_text_chars:
                break
    return Extraction(text="\n".join(parts), date=_date(opf))


def _date(opf) -> float | None:
    found = opf.find(f".//{{{DC}}}date")
    value = (found.text or "").strip() if found is not None else ""
    if len(value) < 10:  # a bare year is no date of the document to rely on
        return None
    try:
        return to_epoch(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return None
