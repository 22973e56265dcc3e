"""PowerPoint PPTX: the slides' text in presentation order, streamed with lxml.

The order comes from ``ppt/presentation.xml`` (its slide list) through the package
relationships; a package whose list cannot be followed falls back to the slide numbers
in the part names. Each paragraph (``a:p``) of a slide becomes one line, ``a:br`` a line
break inside it; tables and grouped shapes are included, speaker notes are not. The
package gets the ZIP and DTD checks of every office package. The date is the core
properties' creation date.
"""

from __future__ import annotations

import posixpath
import re

from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.package import Package, core_created, drop_done, iterparse, parse

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_PARA, _TEXT, _BREAK = f"{{{A}}}p", f"{{{A}}}t", f"{{{A}}}br"
_SLIDE_PART = re.compile(r"^ppt/slides/slide(\d+)\.xml$")


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text of every slide, in order, and the creation date."""
    lines: list[str] = []
    total = 0
    with Package(data, ctx, "PPTX") as package:
        for part in slide_parts(package):
            try:
                for _, para in iterparse(package.read(part), tag=_PARA):
                    line = "".join(_runs(para))
                    lines.append(line)
                    total += len(line) + 1
                    drop_done(para)
                    if total > ctx.limits.max_text_chars:
                        break
            except etree.XMLSyntaxError as exc:
                raise Fail(f"corrupt PPTX: {part}: {exc}") from None
            if total > ctx.limits.max_text_chars:
                break
        date = core_created(package)
    return Extraction(text="\n".join(lines), date=date)


def slide_parts(package: Package) -> list[str]:
    """Names of the slide parts in presentation order."""
    try:
        pres = parse(package.read("ppt/presentation.xml"), "PPTX", "ppt/presentation.xml")
        rels = parse(package.read("ppt/_rels/presentation.xml.rels"), "PPTX", "presentation relationships")
        targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{{{REL}}}Relationship")}
        parts = []
        for sld in pres.iter(f"{{{P}}}sldId"):
            target = targets.get(sld.get(f"{{{R}}}id"), "")
            name = posixpath.normpath(posixpath.join("ppt", target)) if not target.startswith("/") else target[1:]
            if package.has(name) and name not in parts:
                parts.append(name)
        if parts:
            return parts
    except Fail:
        pass
    numbered = [(int(m.group(1)), n) for n in package.names() if (m := _SLIDE_PART.match(n))]
    return [n for _, n in sorted(numbered)]


def _runs(para: etree._Element):
    for node in para.iter(_TEXT, _BREAK):
        yield "\n" if node.tag == _BREAK else (node.text or "")
