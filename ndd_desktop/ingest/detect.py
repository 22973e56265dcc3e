"""Format detection by content (magic bytes), with the extension only as a fallback.

Extensions lie in real transfers: a PDF called ``.txt`` is read as a PDF and a text file
called ``.dat`` as text. The extension decides only between formats the bytes cannot tell
apart (Markdown vs plain text) and names the format of a file too broken to recognise.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile

import filetype

HEAD_BYTES = 8192

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MSG_MARK = "__substg1.0_".encode("utf-16-le")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

# Extension -> format, for the fallback and for naming broken files.
EXT_FORMATS = {
    "txt": "txt", "text": "txt", "csv": "txt", "tsv": "txt", "log": "txt",
    "md": "md", "markdown": "md",
    "htm": "html", "html": "html", "xhtml": "html", "xht": "html",
    "xml": "xml",
    "pdf": "pdf", "docx": "docx", "odt": "odt", "rtf": "rtf",
    "eml": "eml", "mbox": "mbox", "mbx": "mbox", "msg": "msg", "zip": "zip",
}
# Formats whose files must carry a signature; text in such a file is still read as text.
BINARY_FORMATS = {"pdf", "docx", "odt", "msg", "zip"}

_ODF_OTHER = {
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.graphics": "odg",
    "application/epub+zip": "epub",
}
_HEADER_LINE = re.compile(rb"^[!-9;-~]+:[ \t]?.*$")  # RFC 5322 field: printable name, colon
_MAIL_FIELDS = (
    b"from:", b"to:", b"subject:", b"date:", b"received:", b"message-id:",
    b"mime-version:", b"return-path:", b"delivered-to:", b"reply-to:", b"cc:",
)


def ext_of(name: str) -> str:
    """Lower-case extension of a file or member name, without the dot."""
    return posixpath.splitext(name.lower())[1].lstrip(".")


def detect_format(data: bytes, name: str = "") -> str:
    """The format of ``data``: "pdf", "docx", "odt", "zip", "rtf", "msg", "eml", "mbox",
    "html", "xml", "md", "txt", another short name for recognised but unsupported
    formats ("xlsx", "png", "ole", ...), or "txt" when nothing else fits (the text
    extractor then decides whether it is text at all)."""
    head = data[:HEAD_BYTES]
    ext = ext_of(name)
    if head.startswith(_BOMS) or head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return _sniff_text(_decode_head(head), ext)
    pdf_at = head.find(b"%PDF-", 0, 1024)
    if pdf_at == 0 or (pdf_at > 0 and (ext == "pdf" or not head[:pdf_at].strip())):
        return "pdf"
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return _zip_kind(data, ext)
    if head.startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(OLE_MAGIC):
        return "msg" if ext == "msg" or _MSG_MARK in data[:65536] else "ole"
    kind = filetype.guess(head)
    if kind is not None and kind.extension not in ("zip", "xml"):
        return kind.extension
    return _sniff_text(head.decode("latin-1"), ext)


def _decode_head(head: bytes) -> str:
    for bom, enc in (
        (b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
        (b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"),
    ):
        if head.startswith(bom):
            return head[len(bom):].decode(enc.replace("-sig", ""), errors="ignore")
    return head.decode("latin-1")


def _zip_kind(data: bytes, ext: str) -> str:
    """docx / odt / other Office types / zip, from the archive's table of contents."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            if "word/document.xml" in names:
                return "docx"
            if "xl/workbook.xml" in names:
                return "xlsx"
            if "ppt/presentation.xml" in names:
                return "pptx"
            if "mimetype" in names:
                info = zf.getinfo("mimetype")
                if info.file_size < 200:
                    mime = zf.read(info).decode("ascii", "replace").strip()
                    if mime == "application/vnd.oasis.opendocument.text":
                        return "odt"
                    if mime in _ODF_OTHER:
                        return _ODF_OTHER[mime]
    except Exception:  # broken archive: trust the extension to name what it should be
        return ext if ext in ("docx", "odt") else "zip"
    return "zip"


def _sniff_text(head: str, ext: str) -> str:
    """Decide among the text-based formats from the first characters."""
    start = head.lstrip("\ufeff \t\r\n")[:4096]
    low = start.lower()
    if start.startswith("From ") and _looks_like_mail(start.split("\n", 1)[-1]):
        return "mbox"
    if _looks_like_mail(start):
        return "eml"
    if low.startswith("<?xml"):
        return "html" if re.search(r"<html[\s>]", low) else "xml"
    if low.startswith("<!doctype html") or re.match(r"(<!--.*?-->\s*)*<html[\s>]", low, re.S):
        return "html"
    if low.startswith("<!doctype") or (low.startswith("<") and ext == "xml"):
        return "xml"
    if ext in ("html", "htm", "xhtml", "xht") and "<" in low:
        return "html"
    if ext in ("md", "markdown"):
        return "md"
    return "txt"


def _looks_like_mail(text: str) -> bool:
    """True when the first lines are RFC 5322 header fields, at least two of them mail ones."""
    lines = text.encode("latin-1", "replace").split(b"\n")[:40]
    known = 0
    for i, line in enumerate(lines):
        line = line.rstrip(b"\r")
        if not line:
            return i > 0 and known >= 2
        if line[:1] in (b" ", b"\t"):
            if i == 0:
                return False
            continue  # folded continuation line
        if not _HEADER_LINE.match(line):
            return False
        if line.lower().startswith(_MAIL_FIELDS):
            known += 1
    return known >= 2
