"""Reading stored texts: one code for the store and for processes that only read texts.

A document's text is stored compressed with the collection's dictionary
(``store.text_codec``) or as a mark saying that the text is its original file
(``store.originals``), read from the file when it still holds it. :func:`read_texts` does
both over any connection that runs SQL with ``?`` parameters: the store's SQLAlchemy
connection (``exec_driver_sql``) or a plain ``sqlite3`` one (``execute``).

:class:`TextReader` is such a plain connection of its own, opened read-only: what the
verification helpers (``pipeline.verify_helpers``) read the candidates' texts with. They
need nothing else of the store, and importing SQLAlchemy cost each of them 0.2 s of a
core while the extraction workers needed it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ._sql import DOC_FROM, abspath_of, chunks, dec_path, placeholders
from .originals import ORIGINAL, read_original
from .text_codec import TextCodec, dictionary_fetcher

#: How long a read waits for a writer's lock (as the store's own connections).
BUSY_TIMEOUT_S = 60.0


def read_only_uri(path: str, immutable: bool = False) -> str:
    """The SQLite URI that opens ``path`` for reading only. ``immutable``: the file cannot
    change while open (read-only media), so SQLite needs no lock or shared-memory file
    next to it, which a read-only folder could not hold."""
    return Path(path).absolute().as_uri() + ("?immutable=1" if immutable else "?mode=ro")


def read_texts(conn, codec: TextCodec, doc_ids: Sequence[int]) -> dict[int, str]:
    """Extracted texts of the given documents (those that have one), in the caller's
    transaction. A text kept as its original file is read from the file, when it still
    holds it. A damaged text raises what ``codec`` raises (``text_codec.TEXT_ERRORS``)."""
    run = getattr(conn, "exec_driver_sql", None) or conn.execute
    decode = codec.decoder(dictionary_fetcher(conn))
    out: dict[int, str] = {}
    originals: list[int] = []
    for part in chunks([int(x) for x in doc_ids]):
        rows = run(f"SELECT doc_id, data FROM document_text WHERE doc_id IN ({placeholders(len(part))})",
                   tuple(part)).fetchall()
        for doc_id, data in rows:
            if data == ORIGINAL:
                originals.append(doc_id)
            else:
                out[doc_id] = decode(data)
    for doc_id, path, size, xxh in original_files(conn, originals):
        text, _why = read_original(path, size, xxh)
        if text is not None:
            out[doc_id] = text
    return out


def original_files(conn, doc_ids: list[int]) -> list[tuple[int, str, int, str]]:
    """(id, path on disk, size, xxh3-128) of documents whose text is their file."""
    run = getattr(conn, "exec_driver_sql", None) or conn.execute
    out = []
    for part in chunks(doc_ids):
        rows = run(f"SELECT d.id, r.path, d.relpath, d.size, d.xxh128 FROM {DOC_FROM} "
                   f"WHERE d.id IN ({placeholders(len(part))})", tuple(part)).fetchall()
        out += [(int(i), abspath_of(dec_path(root), dec_path(rel), None), int(size), xxh)
                for i, root, rel, size, xxh in rows]
    return out


class TextReader:
    """The stored texts of the collection at ``path``, over a read-only connection of its own."""

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(read_only_uri(path), uri=True, timeout=BUSY_TIMEOUT_S,
                                     isolation_level=None, check_same_thread=False)
        self._codec = TextCodec()

    def texts(self, doc_ids: Sequence[int]) -> dict[int, str]:
        """As ``Documents.texts``: one read transaction, so every text comes from one state
        of the file."""
        self._conn.execute("BEGIN")
        try:
            return read_texts(self._conn, self._codec, doc_ids)
        finally:
            self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()
