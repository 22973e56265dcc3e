"""Generic XML (and SGML): the character data of all elements, through defusedxml.

defusedxml refuses external entities (no file or URL a document points to is ever
read), entity declarations (billion laughs, quadratic blow-up) and external DTDs; such a
refusal stays an error. A document that is merely not well-formed (SGML with unclosed
tags, a truncated export, a stray ``&``) is read as marked-up text instead: tags,
comments and declarations stripped, character references decoded, with a note.
"""

from __future__ import annotations

import html
from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as DET
from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail


LENIENT_NOTE = "not well-formed XML (SGML?): text read with the tags stripped"


class _NotWellFormed(Fail):
    """The XML parser rejected the syntax (not a refusal of a dangerous construct)."""


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text content of an XML document, one line per element that holds text."""
    try:
        root = parse_safely(data)
    except _NotWellFormed:
        from ndd_desktop.ingest.formats.txt import decode_text

        text, notes = decode_text(data, ctx)
        return Extraction(text=markup_text(text), notes=[LENIENT_NOTE, *notes])
    parts: list[str] = []
    total = 0
    for node in root.iter():
        for piece in (node.text, node.tail):
            if piece and piece.strip():
                parts.append(piece.strip())
                total += len(parts[-1])
        if total > ctx.limits.max_text_chars:
            break
    return Extraction(text="\n".join(parts))


def parse_safely(data: bytes):
    """Parse XML bytes with defusedxml; Fail with a clear reason on any refusal."""
    try:
        return DET.fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except ExternalReferenceForbidden:
        raise Fail("refused: XML external entity (the document points to another file or URL)") from None
    except EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise Fail(
                "refused: XML external entity (the document points to another file or URL)"
            ) from None
        raise Fail("refused: XML entity declarations (entity expansion attack?)") from None
    except DTDForbidden:
        raise Fail("refused: XML DTD") from None
    except DefusedXmlException as exc:
        raise Fail(f"refused: unsafe XML ({type(exc).__name__})") from None
    except ParseError as exc:
        raise _NotWellFormed(f"corrupt XML: {exc}") from None


def markup_text(text: str) -> str:
    """The character data of tagged text that no parser accepts, one line per run of text
    between tags. Linear in the length: every search moves forward."""
    out: list[str] = []
    pos, n = 0, len(text)
    while pos < n:
        lt = text.find("<", pos)
        if lt < 0:
            out.append(text[pos:])
            break
        out.append(text[pos:lt])
        out.append("\n")
        if text.startswith("<!--", lt):
            end = text.find("-->", lt + 4)
            pos = n if end < 0 else end + 3
        elif text.startswith("<![CDATA[", lt):
            end = text.find("]]>", lt + 9)
            out.append(text[lt + 9: n if end < 0 else end])
            pos = n if end < 0 else end + 3
        else:
            end = text.find(">", lt + 1)
            if end < 0:  # a lone "<" in text, not a tag
                out.append(text[lt:])
                break
            pos = end + 1
    lines = (" ".join(html.unescape(line).split()) for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line)


def refuse_dtd(data: bytes, part: str) -> None:
    """Fail when an XML part of an Office package carries a DTD or entity declarations.

    OOXML and ODF parts never legitimately hold one, and in XML a literal ``<!`` can
    only start markup (text escapes ``<``), so the search has no false positives
    outside comments.
    """
    probe = data
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        probe = data.decode("utf-16", errors="ignore").encode("utf-8")
    upper = probe.upper()
    if b"<!ENTITY" in upper:
        raise Fail(f"refused: XML entity declarations in {part} (entity expansion attack?)")
    if b"<!DOCTYPE" in upper:
        raise Fail(f"refused: DTD in {part} (XML external entity?)")
