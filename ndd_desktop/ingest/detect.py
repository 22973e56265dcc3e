"""Format detection by content (magic bytes), with the extension only as a fallback.

Extensions lie in real transfers: a PDF called ``.txt`` is read as a PDF and a text file
called ``.dat`` as text. The extension decides only between formats the bytes cannot tell
apart (Markdown vs plain text) and names the format of a file too broken to recognise.

Short magic numbers lie too: a text file that begins with "SQLite", "MZ", "BM" or "ID3"
is still text. Only structured signatures (PDF, ZIP, RTF, OLE2, the compressors) are
trusted outright; every other magic number decides only between binary formats, after
the first bytes were found not to be text.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterable

import filetype
import olefile

from ndd_desktop.ingest.utf16 import utf16_without_bom

HEAD_BYTES = 8192

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MSG_MARK = "__substg1.0_".encode("utf-16-le")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

# Extension -> format, for the fallback and for naming broken files.
EXT_FORMATS = {
    "txt": "txt", "text": "txt", "csv": "txt", "tsv": "txt", "log": "txt",
    "md": "md", "markdown": "md",
    "htm": "html", "html": "html", "xhtml": "html", "xht": "html",
    "xml": "xml", "sgml": "xml", "sgm": "xml",
    "pdf": "pdf", "docx": "docx", "odt": "odt", "rtf": "rtf",
    "eml": "eml", "mbox": "mbox", "mbx": "mbox", "msg": "msg", "zip": "zip",
    "gz": "gz", "tgz": "gz", "bz2": "bz2", "tbz": "bz2", "tbz2": "bz2", "xz": "xz", "txz": "xz",
    "zst": "zst", "tzst": "zst", "tar": "tar", "7z": "7z",
    "xlsx": "xlsx", "xls": "xls", "ods": "ods", "pptx": "pptx", "ppt": "ppt", "odp": "odp",
    "epub": "epub", "doc": "doc",
    "png": "png", "jpg": "jpg", "jpeg": "jpg", "tif": "tif", "tiff": "tif",
    "gif": "gif", "bmp": "bmp", "webp": "webp",
}
# Formats whose files must carry a signature; text in such a file is still read as text.
BINARY_FORMATS = {
    "pdf", "docx", "odt", "msg", "zip", "gz", "bz2", "xz", "zst", "tar", "7z", "xlsx", "xls", "ods",
    "pptx", "ppt", "odp", "epub", "doc", "png", "jpg", "tif", "gif", "bmp", "webp",
}
# Single-stream compressors: the file holds one document, compressed.
COMPRESSED = {"gz", "bz2", "xz", "zst"}
_COMPRESSOR_MAGIC = (
    (b"\x1f\x8b", "gz"), (b"\xfd7zXZ\x00", "xz"), (b"\x28\xb5\x2f\xfd", "zst"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
)
_BZ2 = re.compile(rb"BZh[1-9]1AY&SY")
#: Formats no reader here reads, known by their signatures so that the reason names them
#: (they were "binary content (not text)", which tells an archivist nothing): WordPerfect,
#: Windows Write, Outlook data files, DjVu, and the metadata a Mac leaves in folders and
#: archives (.DS_Store, AppleDouble "._" files).
_OTHER_MAGIC = (
    (b"\xffWPC", "wpd"), (b"!BDN", "pst"), (b"AT&TFORM", "djvu"), (b"\x00\x00\x00\x01Bud1", "ds_store"),
    (b"\x00\x05\x16\x07", "appledouble"), (b"\x31\xbe\x00\x00\x00\xab", "wri"), (b"\x32\xbe\x00\x00\x00\xab", "wri"),
)
# filetype's names for the pictures OCR reads (by their signatures: GIF87a/GIF89a, "BM",
# RIFF....WEBP; "BM" and "GIF8" only once the bytes were found not to be text).
_IMAGES = {"png": "png", "jpg": "jpg", "tif": "tif", "gif": "gif", "bmp": "bmp", "webp": "webp"}
# Bytes that plain text does not hold (tab, LF, VT, FF, CR, ESC and backspace, which
# formatted manual pages use for bold, are text).
_CONTROL = bytes(b for b in range(32) if b not in (8, 9, 10, 11, 12, 13, 27))

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


def extensions(names: Iterable[str]) -> set[str]:
    """The distinct :func:`ext_of` of many names (a plan's 20,000 paths: 0.5 us a name,
    where ext_of's splitext of the lowered path takes 2.3). The same rules: the extension
    is that of the last part, after its last dot, unless only dots come before that dot."""
    found: set[str] = set()
    add = found.add
    for name in names:
        slash, dot = name.rfind("/"), name.rfind(".")
        add(name[dot + 1:].lower() if dot > slash and name[slash + 1 : dot].strip(".") else "")
    return found


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
        return _ole_kind(data, ext)
    for magic, fmt in _COMPRESSOR_MAGIC:
        if head.startswith(magic):
            return fmt
    if _BZ2.match(head):
        return "bz2"
    if not binary_head(head):
        return _sniff_text(head.decode("latin-1"), ext)
    for magic, fmt in _OTHER_MAGIC:  # binary: text that begins so stays text
        if head.startswith(magic):
            return fmt
    if head[257:262] == b"ustar" or (ext == "tar" and (_tar_checksum_ok(head) or head[:1024] == bytes(1024))):
        return "tar"
    kind = filetype.guess(head)
    if kind is not None and kind.extension not in ("zip", "xml"):
        return _IMAGES.get(kind.extension, kind.extension)
    return _sniff_text(head.decode("latin-1"), ext)


def binary_head(head: bytes) -> bool:
    """True when the first bytes are not text: a NUL (outside UTF-16 text) or more than
    2 % control bytes (outside UTF-16 text: ``ingest.utf16``). Text decides before any magic
    number that is not a structure."""
    if not head:
        return False
    if b"\x00" in head:
        return utf16_without_bom(head) is None
    bad = len(head) - len(head.translate(None, _CONTROL))
    return bad > 0.02 * len(head) and utf16_without_bom(head) is None


def _tar_checksum_ok(head: bytes) -> bool:
    """A pre-POSIX tar header: the stored checksum matches the header block's bytes."""
    if len(head) < 512:
        return False
    try:
        stored = int(head[148:156].replace(b"\x00", b" ").strip() or b"-1", 8)
    except ValueError:
        return False
    return stored == sum(head[:148]) + 8 * 32 + sum(head[156:512])


#: The format of a password-protected Word, Excel or PowerPoint file of 2007 or later: an
#: OLE2 compound file that holds the encrypted package, not a ZIP.
OFFICE_ENCRYPTED = "office-encrypted"


def _ole_kind(data: bytes, ext: str) -> str:
    """msg / doc / xls / ppt / ole, from the streams of an OLE2 compound file."""
    if ext == "msg" or _MSG_MARK in data[:65536]:
        return "msg"
    try:
        with olefile.OleFileIO(data) as ole:
            names = {"/".join(parts).lower() for parts in ole.listdir(streams=True, storages=False)}
    except Exception:  # broken compound file: the extension names what it should be
        return ext if ext in ("doc", "xls", "ppt", "msg") else "ole"
    if "encryptedpackage" in names:  # a password-protected DOCX, XLSX or PPTX (ECMA-376 encryption)
        return OFFICE_ENCRYPTED
    if "worddocument" in names:
        return "doc"
    if "workbook" in names or "book" in names:
        return "xls"
    if "powerpoint document" in names:
        return "ppt"
    if any(n.startswith("__substg1.0_") for n in names):
        return "msg"
    if "catalog" in names:  # Windows Explorer's thumbnail cache (Thumbs.db) in every folder of pictures
        return "thumbs"
    return ext if ext in ("doc", "xls", "ppt") else "ole"  # a damaged one: say what it should be


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
        return ext if ext in ("docx", "odt", "xlsx", "pptx", "ods", "odp", "epub") else "zip"
    return "zip"


def _sniff_text(head: str, ext: str) -> str:
    """Decide among the text-based formats from the first characters."""
    start = head.lstrip("\ufeff \t\r\n")[:4096]
    # only markup is told apart by its case-folded start; other text needs no lower()
    low = start.lower() if start.startswith("<") else start
    if start.startswith("From ") and _looks_like_mail(start.split("\n", 1)[-1]):
        return "mbox"
    if _looks_like_mail(start):
        return "eml"
    if low.startswith("<?xml"):
        return "html" if re.search(r"<html[\s>]", low) else "xml"
    if low.startswith("<!doctype html") or re.match(r"(<!--.*?-->\s*)*<html[\s>]", low, re.S):
        return "html"
    if low.startswith("<!doctype") or (low.startswith("<") and ext in ("xml", "sgml", "sgm")):
        return "xml"
    if ext in ("html", "htm", "xhtml", "xht") and "<" in low:
        return "html"
    if ext in ("md", "markdown"):
        return "md"
    return "txt"


def _looks_like_mail(text: str) -> bool:
    """True when the first lines are RFC 5322 header fields, at least two of them mail ones."""
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    if not _HEADER_LINE.match(first.encode("latin-1", "replace").rstrip(b"\r")):
        return False  # (most texts: the first line decides, without encoding the rest)
    lines = text.encode("latin-1", "replace").split(b"\n", 40)[:40]
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
