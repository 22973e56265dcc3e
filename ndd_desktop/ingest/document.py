"""The two records of ingest: what the walk found and what extraction made of it.

Paths are ``str``. Names on disk that are not valid UTF-8 (or not valid in the file
system encoding) are kept the way Python's ``os`` module gives them, with
``surrogateescape``: each undecodable byte ``0xNN`` becomes the lone surrogate
``U+DCNN``. That keeps the name exact (``os.fsencode(relpath)`` gives the original
bytes back), but such a string cannot be encoded as UTF-8 as it is: use
:func:`display_path` to show it and :func:`storable_path` to store it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

STATUS_OK = "ok"
STATUS_SKIPPED = "skipped"
STATUS_ERROR = "error"


@dataclass(slots=True)
class FileEntry:
    """A regular file found by :func:`ndd_desktop.ingest.walk` (slots: a walk makes one per
    file, and they are the largest list a rescan holds)."""

    root: str  # the root folder, absolute, as the user chose it
    relpath: str  # POSIX path relative to root (may contain odd characters)
    abspath: str
    size: int
    mtime_ns: int


@dataclass
class ExtractedDocument:
    """One document (a container file yields several)."""

    root: str
    relpath: str  # container members: "mail.eml!attachment.pdf", "a.zip!dir/x.txt"
    container: str | None  # relpath of the file on disk when this is a member, else None
    size: int  # bytes of this document (member size for members)
    mtime_ns: int  # of the file on disk
    date: float | None  # document date, epoch seconds (metadata, else mtime)
    xxh128: str  # hex of the document's bytes ("" when the bytes were not read)
    sha256: str  # hex of the document's bytes ("" when the bytes were not read)
    format: str  # "txt", "html", "xml", "md", "pdf", "docx", "odt", "rtf", "eml", ...
    text: str | None  # extracted text (not normalised); None unless status == "ok"
    status: str  # "ok" | "skipped" | "error"
    reason: str  # "" when ok (or a note such as truncation); human-readable otherwise
    #: an e-mail message's threading headers (see ``formats.base.Extraction.headers``)
    email: dict | None = None
    #: characters of a text sent on without itself (:meth:`drop_text`)
    dropped_length: int = 0

    @property
    def text_length(self) -> int:
        """Characters of extracted text (0 when there is none), also once it was dropped."""
        return len(self.text) if self.text else self.dropped_length

    def drop_text(self) -> None:
        """Let go of the text (it goes on in another form, such as compressed), keeping its length."""
        if self.text:
            self.dropped_length = len(self.text)
        self.text = None


def problem(
    entry: FileEntry | None,
    status: str,
    reason: str,
    *,
    root: str = "",
    relpath: str = "",
    fmt: str = "",
) -> ExtractedDocument:
    """A document record for a file that yielded no text (status skipped or error)."""
    if entry is not None:
        root, relpath = entry.root, entry.relpath
        size, mtime_ns = entry.size, entry.mtime_ns
    else:
        size, mtime_ns = 0, 0
    return ExtractedDocument(
        root=root,
        relpath=relpath,
        container=None,
        size=size,
        mtime_ns=mtime_ns,
        date=mtime_ns / 1e9 if mtime_ns else None,
        xxh128="",
        sha256="",
        format=fmt,
        text=None,
        status=status,
        reason=reason,
    )


def display_path(path: str) -> str:
    """A printable form of a path: control characters and undecodable bytes escaped.

    A newline becomes ``\\n``, other control characters ``\\xNN``, a byte that was not
    valid in the file system encoding (a lone surrogate ``U+DCNN``) becomes ``\\xNN``, and
    a backslash stays a single backslash. Meant for logs, tables and reports; never
    for opening the file.
    """
    out = []
    for ch in path:
        code = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0:
            out.append(f"\\x{code:02x}")
        elif 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def storable_path(path: str) -> str:
    """A path that encodes as UTF-8: unchanged if it already does, else display_path."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return display_path(path)
    return path


def free_numbered_name(name: str, taken: Callable[[str], bool]) -> str:
    """The first of ``name (2)``, ``name (3)``, ... that ``taken`` refuses; the number goes
    before the extension of the last part of the path (after its last "/" or "!"):
    ``box.zip!dir/x.txt`` -> ``box.zip!dir/x (2).txt``."""
    cut = max(name.rfind("/"), name.rfind("!")) + 1
    head, leaf = name[:cut], name[cut:]
    stem, dot, ext = leaf.rpartition(".") if "." in leaf.lstrip(".") else (leaf, "", "")
    k = 2
    while taken(candidate := f"{head}{stem} ({k}){dot}{ext}"):
        k += 1
    return candidate
