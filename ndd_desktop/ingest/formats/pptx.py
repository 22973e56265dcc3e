"""PowerPoint PPTX: the slides' text in presentation order, streamed with lxml.

The order comes from ``ppt/presentation.xml`` (its slide list) through the package
relationships; a package whose list cannot be followed falls back to the slide numbers
in the part names. Each paragraph (``a:p``) of a slide becomes one line, ``a:br`` a line
break inside it; tables and grouped shapes are included. The speaker notes follow the
slides, each slide's in turn, as the notes, comments, headers and footers of a DOCX follow
its body: without them, two decks that differ only in their notes were one text, and a
deck did not pair with its own ODP (whose notes the OpenDocument reader reads). A notes
page's placeholders for the slide's picture, number, date, header and footer are left
out. The package gets the ZIP and DTD checks of every office package. The date is the
core properties' creation date.
"""

from __future__ import annotations

import re

from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.package import (
    Package, core_created, drop_done, iterparse, parse, rels_part, target_part,
)

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
        parts = slide_parts(package)
        for part in parts:
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
        notes: list[str] = []
        if total <= ctx.limits.max_text_chars:
            for part in parts:
                notes += notes_lines(package, part)
        date = core_created(package)
    text = "\n".join(lines)
    if any(line.strip() for line in notes):
        text += "\n\n" + "\n".join(notes)
    return Extraction(text=text, date=date)


#: Placeholders of a notes page that hold no note: the slide's picture, its number, the
#: date, header and footer.
_NOT_NOTES = {"sldImg", "sldNum", "dt", "hdr", "ftr"}
_NOTES_REL = "/notesSlide"


def notes_lines(package: Package, slide: str) -> list[str]:
    """The speaker notes of the slide part ``slide``, one line per paragraph ([] when it
    has none, or when its notes part cannot be found or read)."""
    rels_name = rels_part(slide)
    if not package.has(rels_name):
        return []
    try:
        rels = parse(package.read(rels_name), "PPTX", rels_name)
        target = next((r.get("Target", "") for r in rels.iter(f"{{{REL}}}Relationship")
                       if r.get("Type", "").endswith(_NOTES_REL)), "")
        if not target:
            return []
        name = target_part(slide, target)
        if not package.has(name):
            return []
        root = parse(package.read(name), "PPTX", name)
    except Fail:  # a broken notes page costs its notes, not the deck
        return []
    out = []
    for shape in root.iter(f"{{{P}}}sp"):
        ph = shape.find(f"{{{P}}}nvSpPr/{{{P}}}nvPr/{{{P}}}ph")
        if ph is not None and ph.get("type") in _NOT_NOTES:
            continue
        out += ["".join(_runs(para)) for para in shape.iter(_PARA)]
    return out


def slide_parts(package: Package) -> list[str]:
    """Names of the slide parts in presentation order."""
    try:
        pres = parse(package.read("ppt/presentation.xml"), "PPTX", "ppt/presentation.xml")
        rels = parse(package.read("ppt/_rels/presentation.xml.rels"), "PPTX", "presentation relationships")
        targets = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{{{REL}}}Relationship")}
        parts = []
        for sld in pres.iter(f"{{{P}}}sldId"):
            target = targets.get(sld.get(f"{{{R}}}id"), "")
            name = target_part("ppt/presentation.xml", target)
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
