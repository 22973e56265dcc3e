"""HTML and XHTML: the visible text only (the DDD paper's tag removal).

Parsed with BeautifulSoup over lxml's HTML parser, which neither loads DTDs nor fetches
anything. ``script``, ``style``, ``noscript``, ``template`` and the ``head`` (title,
meta) are dropped with comments and processing instructions; white space collapses as a
browser collapses it (except in ``pre``); block elements and ``br`` become line breaks.
"""

from __future__ import annotations

import re
import warnings

from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction
from bs4 import XMLParsedAsHTMLWarning
from bs4.dammit import EncodingDetector

from ndd_desktop.ingest.formats.base import Context, Extraction
from ndd_desktop.ingest.formats.txt import decode_text

DROP = ("script", "style", "noscript", "template", "head", "object", "embed", "svg", "math")
BLOCK = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form frame h1 h2 h3 h4 h5 h6 header hr html iframe "
    "legend li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul".split()
)
_WS = re.compile(r"[ \t\n\r\f\v]+")
_SKIP_TYPES = (Comment, Declaration, Doctype, ProcessingInstruction)


_INTERNAL_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[.*?\]\s*>", re.I | re.S)


def extract(data: bytes, ctx: Context) -> Extraction:
    """Visible text of an HTML or XHTML document (bytes; the encoding is detected).

    A declared encoding (BOM, ``<meta charset>``, XML declaration) is honoured; without
    one the bytes are decoded like plain text (UTF-8 first, then charset-normalizer).
    """
    head = data[:1 << 20]
    cut = _INTERNAL_SUBSET.search(head)
    if cut:  # an internal DTD subset is never rendered; the HTML parser would show it
        data = data[: cut.start()] + data[cut.end():]
    declared = EncodingDetector.find_declared_encoding(data[:65536], is_html=True)
    if declared or data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return Extraction(text=html_to_text(data))
    text, notes = decode_text(data, ctx)
    return Extraction(text=html_to_text(text), notes=notes)


def html_to_text(markup: bytes | str) -> str:
    """Visible text of HTML markup, one line per block element."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        soup = BeautifulSoup(markup, "lxml")
    for tag in soup.find_all(DROP):
        tag.decompose()
    out: list[str] = []
    # Depth-first with an explicit stack: hostile nesting can be far deeper than the
    # recursion limit, and every node is visited once (linear time).
    stack: list[tuple[object, bool]] = [(child, False) for child in reversed(soup.contents)]
    in_pre = 0
    while stack:
        node, closing = stack.pop()
        if closing:
            out.append("\n")
            if node.name == "pre":
                in_pre -= 1
            continue
        if isinstance(node, NavigableString):
            if not isinstance(node, _SKIP_TYPES):
                out.append(str(node) if in_pre else _WS.sub(" ", str(node)))
            continue
        if node.name == "br":
            out.append("\n")
        elif node.name in BLOCK:
            out.append("\n")
            stack.append((node, True))
            if node.name == "pre":
                in_pre += 1
        stack.extend((child, False) for child in reversed(node.contents))
    return _tidy("".join(out))


def _tidy(text: str) -> str:
    """Strip each line, drop empty lines."""
    lines = (line.strip(" ") for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
