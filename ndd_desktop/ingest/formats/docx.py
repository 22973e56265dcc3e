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

After the body come the parts Word keeps beside it, each after a blank line, in this order:
footnotes, endnotes, comments, headers, footers (``SIDE_PARTS``). Two versions of a report
that differ only in the sources their footnotes cite are two texts, as their ODT copies
(whose notes are paragraphs of ``content.xml``) always were. Notes come first because they
belong to the body's paragraphs; headers and footers, the same on every letter of an
office, last. They are the parts the main part's relationships name (else the usual names
beside it: ``footnotes.xml``, ``header1.xml``, ...), read one line per paragraph like the
body with the mark's tab or space trimmed and empty paragraphs left out; the separator
notes Word keeps in the notes parts (any ``w:type`` but "normal") are no text, and a header
or footer text is kept once however many sections repeat it. They pass the same checks
and budget as the main part (a DTD refuses the document, as in every part read); one that
cannot be read or is not well-formed only costs its own text, with a note.
"""

from __future__ import annotations

import posixpath
import re

from lxml import etree

from ndd_desktop.ingest.formats.base import RUNNING_PARTS, SIDE_PARTS, Context, Extraction, Fail
from ndd_desktop.ingest.formats.package import (
    Package, core_created, drop_done, iterparse, parse, rels_part, target_part,
)
from ndd_desktop.ingest.formats.package import to_epoch  # noqa: F401  (other readers import it from here)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"  # "Strict Open XML Document"
REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_MAIN_TYPE = "/officeDocument"  # transitional and strict relationship types both end so
_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"


def _tags(*names: str) -> frozenset[str]:
    return frozenset(f"{{{ns}}}{name}" for ns in (W, W_STRICT) for name in names)


_P, _R, _T, _BR = _tags("p"), _tags("r"), _tags("t"), _tags("br")
_TYPES = (f"{{{W}}}type", f"{{{W_STRICT}}}type")  # of a break, of a note
#: the items of the notes and comments parts (only the notes have a ``w:type``)
_NOTES = _tags("footnote", "endnote", "comment")
#: run children that stand for a character (``w:br`` depends on its type, see ``_run_text``)
_CHARS = {tag: char for names, char in ((("tab", "ptab"), "\t"), (("cr",), "\n"), (("noBreakHyphen",), "-"))
          for tag in _tags(*names)}
#: inline wrappers whose runs are part of the paragraph's text
_WRAPPERS = _tags("hyperlink", "ins", "moveTo", "smartTag", "sdt", "sdtContent", "fldSimple", "customXml", "dir",
                  "bdo")


# The parts whose text follows the body's (``base.SIDE_PARTS``) are named so by the last
# segment of their relationship type (transitional and strict types both end so).
#: a side part by its usual name, when the relationships do not say (``header2.xml``)
_USUAL_NAME = re.compile(r"(footnotes|endnotes|comments|header|footer)\d*\.xml")
_NUMBER = re.compile(r"(\d+)\.xml$")
_REFUSED = "refused:"  # how refuse_dtd's reasons begin


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text and creation date of a DOCX file."""
    max_chars = ctx.limits.max_text_chars
    notes: list[str] = []
    with Package(data, ctx, "DOCX", check="read") as package:
        part = main_part(package)
        blocks = ["\n".join(paragraphs(package.read(part), part, max_chars))]
        blocks += side_texts(package, part, max_chars - len(blocks[0]), notes)
        date = core_created(package)
    return Extraction(text="\n\n".join(block for block in blocks if block), date=date, notes=notes)


def main_part(package: Package) -> str:
    """Name of the main document part: the target of the package's officeDocument
    relationship, else (no relationships, or broken ones) ``word/document.xml``."""
    rels = _relationships(package, "_rels/.rels")
    if rels is not None:
        for rel in rels.iter(f"{{{REL}}}Relationship"):
            if rel.get("Type", "").endswith(_MAIN_TYPE):
                target = rel.get("Target", "")
                name = target_part("", target) if target else ""
                if package.has(name):
                    return name
    return "word/document.xml"


def side_parts(package: Package, main: str) -> dict[str, list[str]]:
    """The parts of each kind of ``SIDE_PARTS`` (headers and footers by their numbers): the
    targets of the main part's relationships, else (none, or not well-formed) the parts of
    the usual names in the main part's folder."""
    folder = posixpath.dirname(main)
    found: dict[str, list[str]] = {kind: [] for kind in SIDE_PARTS}
    rels = _relationships(package, rels_part(main))
    if rels is not None:
        for rel in rels.iter(f"{{{REL}}}Relationship"):
            kind = rel.get("Type", "").rsplit("/", 1)[-1]
            target = rel.get("Target", "")
            if kind not in found or not target or rel.get("TargetMode") == "External":
                continue
            name = target_part(main, target)
            if package.has(name) and name not in found[kind]:
                found[kind].append(name)
    else:
        for name in package.names():
            usual = _USUAL_NAME.fullmatch(posixpath.basename(name))
            if usual and posixpath.dirname(name) == folder:
                found[usual.group(1)].append(name)
    for names in found.values():
        names.sort(key=_part_order)
    return found


