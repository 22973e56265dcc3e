"""Builders shared by the store tests (a uniquely named module: conftest names collide)."""

from __future__ import annotations

from ndd_desktop.store import DocWrite, Root, Store


def doc(root: str, relpath: str, xxh: str = "h", *, text: str | None = "some text", status: str = "ok",
        container: str | None = None, sketch: bytes | None = None, date: float | None = 1.0e9,
        size: int = 10, mtime_ns: int = 1, doc_id: int | None = None) -> DocWrite:
    """A DocWrite with sensible defaults."""
    return DocWrite(
        root=root, file_relpath=container or relpath, file_size=size, file_mtime_ns=mtime_ns,
        file_xxh128=None if container else xxh, relpath=relpath, container=container, size=size,
        mtime_ns=mtime_ns, date=date, format="txt", xxh128=xxh, sha256="s" * 64,
        text_length=len(text) if text else 0, status=status, reason="" if status == "ok" else "broken",
        doc_id=doc_id, text=text, sketch=sketch,
    )


def add_root(s: Store, *roots: Root) -> None:
    """Set the store's roots."""
    s.documents.set_roots(list(roots))
