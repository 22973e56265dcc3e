"""Plain text (and Markdown) in any common encoding.

UTF-8 is tried first (most files are); byte order marks decide UTF-8/16/32; UTF-16
without a mark is recognised by its bytes (``ingest.utf16``); ISO-2022-JP and -KR (7-bit,
which UTF-8 would read as it is) by their escape sequences; everything else goes to
charset-normalizer. Content that is not text ("binary content behind a text extension")
is skipped. A few stray NUL bytes in otherwise good text are removed with a note.
"""

from __future__ import annotations

import re

import charset_normalizer
from charset_normalizer.md import mess_ratio

from ndd_desktop.ingest.code_pages import best_page, is_latin
from ndd_desktop.ingest.detect import BINARY_FORMATS, EXT_FORMATS
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.utf16 import utf16_without_bom

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
# Control bytes that do not occur in text (tab, LF, VT, FF, CR and ESC do, and backspace
# in formatted manual pages, where "X\bX" prints a bold X and "_\bX" an underlined one).
_CONTROL = bytes(b for b in range(32) if b not in (8, 9, 10, 11, 12, 13, 27))
_OVERSTRIKE = re.compile(r"[^\n]\x08")
_SAMPLE = 65536


def extract(data: bytes, ctx: Context) -> Extraction:
    """Decode ``data`` as text; Skip when it is not text."""
    text, notes = decode_text(data, ctx)
    if "\r" in text:  # Windows (CR LF) and old Mac (CR) line ends: one paragraph per line
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x08" in text:  # overstruck (bold, underlined) characters of a formatted manual page
        text = _OVERSTRIKE.sub("", text)
    return Extraction(text=text, notes=notes)


def decode_text(data: bytes, ctx: Context | None = None) -> tuple[str, list[str]]:
    """(text, notes) of bytes that should be text; raises Skip/Fail when they are not."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(enc, errors="replace"), []
    if b"\x1b" in data:  # ISO-2022 (Japanese and Korean mail and text) is 7-bit: UTF-8 would take it
        iso2022 = _iso2022(data)
        if iso2022 is not None:
            return iso2022, []
    nuls = data.count(0)
    binary = _binary_share(data) > 0.05
    if nuls or binary:  # UTF-16 without a mark has zero bytes, or control bytes in every pair
        utf16 = utf16_without_bom(data)
        if utf16:
            return data[: len(data) // 2 * 2].decode(utf16, errors="replace"), []
    notes: list[str] = []
    if binary:
        _not_text(ctx)
    if nuls:
        data = data.replace(b"\x00", b"")
        notes.append(f"removed {nuls} NUL byte{'s' if nuls != 1 else ''}")
    try:
        return data.decode("utf-8"), notes
    except UnicodeDecodeError:
        pass
    return _guess_legacy(data, ctx), notes


# The escape sequences that switch an ISO-2022 text to a double-byte set: JIS X 0208
# (ESC $ @, ESC $ B), JIS X 0212 and the sets of ISO-2022-JP-2 (ESC $ ( ...), KS X 1001
# announced for ISO-2022-KR (ESC $ ) C).
_ISO2022_JP = re.compile(rb"\x1b\$[@B(A]")
_ISO2022_KR = b"\x1b$)C"


def _iso2022(data: bytes) -> str | None:
    """The text of ISO-2022-JP or -KR bytes, or None when they are not (or do not decode)."""
    if _ISO2022_KR in data[:_SAMPLE]:
        encoding = "iso2022_kr"
    elif _ISO2022_JP.search(data):
        encoding = "iso2022_jp_2"
    else:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _guess_legacy(data: bytes, ctx: Context | None) -> str:
    """Decode a legacy 8-bit (or CJK) encoding.

    charset-normalizer guesses the encoding; when its guess reads as Latin script, the
    Latin code pages are weighed by the letters they give (``ingest.code_pages``): its
    statistics alone read Polish as cp1252 and French as cp1257 (ties on short texts).
    For any other script, cp1252 still wins when it decodes the sample at least as cleanly
    (a Western text taken for a Cyrillic or Greek page).
    """
    best = charset_normalizer.from_bytes(data).best()
    if best is None:
        _not_text(ctx)
    if best.encoding in ("ascii", "utf_8"):
        return str(best)
    text = str(best)
    if is_latin(text[:_SAMPLE]):
        chosen = best_page(data, best.encoding, _SAMPLE)
        return text if chosen is None else chosen[1]
    if best.encoding != "cp1252":
        try:
            western = data.decode("cp1252")
        except UnicodeDecodeError:
            western = None
        if western is not None and mess_ratio(western[:_SAMPLE]) <= best.chaos + 0.02:
            return western
    return text


def _not_text(ctx: Context | None) -> None:
    ext = ctx.ext if ctx else ""
    fmt = {"docx": "DOCX", "odt": "ODT", "pdf": "PDF", "msg": "Outlook MSG", "zip": "ZIP"}
    if ext in BINARY_FORMATS:
        raise Fail(f"not a valid {fmt.get(ext, ext.upper())} file: signature missing, content unreadable",
                   claimed=EXT_FORMATS.get(ext, ext))
    raise Skip("binary content (not text)")


def _binary_share(data: bytes) -> float:
    """Share of control bytes in a sample from the start, middle and end."""
    if len(data) <= 3 * _SAMPLE:
        sample = data
    else:
        mid = len(data) // 2
        sample = data[:_SAMPLE] + data[mid:mid + _SAMPLE] + data[-_SAMPLE:]
    if not sample:
        return 0.0
    bad = len(sample) - len(sample.translate(None, _CONTROL))
    return bad / len(sample)