def _part_order(name: str) -> tuple[int, str]:
    """``header2.xml`` before ``header10.xml``: the order Word numbers them in."""
    number = _NUMBER.search(name)
    return (int(number.group(1)) if number else 0, name)


def _relationships(package: Package, name: str) -> etree._Element | None:
    """A relationships part as a tree; None when missing or not well-formed (the usual
    names may still hold the text). A DTD in it refuses the document, as in every part
    read (``Package.read``)."""
    if not package.has(name):
        return None
    data = package.read(name)
    try:
        return parse(data, "DOCX", name)
    except Fail:
        return None


def side_texts(package: Package, main: str, max_chars: int, notes: list[str]) -> list[str]:
    """The text of each kind of side part that has one, in the order of ``SIDE_PARTS``,
    up to about ``max_chars`` characters in all; a part that cannot be read or parsed adds
    a note to ``notes`` and no text."""
    blocks: list[str] = []
    seen_running: set[str] = set()
    for kind, names in side_parts(package, main).items():
        lines: list[str] = []
        for name in names:
            if max_chars <= 0:
                break
            try:
                read = paragraphs(package.read(name), name, max_chars, trim=True)
            except Fail as exc:
                if str(exc).startswith(_REFUSED):  # hostile, not broken: as in the main part
                    raise
                notes.append(f"{kind} not read ({exc})")
                continue
            text = "\n".join(read)
            if kind in RUNNING_PARTS:  # the same header on every section is read once
                if text in seen_running:
                    continue
                seen_running.add(text)
            lines += read
            max_chars -= len(text) + 1
        if lines:
            blocks.append("\n".join(lines))
    return blocks


def paragraphs(xml: bytes, part: str, max_chars: int, *, trim: bool = False) -> list[str]:
    """The lines of a WordprocessingML part, one per paragraph in document order, up to
    about ``max_chars`` characters; in a notes part, the separators' paragraphs are left
    out. ``trim``: each line without the white space around it (a note's mark is followed by
    a tab or a space) and empty ones left out, before they are counted, so that a part cut
    at the limit comes out longer than it and is noted as truncated."""
    lines: list[str | None] = []
    open_slots: list[int] = []  # the line index of each paragraph being parsed (-1: skipped)
    left_out = 0  # inside an mc:Fallback copy or a separator note
    total = 0
    try:
        for event, elem in iterparse(xml, events=("start", "end"), tag=(*_P, _FALLBACK, *_NOTES)):
            if elem.tag not in _P:
                skipped = elem.tag == _FALLBACK or _separator(elem)
                if event == "start":
                    left_out += skipped
                    continue
                left_out -= skipped
                if elem.tag in _NOTES and not open_slots:
                    drop_done(elem)  # a note and its paragraphs are read
                continue
            if event == "start":
                # the slot is taken at the start tag, so a text box's paragraphs (which
                # end first) still follow the paragraph that holds them
                open_slots.append(-1 if left_out else len(lines))
                if not left_out:
                    lines.append(None)
                continue
            slot = open_slots.pop()
            if slot >= 0:
                line = paragraph_text(elem)
                if trim:
                    line = line.strip()
                if line or not trim:  # else the slot stays empty and is left out
                    lines[slot] = line
                    total += len(line) + 1
            if not open_slots:
                drop_done(elem)  # an outermost paragraph and everything in it is read
            if total > max_chars:
                break
    except etree.XMLSyntaxError as exc:
        raise Fail(f"corrupt DOCX: {part}: {exc}") from None
    return [line for line in lines if line is not None]


def _separator(elem: etree._Element) -> bool:
    """True for a note that is no text: the separator lines and continuation notices Word
    keeps in the notes parts (``w:type`` other than "normal"); False for anything else."""
    return elem.tag in _NOTES and (elem.get(_TYPES[0]) or elem.get(_TYPES[1]) or "normal") != "normal"


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
            kind = node.get(_TYPES[0]) or node.get(_TYPES[1]) or "textWrapping"
            if kind == "textWrapping":  # page and column breaks are no text
                out.append("\n")
        else:
            char = _CHARS.get(tag)
            if char:
                out.append(char)
