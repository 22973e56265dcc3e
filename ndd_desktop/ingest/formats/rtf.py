"""RTF through striprtf. The code page comes from ``\\ansicpg``, else from the character set
the header names (``\\ansi`` cp1252, ``\\mac`` Mac Roman, ``\\pc`` cp437, ``\\pca`` cp850);
the date from ``\\creatim``.

striprtf leaves out every destination group, among them the footnotes, annotations
(comments), headers and footers, so two versions of a report that differ only in the
sources their footnotes cite were one text. The body is read as before; then those groups
are found in the document (``side_groups``: braces counted, escaped braces and ``\\bin``
data passed over) and each kind is read through striprtf on its own, in a frame that keeps
the document's font table (the fonts' character sets decode ``\\'xx``), and put after the
body as the DOCX reader puts Word's parts: a blank line, then footnotes, endnotes
(``\\footnote\\ftnalt``), comments, headers, footers, one line per paragraph, empty ones
left out, each distinct header or footer text once (a header is repeated in every section,
and LibreOffice writes it once more in its page styles).
"""

from __future__ import annotations

import codecs
import re
from datetime import datetime

from striprtf.striprtf import rtf_to_text

from ndd_desktop.ingest.formats.base import RUNNING_PARTS, SIDE_PARTS, Context, Extraction, Fail

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")
_CHARSET = re.compile(rb"\\(ansi|mac|pca|pc)(?![a-z])")
_CHARSETS = {b"ansi": "cp1252", b"mac": "mac_roman", b"pc": "cp437", b"pca": "cp850"}
#: Code page numbers whose codec Python names otherwise.
_NAMED = {10000: "mac_roman", 10006: "mac_greek", 10007: "mac_cyrillic", 10029: "mac_latin2"}
_CREATIM = re.compile(
    rb"\\creatim\s*\\yr(\d+)\s*\\mo(\d+)\s*\\dy(\d+)(?:\s*\\hr(\d+))?(?:\s*\\min(\d+))?"
)
#: the start of a group kept after the body (LibreOffice writes ``{\\*\\footnote``)
_SIDE_GROUP = re.compile(r"\{\s*(?:\\\*\s*)?\\(footnote|annotation|header[lrf]?|footer[lrf]?)(?![A-Za-z])-?\d* ?")
_ENDNOTE = re.compile(r"\s*\\ftnalt(?![A-Za-z])")
#: what counts inside a group: a brace, an escaped brace or backslash, ``\\binN`` and its N bytes
_TOKEN = re.compile(r"\\bin(\d+) ?|\\[\\{}]|[{}]")
_FONT_TABLE = re.compile(r"\{\s*\\fonttbl(?![A-Za-z])")
_DEFAULT_FONT = re.compile(r"\\deff\d+")


def extract(data: bytes, ctx: Context) -> Extraction:
    """Plain text of an RTF document."""
    head = data[:4096]
    named = _CHARSET.search(head[:64])
    encoding = _CHARSETS[named.group(1)] if named else "cp1252"
    found = _CODEPAGE.search(head)
    if found:
        number = int(found.group(1))
        candidate = _NAMED.get(number, f"cp{number}")
        try:
            codecs.lookup(candidate)
            encoding = candidate
        except LookupError:
            pass
    # RTF is 7-bit ASCII with escapes; latin-1 maps bytes 1:1 for the parser
    rtf = without_binary(data.decode("latin-1"))
    try:
        text = rtf_to_text(rtf, encoding=encoding, errors="replace")
    except (ValueError, IndexError, UnicodeError) as exc:
        raise Fail(f"corrupt RTF: {exc}") from None
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    blocks = ["\n".join(lines).strip("\n")]
    notes: list[str] = []
    if len(blocks[0]) < ctx.limits.max_text_chars:
        blocks += side_texts(rtf, encoding, notes)
    return Extraction(text="\n\n".join(block for block in blocks if block), date=_creation_date(data), notes=notes)


