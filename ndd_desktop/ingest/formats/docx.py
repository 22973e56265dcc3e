"""Word DOCX: the main document part streamed with lxml, after the zip-bomb and DTD checks.

The package is opened once and checked like every office package (entry count, declared
expanded size, ratio, one budget per file on disk); the parts the reader parses (the
package relationships, the main document part, the core properties) are refused when they
declare a DTD or entities. The main part is the one ``_rels/.rels`` names
(``word/document.xml`` in practice) and is streamed through ``iterparse``, so a long
document is never held as a whole tree; no object model is built (python-docx took about
25 ms per file just to open its package).

Every paragraph (``w:p``) becomes one line, in document order: body, tables, and text
boxes (a text box's paragraphs follow the paragraph that anchors it). The copy of a text
box kept for old readers inside ``mc:Fallback`` is left out so it is not read twice. A
paragraph's text is the text of its runs (``w:t``; ``w:tab`` and ``w:ptab`` a tab, a
text-wrapping ``w:br`` and ``w:cr`` a line break, ``w:noBreakHyphen`` a hyphen), including
runs inside hyperlinks, content controls, smart tags, simple fields and tracked
insertions; tracked deletions (``w:delText``, ``w:moveFrom``) and field codes are not text.
Documents saved as "Strict Open XML" (another namespace for the same elements) are read
alike. The document date is the core properties' creation date.
"""

from __future__ import annotations

import posixpath

from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail
from ndd_desktop.ingest.formats.package import Package, core_created, drop_done, iterparse, parse
from ndd_desktop.ingest.formats.package import to_epoch  # noqa: F401  (other readers import it from here)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"  # "Strict Open XML Document"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_MAIN_TYPE = "/officeDocument"  # transitional and strict relationship types both end so
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _tags(*names: str) -> frozenset[str]:
    return frozenset(f"{{{ns}}}{name}" for ns in (W, W_STRICT) for name in names)


_P, _R, _T, _BR = _tags("p"), _tags("r"), _tags("t"), _tags("br")
_BR_TYPES = (f"{{{W}}}type", f"{{{W_STRICT}}}type")
#: run children that stand for a character (``w:br`` depends on its type, see ``_run_text``)
_CHARS = {tag: char for names, char in ((("tab", "ptab"), "\t"), (("cr",), "\n"), (("noBreakHyphen",), "-"))
          for tag in _tags(*names)}
#: inline wrappers whose runs are part of the paragraph's text
_WRAPPERS = _tags("hyperlink", "ins", "moveTo", "smartTag", "sdt", "sdtContent", "fldSimple", "customXml", "dir",
                  "bdo")


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text and creation date of a DOCX file."""
    with Package(data, ctx, "DOCX", check="read") as package:
        part = main_part(package)
        lines = paragraphs(package.read(part), part, ctx.limits.max_text_chars)
        date = core_created(package)
    return Extraction(text="\n".join(lines), date=date)


def main_part(package: Package) -> str:
    """Name of the main document part: the target of the package's officeDocument
    relationship, else (no relationships, or broken ones) ``word/document.xml``."""
    if package.has("_rels/.rels"):
        data = package.read("_rels/.rels")  # a DTD there is refused, as in every part read
        try:
            rels = parse(data, "DOCX", "_rels/.rels")
        except Fail:  # not well-formed: the usual name may still hold the text
            return "word/document.xml"
        for rel in rels.iter(f"{{{REL}}}Relationship"):
            if rel.get("Type", "").endswith(_MAIN_TYPE):
                target = rel.get("Target", "").lstrip("/")
                name = posixpath.normpath(target) if target else ""
                if package.has(name):
                    return name
    return "word/document.xml"


def paragraphs(xml: bytes, part: str, max_chars: int) -> list[str]:
    """The lines of a WordprocessingML part, one per paragraph in document order, up to
    about ``max_chars`` characters."""
    lines: list[str | None] = []
    open_slots: list[int] = []  # the line index of each paragraph being parsed (-1: skipped)
    in_fallback = 0
    total = 0
    try:
        for event, elem in iterparse(xml, events=("start", "end"), tag=(*_P, _FALLBACK)):
            if elem.tag == _FALLBACK:
                in_fallback += 1 if event == "start" else -1
                continue
            if event == "start":
                # the slot is taken at the start tag, so a text box's paragraphs (which
                # end first) still follow the paragraph that holds them
                open_slots.append(-1 if in_fallback else len(lines))
                if not in_fallback:
                    lines.append(None)
                continue
            slot = open_slots.pop()
            if slot >= 0:
                line = paragraph_text(elem)
                lines[slot] = line
                total += len(line) + 1
            if not open_slots:
                drop_done(elem)  # an outermost paragraph and everything in it is read
            if total > max_chars:
                break
    except etree.XMLSyntaxError as exc:
        raise Fail(f"corrupt DOCX: {part}: {exc}") from None
    return [line for line in lines if line is not None]


def paragraph_text(p: etree._Element) -> str:
    """The text of one paragraph's runs (paragraphs nested in text boxes are not part of it)."""
    out: list[str] = []
    _collect(p, out)
    return "".join(out)


def _collect(elem: etree._Element, out: list[str]) -> None:
    for child in elem:
        tag = child.tag
        if tag in _R:
            _run_text(child, out)
        elif tag in _WRAPPERS:
            _collect(child, out)  # lxml limits nesting to 256 levels, well under Python's


def _run_text(run: etree._Element, out: list[str]) -> None:
    for node in run:
        tag = node.tag
        if tag in _T:
            if node.text:
                out.append(node.text)
        elif tag in _BR:
            kind = node.get(_BR_TYPES[0]) or node.get(_BR_TYPES[1]) or "textWrapping"
            if kind == "textWrapping":  # page and column breaks are no text
                out.append("\n")
        else:
            char = _CHARS.get(tag)
            if char:
                out.append(char)
