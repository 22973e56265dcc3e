"""Generic XML: the character data of all elements, through defusedxml.

defusedxml refuses external entities (no file or URL a document points to is ever
read), entity declarations (billion laughs, quadratic blow-up) and external DTDs.
"""

from __future__ import annotations

from xml.etree.ElementTree import ParseError

import defusedxml.ElementTree as DET
from defusedxml import DefusedXmlException, DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text content of an XML document, one line per element that holds text."""
    root = parse_safely(data)
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
        raise Fail(f"corrupt XML: {exc}") from None


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
