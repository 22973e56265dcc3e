"""RTF through striprtf. The code page comes from ``\\ansicpg``; the date from ``\\creatim``."""

from __future__ import annotations

import codecs
import re
from datetime import datetime

from striprtf.striprtf import rtf_to_text

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail

_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")
_CREATIM = re.compile(
    rb"\\creatim\s*\\yr(\d+)\s*\\mo(\d+)\s*\\dy(\d+)(?:\s*\\hr(\d+))?(?:\s*\\min(\d+))?"
)


def extract(data: bytes, ctx: Context) -> Extraction:
    """Plain text of an RTF document."""
    head = data[:4096]
    encoding = "cp1252"
    found = _CODEPAGE.search(head)
    if found:
        candidate = f"cp{int(found.group(1))}"
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
