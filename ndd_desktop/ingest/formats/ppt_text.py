"""The text atoms of a PowerPoint 97-2003 presentation, read from its records.

catppt (catdoc) reads the text PowerPoint itself writes, but found nothing in a ``.ppt``
saved by LibreOffice: the slides' text is in the shapes' text boxes there, which catppt
does not look into, and the deck was skipped as "no text (empty document)". The stream
"PowerPoint Document" is a tree of records, each with an 8-byte header (version and
instance, type, length; version 0xF marks a container); the text is held by the atoms
TextCharsAtom (UTF-16) and TextBytesAtom (8-bit), wherever they sit: in the slide list,
in the shapes' client text boxes, in the notes. :func:`ppt_text` walks the whole tree and
joins those atoms in stream order, leaving out the main and handout masters (their
placeholders' prompts, "Click to edit Master title style", are in every deck). catppt still
reads first where it is installed (it knows PowerPoint's own files best): this reader's
text is taken where it holds more than twice as much, or where catppt is missing.
"""

from __future__ import annotations

import struct

_HEADER = struct.Struct("<HHI")
_TEXT_CHARS, _TEXT_BYTES = 0x0FA0, 0x0FA8
_MASTERS = (0x03F8, 0x0FC9)  # the main master and the handout master: prompts, not content
_MAX_DEPTH = 32
_STREAM = "PowerPoint Document"


def ppt_text(data: bytes, max_chars: int) -> str | None:
    """The text of a ``.ppt`` (paragraphs as lines), "" when it holds none, None when it
    is no readable PowerPoint file (not an OLE file, no "PowerPoint Document" stream)."""
    import olefile

    try:
        ole = olefile.OleFileIO(data)
    except (OSError, ValueError, struct.error):
        return None
    try:
        if not ole.exists(_STREAM):
            return None
        stream = ole.openstream(_STREAM).read()
    except (OSError, ValueError, struct.error):
        return None
    finally:
        ole.close()
    pieces: list[str] = []
    _walk(stream, 0, len(stream), 0, pieces, [0], max_chars)
    text = "\n".join(pieces).replace("\r", "\n").replace("\x0b", "\n")
    # a lone "*" stands for a field (the slide number, the date) in its placeholder
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip() and line.strip() != "*")


def _walk(stream: bytes, pos: int, end: int, depth: int, out: list[str], count: list[int], limit: int) -> None:
    """Append the text atoms of the records in ``stream[pos:end]`` (bounds-checked: a
    damaged length ends the walk of its container, not the reading)."""
    while pos + _HEADER.size <= end and count[0] < limit:
        ver_inst, kind, length = _HEADER.unpack_from(stream, pos)
        body, pos = pos + _HEADER.size, pos + _HEADER.size + length
        if pos > end:
            return
        if ver_inst & 0xF == 0xF:
            if kind not in _MASTERS and depth < _MAX_DEPTH:
                _walk(stream, body, pos, depth + 1, out, count, limit)
        elif kind == _TEXT_CHARS:
            out.append(stream[body:pos].decode("utf-16-le", "replace"))
            count[0] += length // 2
        elif kind == _TEXT_BYTES:
            out.append(stream[body:pos].decode("latin-1"))
            count[0] += length
