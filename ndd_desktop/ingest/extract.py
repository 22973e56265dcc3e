"""Dispatch: one file on disk (or one blob of bytes) to its documents. Never raises.

A file is read once, with a hard cap, from a descriptor opened without following a
symbolic link and without blocking (a FIFO or device is refused, not waited on). Its
format is detected from the bytes; containers (ZIP, TAR, 7Z, MBOX, e-mail attachments,
MSG attachments) recurse up to ``Limits.max_depth`` and share one decompression budget.
A compressed file (``.gz``, ``.bz2``, ``.xz``, ``.zst``) is read as the document inside
it, under the compressed file's own path and hashes.
``ExtractOptions`` say how documents are read (a web page by its main text or whole); the
process pool hands them over inside its picklable extractor
(``functools.partial(extract_entry, options=...)``, or the pipeline's ``SketchingExtractor``).
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Callable, Iterable

from ndd_desktop.ingest import reasons as R
from ndd_desktop.ingest.detect import COMPRESSED, EXT_FORMATS, OFFICE_ENCRYPTED, detect_format, ext_of, extensions
from ndd_desktop.ingest.document import (
    STATUS_ERROR, STATUS_OK, STATUS_SKIPPED, ExtractedDocument, FileEntry, free_numbered_name, problem,
)
from ndd_desktop.ingest.formats import compressed
from ndd_desktop.ingest.formats.base import Budget, Context, Extraction, Fail, Skip
from ndd_desktop.ingest.hashes import hash_bytes
from ndd_desktop.ingest.limits import Limits, mb
from ndd_desktop.ingest.options import ExtractOptions


class _Reader:
    """A format's reader, imported on its first use. Importing all of them (PDF, Office,
    web pages, Outlook, 7z libraries) takes half a second that a scan's main process
    (its workers read the files) and an unchanged rescan (nothing is read) never need;
    the pool's workers get them preloaded (``READER_MODULES``)."""

    __slots__ = ("module", "name", "_fn")

    def __init__(self, module: str, name: str = "extract") -> None:
        self.module, self.name, self._fn = f"ndd_desktop.ingest.formats.{module}", name, None

    def __call__(self, data: bytes, ctx: Context) -> Extraction:
        if self._fn is None:
            self._fn = getattr(importlib.import_module(self.module), self.name)
        return self._fn(data, ctx)


EXTRACTORS: dict[str, Callable[[bytes, Context], Extraction]] = {
    "txt": _Reader("txt"), "md": _Reader("txt"), "html": _Reader("html"), "xml": _Reader("xml"),
    "pdf": _Reader("pdf"), "docx": _Reader("docx"), "odt": _Reader("odf"), "odp": _Reader("odf"),
    "rtf": _Reader("rtf"), "eml": _Reader("email"), "mbox": _Reader("mbox"), "msg": _Reader("msg"),
    "zip": _Reader("zip"), "tar": _Reader("tar"), "7z": _Reader("sevenzip"),
    "xlsx": _Reader("sheet"), "xls": _Reader("sheet"), "ods": _Reader("sheet"), "pptx": _Reader("pptx"),
    "epub": _Reader("epub"), "doc": _Reader("legacy", "extract_doc"), "ppt": _Reader("legacy", "extract_ppt"),
    "png": _Reader("ocr", "extract_image"), "jpg": _Reader("ocr", "extract_image"),
    "tif": _Reader("ocr", "extract_image"), "gif": _Reader("ocr", "extract_image"),
    "bmp": _Reader("ocr", "extract_image"), "webp": _Reader("ocr", "extract_image"),
}
#: The modules of all readers (what a process that reads files can import up front).
READER_MODULES = tuple(sorted({r.module for r in EXTRACTORS.values()}))
CONTAINERS = {"zip", "tar", "7z", "mbox", "eml", "msg", *COMPRESSED}
_UNSUPPORTED = {
    "ole": "OLE compound file that is no Word, Excel, PowerPoint or Outlook file",
    "odg": "OpenDocument drawing",
    "wpd": "WordPerfect document (save it as DOCX or PDF to scan it)",
    "wri": "Windows Write document (save it as DOCX or RTF to scan it)",
    "pst": "Outlook data file (export its messages, e.g. with readpst, and scan them)",
    "djvu": "DjVu document",
    "ds_store": "Finder metadata (.DS_Store), no document",
    "appledouble": "AppleDouble file (a Mac file's metadata), no document",
    "thumbs": "Windows thumbnail cache (Thumbs.db), no document",
}
#: The format of a file skipped as not text whose name says nothing of its format (a
#: ``.bin`` of random bytes was recorded as "txt", the detection's last guess).
_UNKNOWN = "unknown"
_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CHUNK = 1 << 20


