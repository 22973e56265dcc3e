"""Shared SQL fragments and row converters of the store."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Sequence, TypeVar

from .types import DocumentInfo

#: Chunk size for ``IN (...)`` lists, well below SQLite's limit on bound variables.
CHUNK = 900

T = TypeVar("T")

DOC_COLUMNS = (
    "d.id, r.path, d.relpath, d.container, d.size, d.mtime_ns, d.date, d.format, d.xxh128, "
    "d.sha256, d.text_length, d.status, d.reason, r.reference"
)
DOC_FROM = "documents d JOIN roots r ON r.id = d.root_id"
#: Number of columns DOC_COLUMNS selects.
DOC_WIDTH = 14


def chunks(items: Sequence[T] | Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """Split ``items`` into lists of at most ``size``."""
    buf: list[T] = []
    for item in items:
        buf.append(item)
        if len(buf) >= size:
            yield buf
            buf = []
    if buf:
        yield buf


def placeholders(n: int) -> str:
    """``?, ?, ...`` with n marks."""
    return ", ".join("?" * n)


def abspath_of(root: str, relpath: str, container: str | None) -> str:
    """The file on disk holding a document (the container file for members).

    What ``os.path.join(root, *disk.split("/"))`` gives for a relative path, without its
    cost (it ran for every document a view names: seconds for a million)."""
    disk = container if container else relpath
    if _SEP != "/":
        disk = disk.replace("/", _SEP)
    return root + disk if root.endswith(_SEP) or root.endswith("/") else root + _SEP + disk


_SEP = os.sep


def enc_path(path: str | None) -> str | bytes | None:
    """A path as stored: the str itself, or UTF-8 bytes with surrogateescape when the name
    holds bytes that were not valid in the file system encoding (so names stay exact)."""
    if path is None:
        return None
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        try:
            return path.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return path.encode("utf-8", "surrogatepass")


def dec_path(value: str | bytes | None) -> str | None:
    """Inverse of :func:`enc_path`."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return value


def doc_from_row(row: Sequence) -> DocumentInfo:
    """A DocumentInfo from a row selected with DOC_COLUMNS."""
    (doc_id, root, relpath, container, size, mtime_ns, date, fmt, xxh, sha, tlen, status, reason, ref) = row[
        :DOC_WIDTH
    ]
    root, relpath, container = dec_path(root), dec_path(relpath), dec_path(container)
    return DocumentInfo(
        id=int(doc_id),
        root=root,
        relpath=relpath,
        abspath=abspath_of(root, relpath, container),
        container=container,
        size=int(size),
        mtime_ns=int(mtime_ns),
        date=date,
        format=fmt,
        xxh128=xxh,
        sha256=sha,
        text_length=int(tlen),
        status=status,
        reason=reason,
        reference=bool(ref),
    )


def like_pattern(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere (with ``\\`` as the escape character)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


@contextmanager
def plain_cursor(conn: Any) -> Iterator[Any]:
    """The sqlite3 cursor of a SQLAlchemy connection, in its transaction, closed after the
    block. Its rows are plain tuples: SQLAlchemy's row objects cost 1-4 us a row more, as
    much as the query itself for the 20,000 rows of a rescan's sketch inventory."""
    cur = conn.connection.dbapi_connection.cursor()
    try:
        yield cur
    finally:
        cur.close()