def side_groups(rtf: str) -> dict[str, list[str]]:
    """The content of each footnote, endnote, annotation, header and footer group, by the
    kinds of ``SIDE_PARTS``, in document order (a group inside one of them is read with it)."""
    found: dict[str, list[str]] = {kind: [] for kind in SIDE_PARTS}
    pos = 0
    while (group := _SIDE_GROUP.search(rtf, pos)) is not None:
        if _escaped(rtf, group.start()):  # the text "\{" before a control word
            pos = group.start() + 1
            continue
        close = _group_end(rtf, group.end())
        content = rtf[group.end():close]
        word = group.group(1)
        if word == "footnote":
            kind = "endnotes" if _ENDNOTE.match(content) else "footnotes"
        else:
            kind = "comments" if word == "annotation" else word[:6]  # \headerl is a header
        found[kind].append(content)
        pos = close + 1
    return found


def side_texts(rtf: str, encoding: str, notes: list[str]) -> list[str]:
    """The text of each kind of side group the document has, in the order of
    ``SIDE_PARTS``; a kind striprtf fails on adds a note to ``notes`` and no text."""
    found = side_groups(rtf)
    if not any(found.values()):
        return []
    font_table = _FONT_TABLE.search(rtf)
    default_font = _DEFAULT_FONT.search(rtf, 0, 4096)
    frame = "{\\rtf1" + (default_font.group() if default_font else "") + (
        rtf[font_table.start():_group_end(rtf, font_table.end()) + 1] if font_table else "")
    blocks: list[str] = []
    seen_running: set[str] = set()
    for kind, groups in found.items():
        # a header is a text of its own, read alone so that a repeated one is seen as such
        batches = [[g] for g in dict.fromkeys(groups)] if kind in RUNNING_PARTS else [groups] if groups else []
        lines: list[str] = []
        for batch in batches:
            document = frame + "".join("{" + content + "\\par}" for content in batch) + "}"
            try:
                text = rtf_to_text(document, encoding=encoding, errors="replace")
            except (ValueError, IndexError, UnicodeError) as exc:
                notes.append(f"{kind} not read (corrupt RTF: {exc})")
                continue
            read = [line.strip() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
            if kind in RUNNING_PARTS:  # the same header on every section is read once
                if "\n".join(read) in seen_running:
                    continue
                seen_running.add("\n".join(read))
            lines += read
        if lines:
            blocks.append("\n".join(lines))
    return blocks


def _group_end(rtf: str, pos: int) -> int:
    """The index of the brace that closes the group whose content begins at ``pos`` (the
    end of the document when it is never closed)."""
    depth = 1
    while (token := _TOKEN.search(rtf, pos)) is not None:
        pos = token.end()
        if token.group(1):
            pos += int(token.group(1))  # binary data may hold any byte, braces too
        elif token.group() == "{":
            depth += 1
        elif token.group() == "}":
            depth -= 1
            if not depth:
                return token.start()
    return len(rtf)


_BIN = re.compile(r"\\bin(\d+) ?")


def without_binary(rtf: str) -> str:
    """``rtf`` without its ``\\binN`` data (a picture's raw bytes, in place of the usual
    hex). striprtf does not skip it: after a ``{\\*\\shppict ...}`` group, a ``\\bin``
    picture ended the text it gave, and the rest of the document (two thirds of one) was
    lost with no error."""
    if "\\bin" not in rtf:
        return rtf
    out: list[str] = []
    pos = 0
    while (found := _BIN.search(rtf, pos)) is not None:
        if _escaped(rtf, found.start()):  # the text "\\bin5"
            out.append(rtf[pos:found.end()])
            pos = found.end()
            continue
        out.append(rtf[pos:found.start()])
        pos = found.end() + int(found.group(1))
    out.append(rtf[pos:])
    return "".join(out)


def _escaped(rtf: str, at: int) -> bool:
    """True when the character at ``at`` follows an odd number of backslashes."""
    slashes = 0
    while at - slashes > 0 and rtf[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _creation_date(data: bytes) -> float | None:
    found = _CREATIM.search(data[:65536])
    if not found:
        return None
    parts = [int(g) if g else 0 for g in found.groups()]
    try:
        return datetime(parts[0], parts[1], parts[2], parts[3], parts[4]).timestamp()
    except (ValueError, OverflowError, OSError):
        return None
