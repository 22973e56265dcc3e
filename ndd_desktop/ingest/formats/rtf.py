"""RTF through striprtf. The code page comes from ``\\ansicpg``, else from the character set
the header names (``\\ansi`` cp1252, ``\\mac`` Mac Roman, ``\\pc`` cp437, ``\\pca`` cp850);
the date from ``\\creatim``."""

from __future__ import annotations

import codecs
import re
from datetime import datetime

from striprtf.striprtf import rtf_to_text

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")
_CHARSET = re.compile(rb"\\(ansi|mac|pca|pc)(?![a-z])")
_CHARSETS = {b"ansi": "cp1252", b"mac": "mac_roman", b"pc": "cp437", b"pca": "cp850"}
#: Code page numbers whose codec Python names otherwise.
_NAMED = {10000: "mac_roman", 10006: "mac_greek", 10007: "mac_cyrillic", 10029: "mac_latin2"}
_CREATIM = re.compile(
    rb"\\creatim\s*\\yr(\d+)\s*\\mo(\d+)\s*\\dy(\d+)(?:\s*\\hr(\d+))?(?:\s*\\min(\d+))?"
)


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
    try:
        # RTF is 7-bit ASCII with escapes; latin-1 maps bytes 1:1 for the parser.
        text = rtf_to_text(data.decode("latin-1"), encoding=encoding, errors="replace")
    except (ValueError, IndexError, UnicodeError) as exc:
        raise Fail(f"corrupt RTF: {exc}") from None
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    return Extraction(text="\n".join(lines).strip("\n"), date=_creation_date(data))


def _creation_date(data: bytes) -> float | None:
    found = _CREATIM.search(data[:65536])
    if not found:
        return None
    parts = [int(g) if g else 0 for g in found.groups()]
    try:
        return datetime(parts[0], parts[1], parts[2], parts[3], parts[4]).timestamp()
    except (ValueError, OverflowError, OSError):
        return None
