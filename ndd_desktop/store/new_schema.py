"""A new collection file's schema, written in one script instead of by the migrations.

Creating a collection ran every migration from the first (alembic imported, eight
revisions applied one by one): 0.35-0.4 s of every first scan and every new collection
the window makes. ``schema.sql`` beside this module is what those migrations leave in an
empty file (the SQL dump of its tables, indexes and rows), and :func:`create` runs it.
A test compares the two on every run; after adding a migration, write the script again
with ``python -m ndd_desktop.store.new_schema``.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).with_name("schema.sql")


def create(dbapi_connection: sqlite3.Connection) -> None:
    """Write the newest schema into an empty database (in one transaction)."""
    dbapi_connection.executescript(SCRIPT.read_text(encoding="utf-8"))


def dump(dbapi_connection: sqlite3.Connection) -> str:
    """A database's schema and rows as an SQL script (SQLite's own dump, in one
    transaction; AUTOINCREMENT's counters left out)."""
    kept = [s for s in dbapi_connection.iterdump() if "sqlite_sequence" not in s]
    return "\n".join(kept) + "\n"


def migrated_dump() -> str:
    """The dump of a new file brought to the newest schema by the migrations."""
    from .engine import HEAD_REVISION, make_engines, upgrade_by_migrations

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "new.ndd")
        eng, weng, _ = make_engines(path, read_only=False, immutable=False, max_pages=None)
        try:
            upgrade_by_migrations(weng, HEAD_REVISION)
        finally:
            eng.dispose()
            weng.dispose()
        with sqlite3.connect(path) as conn:
            return dump(conn)


if __name__ == "__main__":
    SCRIPT.write_text(migrated_dump(), encoding="utf-8")
    print(f"wrote {SCRIPT}", file=sys.stderr)