def likely_readers(names: Iterable[str]) -> tuple[str, ...]:
    """The reader modules that files of these names will most likely need, by their
    extensions: what a pool about to read them can import up front (a reader it did not
    import is imported by the worker that meets its format). All of them as soon as one
    name says nothing (an unknown extension: the bytes decide) or names a container (its
    members can be of any format)."""
    formats: set[str] = set()
    for ext in extensions(names):
        fmt = EXT_FORMATS.get(ext)
        if fmt is None or fmt in CONTAINERS:
            return READER_MODULES
        formats.add(fmt)
    return tuple(sorted({EXTRACTORS[f].module for f in formats if f in EXTRACTORS}))


class _Unreadable(Exception):
    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def extract_entry(
    entry: FileEntry, limits: Limits | None = None, options: ExtractOptions | None = None
) -> list[ExtractedDocument]:
    """All documents of one file on disk; problems become records, never exceptions."""
    limits = limits or Limits()
    try:
        if entry.size > limits.max_file_bytes:
            return [problem(entry, STATUS_SKIPPED, _too_large(limits), fmt=_ext_format(entry))]
        try:
            data, size, mtime_ns = read_file(entry.abspath, limits.max_file_bytes)
        except _Unreadable as exc:
            return [problem(entry, exc.status, exc.reason, fmt=_ext_format(entry))]
        return extract_bytes(data, entry.relpath, limits=limits, root=entry.root,
                             mtime_ns=mtime_ns, options=options)
    except (Exception, RecursionError, MemoryError) as exc:  # last line of defence
        return [problem(entry, STATUS_ERROR, f"extractor failed: {_describe(exc)}")]


def extract_bytes(
    data: bytes, relpath: str, *, limits: Limits | None = None, root: str = "", mtime_ns: int = 0,
    options: ExtractOptions | None = None,
) -> list[ExtractedDocument]:
    """All documents of a file's bytes, as if read from ``root/relpath``. Never raises."""
    limits = limits or Limits()
    options = options or ExtractOptions()
    out: list[ExtractedDocument] = []
    try:
        _extract(data, relpath, None, mtime_ns / 1e9 if mtime_ns else None, "", 0,
                 Budget(limits), root, mtime_ns, limits, out, options)
    except (Exception, RecursionError, MemoryError) as exc:
        out.append(_record(root, relpath, None, data, mtime_ns, None, "",
                           STATUS_ERROR, f"extractor failed: {_describe(exc)}"))
    return out


