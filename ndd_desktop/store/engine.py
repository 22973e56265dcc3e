"""The SQLite engine: connection pragmas, transaction modes, schema version and migrations.

Every connection gets WAL journaling (readers never wait for the writer),
``synchronous=NORMAL`` (durable at each checkpoint, never corrupt), foreign keys and a
busy timeout. Transactions are begun by us: ``BEGIN`` for reads and ``BEGIN IMMEDIATE``
for writes (an engine with the ``ndd_write`` option), so two writers queue on the busy
timeout instead of failing when a read transaction would have to be upgraded.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.pool import NullPool, StaticPool

from .types import StoreError

#: The newest schema revision this code knows (alembic revision ids are 4-digit numbers).
HEAD_REVISION = "0006"
#: The first schema revision (tests create a store at it and upgrade).
FIRST_REVISION = "0001"
BUSY_TIMEOUT_MS = 60_000
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_SQLITE_MAGIC = b"SQLite format 3\x00"


def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
    # We emit BEGIN ourselves (see _on_begin); pysqlite's own handling is switched off.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA journal_mode = WAL")
    cur.execute("PRAGMA synchronous = NORMAL")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.close()


def _on_begin(conn) -> None:
    options = conn.get_execution_options()
    # Review decisions are synced to disk at commit (FULL); scan batches only at
    # checkpoints (NORMAL): a power cut may lose the last batch, never a decision.
    conn.exec_driver_sql("PRAGMA synchronous = FULL" if options.get("ndd_durable") else "PRAGMA synchronous = NORMAL")
    if options.get("ndd_write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


def make_engines(path: str) -> tuple[Engine, Engine, Engine]:
    """Reading, writing and durable-writing engines (one pool) for a path or ``":memory:"``."""
    if path == ":memory:":
        engine = create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        # NullPool: a connection per operation, safe from the GUI thread and a worker alike.
        engine = create_engine(
            f"sqlite:///{path}",
            poolclass=NullPool,
            connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        )
    event.listen(engine, "connect", _on_connect)
    event.listen(engine, "begin", _on_begin)
    return engine, engine.execution_options(ndd_write=True), engine.execution_options(ndd_write=True, ndd_durable=True)


def check_file(path: str, create: bool) -> None:
    """Refuse a path that is not an SQLite file, or a missing one when not creating."""
    if path == ":memory:":
        return
    p = Path(path)
    if p.is_dir():
        raise StoreError(f"{path} is a folder, not a collection file")
    if not p.exists():
        if not create:
            raise StoreError(f"no collection file at {path}")
        if not p.parent.exists():
            raise StoreError(f"folder {p.parent} does not exist")
        if not os.access(p.parent, os.W_OK):
            raise StoreError(f"cannot create {path}: the folder {p.parent} is not writable")
        return
    try:
        with open(p, "rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head and head != _SQLITE_MAGIC:
        raise StoreError(f"{path} is not an ndd-desktop collection (not an SQLite file)")
    if not os.access(p, os.W_OK):
        raise StoreError(f"{path} is read-only; ndd-desktop needs to write to its collection file")
    if not os.access(p.parent, os.W_OK):
        raise StoreError(f"the folder of {path} is not writable; SQLite keeps its journal files "
                         "next to the collection file")
    if head:
        _refuse_foreign(p)


def _refuse_foreign(p: Path) -> None:
    """Refuse an SQLite file that is not a collection, read-only: the engine's connections
    switch a file to WAL mode, which would change a foreign file before it is refused."""
    try:
        conn = sqlite3.connect(f"{p.absolute().as_uri()}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the collection {p}: {_reason(exc)}") from None
    if tables and "alembic_version" not in tables:
        raise StoreError(f"{p} is an SQLite file but not an ndd-desktop collection")


def current_revision(engine: Engine) -> str | None:
    """The schema revision stored in the file, None for an empty file.

    Raises:
        StoreError: for an SQLite file that is not an ndd-desktop store.
    """
    try:
        with engine.connect() as conn:
            tables = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))}
            if not tables:
                return None
            if "alembic_version" not in tables:
                raise StoreError("this SQLite file is not an ndd-desktop collection")
            row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
            return row[0] if row else None
    except StoreError:
        raise
    except Exception as exc:  # sqlite3.DatabaseError: "file is not a database", ...
        raise StoreError(f"cannot open the collection: {_reason(exc)}") from None


def schema_number(revision: str) -> int:
    """The schema number of a revision id ("0002" -> 2); unknown ids count as newer."""
    try:
        return int(revision)
    except ValueError:
        return 10**9


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the schema to ``target`` (default: the newest) with the packaged migrations.

    Raises:
        StoreError: when the store was written by a newer release.
    """
    current = current_revision(engine)
    if current is not None and schema_number(current) > schema_number(HEAD_REVISION):
        raise StoreError(
            f"this collection was written by a newer or another ndd-desktop (schema {current!r}, this "
            f"release knows up to {HEAD_REVISION!r}); upgrade to open it"
        )
    wanted = HEAD_REVISION if target == "head" else target
    if current == wanted:
        return  # the common case: no alembic import at all
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.connect() as conn:
        cfg.attributes["connection"] = conn
        try:
            command.upgrade(cfg, target)
        except Exception as exc:
            raise StoreError(f"cannot upgrade the collection: {_reason(exc)}") from None
        conn.commit()


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).splitlines()[0]
