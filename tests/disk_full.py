"""A collection file with almost no room left, and texts that will not fit in it.

SQLite fails with SQLITE_FULL, as on a full disk, once a file reaches the page cap of
``Store.open(..., max_pages=...)`` (PRAGMA max_page_count)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def nearly_full(db, folder: Path, files: int = 40) -> int:
    """The page cap a few pages above the size of ``db`` (its WAL folded in first), and
    ``folder`` filled with ``files`` hardly compressible texts the store must keep, far more than those pages hold."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    folder.mkdir()
    for i in range(files):
        # a byte order mark: the text is not the file's bytes, so the store keeps it
        # (store.originals: a plain UTF-8 file's text is read from the file instead)
        text = " ".join(os.urandom(6).hex() for _ in range(3000))
        (folder / f"m{i}.txt").write_bytes(b"\xef\xbb\xbf" + text.encode())
    return pages + 8