def read_file(path: str, cap: int) -> tuple[bytes, int, int]:
    """(bytes, size, mtime_ns) of a regular file read with a hard cap.

    Raises _Unreadable for a file that vanished, cannot be opened, is not a regular file,
    grew past the cap or changed while it was being read.
    """
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise _Unreadable(STATUS_ERROR, R.VANISHED) from None
    except PermissionError:
        raise _Unreadable(STATUS_ERROR, f"{R.UNREADABLE} permission denied") from None
    except OSError as exc:
        if getattr(os, "O_NOFOLLOW", 0) and os.path.islink(path):
            raise _Unreadable(STATUS_SKIPPED, R.LINK_NOT_FOLLOWED) from None
        raise _Unreadable(STATUS_ERROR, f"{R.UNREADABLE} {exc.strerror or exc}") from None
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            raise _Unreadable(STATUS_SKIPPED, R.NOT_REGULAR)
        if before.st_size > cap:
            raise _Unreadable(STATUS_SKIPPED, f"larger than the size cap ({mb(cap)})")
        chunks, got = [], 0
        while True:
            chunk = os.read(fd, min(_CHUNK, cap + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > cap:
                raise _Unreadable(STATUS_SKIPPED, f"larger than the size cap ({mb(cap)})")
            if got == before.st_size:  # all there was: a file that grew differs from after's size
                break
        after = os.fstat(fd)
    except OSError as exc:
        raise _Unreadable(STATUS_ERROR, f"{R.UNREADABLE} {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns) or got != after.st_size:
        raise _Unreadable(STATUS_ERROR, f"{R.CHANGED_WHILE_READ} (try again when it is stable)")
    return b"".join(chunks), got, after.st_mtime_ns


def _extract(data, relpath, container, fallback_date, hint, depth, budget, root, mtime_ns,
             limits, out, options, outer_bytes=None, name=None) -> None:
    """Append the documents of ``data`` (and of its members, recursively) to ``out``.

    ``outer_bytes`` and ``name`` are set for the document inside a compressed file: the
    record then carries the compressed bytes' size and hashes, and ``name`` (the inner
    name, "manual.1" of "manual.1.gz") guides detection.
    """
    name = name if name is not None else relpath.rsplit("!", 1)[-1]
    fmt = hint or detect_format(data, name)
    shown = data if outer_bytes is None else outer_bytes

    def record(status: str, reason: str, text=None, date=fallback_date, shown_fmt=None, email=None) -> None:
        out.append(_record(root, relpath, container, shown, mtime_ns, date, shown_fmt or fmt, status, reason, text,
                           email))

    if not data:
        return record(STATUS_SKIPPED, "empty file" if outer_bytes is None else "empty document inside")
    if fmt in CONTAINERS and depth >= limits.max_depth:
        return record(STATUS_SKIPPED, f"containers nested too deep (limit {limits.max_depth})")
    ctx = Context(limits, budget, name, depth, options)
    if fmt in COMPRESSED:
        try:
            inner = compressed.decompress(data, fmt, ctx)
        except Skip as exc:
            return record(STATUS_SKIPPED, str(exc))
        except Fail as exc:
            return record(STATUS_ERROR, str(exc))
        return _extract(inner, relpath, container, fallback_date, "", depth + 1, budget, root, mtime_ns,
                        limits, out, options, shown, compressed.inner_name(name, fmt))
    if fmt == OFFICE_ENCRYPTED:  # its extension says which kind: docx, xlsx, pptx
        return record(STATUS_SKIPPED, "encrypted: no password (a password-protected Office document)",
                      shown_fmt=EXT_FORMATS.get(ext_of(name), "ole"))
    reader = EXTRACTORS.get(fmt)
    if reader is None:
        return record(STATUS_SKIPPED, f"unsupported format: {_UNSUPPORTED.get(fmt, fmt)}")
    try:
        result = reader(data, ctx)
    except Skip as exc:
        if fmt == "txt" and ext_of(name) not in EXT_FORMATS:  # "txt" was only the detection's last guess
            return record(STATUS_SKIPPED, str(exc), shown_fmt=_UNKNOWN)
        return record(STATUS_SKIPPED, str(exc))
    except Fail as exc:
        return record(STATUS_ERROR, str(exc), shown_fmt=exc.claimed)
    date = result.date if result.date is not None else fallback_date
    if result.text is not None:
        text, notes = result.text, list(result.notes)
        if len(text) > limits.max_text_chars:
            text = text[: limits.max_text_chars]
            notes.append(f"{R.TEXT_TRUNCATED} {limits.max_text_chars:,} characters")
        if text.strip():
            record(STATUS_OK, "; ".join(notes), text, date, email=result.headers)
        else:
            record(STATUS_SKIPPED, "no text (empty document)", None, date, email=result.headers)
    members = 0
    outer = container or relpath
    names = MemberNames()
    for member in result.members:
        members += 1
        name = f"{relpath}!{names.unique(member.name)}" if member.name else relpath
        if member.data is None:
            # an unnamed member is a note about the container itself (e.g. "more than N
            # messages"): its record is the container's, not a member inside it
            out.append(_record(root, name, outer if member.name else container, None, mtime_ns,
                               member.date or date, "", member.status or STATUS_ERROR, member.reason))
            continue
        _extract(member.data, name, outer, member.date or date, member.hint, depth + 1, budget,
                 root, mtime_ns, limits, out, options)
    if result.text is None and members == 0:
        record(STATUS_SKIPPED, f"empty {fmt.upper()}: no documents inside")


class MemberNames:
    """Names of the members of one container, made unique and free of the separator.

    A member's record is named ``container!member``, so a "!" inside a member name is
    replaced by "_" (e-mail attachments already are); and a container may hold two members
    of one name (ZIP allows it), which would be one record: the second becomes
    ``name (2).ext``, the third ``name (3).ext``, in the container's order.
    """

    def __init__(self) -> None:
        self._used: set[str] = set()

    def unique(self, name: str) -> str:
        name = name.replace("!", "_")
        if name in self._used:
            name = free_numbered_name(name, self._used.__contains__)
        self._used.add(name)
        return name


def _record(root, relpath, container, data, mtime_ns, date, fmt, status, reason, text=None, email=None):
    xxh, sha = hash_bytes(data) if data is not None else ("", "")
    return ExtractedDocument(
        root=root, relpath=relpath, container=container, size=len(data or b""), mtime_ns=mtime_ns,
        date=date, xxh128=xxh, sha256=sha, format=fmt,
        text=text if status == STATUS_OK else None, status=status, reason=reason, email=email,
    )


def _too_large(limits: Limits) -> str:
    return f"larger than the size cap ({mb(limits.max_file_bytes)})"


def _ext_format(entry: FileEntry) -> str:
    return EXT_FORMATS.get(ext_of(entry.relpath), "")


def _describe(exc: BaseException) -> str:
    text = str(exc)
    text = text if len(text) <= 160 else text[:157] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
