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
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import QueuePool, StaticPool

from .text_codec import TEXT_ERRORS
from .text_reading import BUSY_TIMEOUT_S, read_only_uri
from .types import StoreDamaged, StoreError, StoreFull, StoreNotThere, StoreReadOnly

#: The newest schema revision this code knows (alembic revision ids are 4-digit numbers).
HEAD_REVISION = "0009"
#: The first schema revision (tests create a store at it and upgrade).
FIRST_REVISION = "0001"
BUSY_TIMEOUT_MS = int(BUSY_TIMEOUT_S * 1000)
#: Page size of a new file (SQLite's default is 4096): a stored text of 1-3 KB leaves a
#: third of a 4 KB page unused on average, of a 16 KB page a few percent.
PAGE_SIZE = 16_384
#: The first schema that stores texts compactly: a file upgraded from before it is
#: rewritten (VACUUM) with PAGE_SIZE pages once its migration has run.
COMPACT_REVISION = "0007"
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: Connections the pool keeps open (the window's thread, a regroup, a version order, a scan).
POOL_SIZE = 4
SQLITE_MAGIC = b"SQLite format 3\x00"


def _connect_hook(read_only: bool, max_pages: int | None):
    """The per-connection set-up: pragmas (no journal change on a read-only file)."""

    def on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        # We emit BEGIN ourselves (see _on_begin); pysqlite's own handling is switched off.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not read_only:
            cur.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # only a new, empty file takes it
            cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        if max_pages is not None:
            # A cap on the file's size: writes past it fail with SQLITE_FULL exactly as on
            # a full disk (how the tests fill a disk deterministically).
            cur.execute(f"PRAGMA max_page_count = {int(max_pages)}")
        cur.close()

    return on_connect


def _on_begin(conn) -> None:
    options = conn.get_execution_options()
    # Review decisions are synced to disk at commit (FULL); scan batches only at
    # checkpoints (NORMAL): a power cut may lose the last batch, never a decision.
    conn.exec_driver_sql("PRAGMA synchronous = FULL" if options.get("ndd_durable") else "PRAGMA synchronous = NORMAL")
    if options.get("ndd_write"):
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        conn.exec_driver_sql("BEGIN")


def make_engines(path: str, *, read_only: bool = False, immutable: bool = False,
                 max_pages: int | None = None) -> tuple[Engine, Engine, Engine]:
    """Reading, writing and durable-writing engines (one pool) for a path or ``":memory:"``.

    ``read_only`` opens the file with SQLite's ``mode=ro`` (``immutable`` when its folder
    cannot hold SQLite's shared-memory file); ``max_pages`` caps the file's size.
    """
    if path == ":memory:":
        engine = create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        uri = read_only_uri(path, immutable) if read_only else Path(path).absolute().as_uri()

        def connect() -> sqlite3.Connection:
            return sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)

        # A pool: each operation checks a connection out for itself alone (safe from the GUI
        # thread and a worker alike) and hands it back; a few are kept open, because opening
        # one (and its pragmas) cost more than many small reads (the version order of 50,000
        # groups reads 50,000 times). Beyond POOL_SIZE at once, extra ones are opened and closed.
        engine = create_engine("sqlite://", poolclass=QueuePool, pool_size=POOL_SIZE, max_overflow=-1,
                               creator=connect)
    event.listen(engine, "connect", _connect_hook(read_only, max_pages))
    event.listen(engine, "begin", _on_begin)
    return engine, engine.execution_options(ndd_write=True), engine.execution_options(ndd_write=True, ndd_durable=True)


def check_file(path: str, create: bool) -> tuple[bool, bool]:
    """Refuse a path that is not an SQLite file, or a missing one when not creating.

    Returns (file writable, folder writable) for an existing file, (True, True) otherwise.
    """
    if path == ":memory:":
        return True, True
    p = Path(path)
    file_there(path, create)
    if not p.exists():
        if not p.parent.exists():
            raise StoreNotThere(f"folder {p.parent} does not exist")
        if not os.access(p.parent, os.W_OK):
            raise StoreError(f"cannot create {path}: the folder {p.parent} is not writable")
        return True, True
    try:
        with open(p, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    head = header[:16]
    cut_short(path, header)
    if head and head != SQLITE_MAGIC:
        raise StoreError(f"{path} is not an ndd-desktop collection (not an SQLite file)")
    if not head and not create:  # opened as a collection, never written (or emptied): refused as it is,
        # where SQLite would make a new collection of it and the window showed it as opened
        raise StoreError(f"{path} is empty (0 bytes): not an ndd-desktop collection; a copy or download "
                         "that failed leaves such a file: open the original")
    folder_writable = os.access(p.parent, os.W_OK)
    if head:
        _refuse_foreign(p, immutable=not folder_writable)
    return os.access(p, os.W_OK), folder_writable


def announced_size(header: bytes) -> int | None:
    """The size in bytes an SQLite file's first 100 bytes say it has (its page count times
    its page size; None: no SQLite header, or none it can be read from)."""
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return None
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size  # how the header writes 64 KB pages
    pages = int.from_bytes(header[28:32], "big")
    if page_size < 512 or page_size & (page_size - 1) or not pages:
        return None
    return pages * page_size


def cut_short(path: str, header: bytes) -> None:
    """Refuse (StoreDamaged) a file shorter than its header says it is: a copy or download
    that stopped. SQLite opens such a file and reads what is there: every command ran on
    it with documents missing (an export left out 89 of 300 letters, listed nowhere), and a
    scan wrote into it and hid the damage. Not while a write-ahead log lies beside it: a
    checkpoint stopped half-way leaves the file short until SQLite finishes it from the log."""
    announced = announced_size(header)
    if announced is None or header[24:28] != header[92:96]:  # no size, or one not kept up to date
        return
    try:
        size = os.path.getsize(path)
        log = os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0
    except OSError:
        return
    if size < announced and not log:
        raise StoreDamaged(
            f"the collection file {path} is cut short ({size:,} bytes of the {announced:,} its header "
            "announces: a copy or download that stopped?); nothing was read from it. Open the original, or run "
            f"'ndd repair --db {path} --to NEW_FILE' to save what can be saved (review decisions first)")


def file_there(path: str, create: bool = False) -> None:
    """Refuse (StoreNotThere) a path that is a folder, or a missing file when not creating:
    what every command says of such a ``--db``, ``ndd check`` and ``ndd repair`` too."""
    p = Path(path)
    if p.is_dir():
        raise StoreNotThere(f"{path} is a folder, not a collection file")
    if not create and not p.exists():
        raise StoreNotThere(f"no collection file at {path}")


def unread_journal(path: str, folder_writable: bool) -> str:
    """Why some of the collection's latest changes cannot be read ("" when all can): its
    folder is read-only, so SQLite opens it as immutable and cannot read a write-ahead log
    left beside it (a process that ended before folding it in)."""
    if path == ":memory:" or folder_writable:
        return ""
    try:
        size = os.path.getsize(path + "-wal")
    except OSError:
        return ""
    if size == 0:
        return ""
    return (f"its latest changes are in {path}-wal ({size:,} bytes), which cannot be read where the folder is "
            "read-only: copy the collection file with its -wal and -shm files to a writable folder to see them")


def _refuse_foreign(p: Path, immutable: bool) -> None:
    """Refuse an SQLite file that is not a collection, read-only: the engine's connections
    switch a file to WAL mode, which would change a foreign file before it is refused."""
    try:
        conn = sqlite3.connect(read_only_uri(str(p), immutable), uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise translate(exc, str(p)) from None
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
        raise translate(exc, _engine_path(engine)) from None


def schema_number(revision: str) -> int:
    """The schema number of a revision id ("0002" -> 2); unknown ids count as newer."""
    try:
        return int(revision)
    except ValueError:
        return 10**9


def upgrade(engine: Engine, target: str = "head", *, read_only: bool = False, path: str = "") -> None:
    """Bring the schema to ``target`` (default: the newest) with the packaged migrations.

    Raises:
        StoreError: when the store was written by a newer release, or needs an upgrade
            but was opened read-only.
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
    if read_only:
        raise StoreReadOnly(
            f"{path} is read-only and was written by an older release (schema {current!r}); its schema must "
            f"be brought to {wanted!r}, which writes to the file: copy it to a writable folder to open it"
        )
    if current is None and wanted == HEAD_REVISION:
        # a new file: the newest schema in one script (store.new_schema), no alembic
        from .new_schema import create

        with engine.connect() as conn:
            create(conn.connection.dbapi_connection)
        return
    upgrade_by_migrations(engine, target)
    if current is not None and schema_number(current) < schema_number(COMPACT_REVISION) <= schema_number(wanted):
        compact(engine)


def upgrade_by_migrations(engine: Engine, target: str) -> None:
    """Run the packaged migrations up to ``target``."""
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


def compact(engine: Engine) -> None:
    """Rewrite the file with PAGE_SIZE pages and no free pages (VACUUM), giving back the
    space an upgrade freed. Needs the file to itself and room for a copy of it; when
    either is missing the file stays as it is (larger, equally sound)."""
    raw = engine.raw_connection()
    try:
        cur = raw.cursor()
        try:
            cur.execute("PRAGMA journal_mode = DELETE")  # WAL files keep their page size
            cur.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            cur.execute("VACUUM")
        except sqlite3.Error:
            pass
        finally:
            cur.execute("PRAGMA journal_mode = WAL")
            cur.close()
    finally:
        raw.close()


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).splitlines()[0]


def _engine_path(engine: Engine) -> str:
    return str(engine.url.database or "the collection file")


#: SQLite's words for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB).
_DAMAGE_WORDS = ("malformed", "file is not a database", "corrupt", "no such table", "no such column")


#: Free bytes under which SQLite's "disk I/O error" is taken for a full disk: its shared
#: memory file (-shm) takes 32 KB and cannot be made, and SQLite says "disk I/O error".
NEARLY_FULL_BYTES = 1 << 20


def free_space(path: str) -> int | None:
    """Free bytes of the disk holding ``path`` (None: not known)."""
    import shutil

    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(path)) or ".").free
    except OSError:
        return None


def disk_io_from_full_disk(reason: str, free: int | None) -> bool:
    """Whether SQLite's ``reason`` (lower case) is a full disk in disguise: "disk I/O error"
    with less than :data:`NEARLY_FULL_BYTES` free. Every command and ``ndd check`` then said
    the collection file was damaged and advised a repair, though it was whole."""
    return "disk i/o error" in reason and free is not None and free < NEARLY_FULL_BYTES


def translate(exc: BaseException, path: str) -> StoreError:
    """A database failure as the store's error, with a message that names the file and
    what to do: a damaged file (``ndd check``, ``ndd repair``), a full disk, a read-only file."""
    if isinstance(exc, StoreError):
        return exc
    reason = _reason(exc)
    low = reason.lower()
    if isinstance(exc, TEXT_ERRORS) or any(w in low for w in _DAMAGE_WORDS):
        return StoreDamaged(
            f"the collection file {path} is damaged ({reason}); nothing more was read from it. Run "
            f"'ndd check --db {path}' to see what is wrong and 'ndd repair --db {path} --to NEW_FILE' "
            "to save what can be saved (review decisions first)"
        )
    if "full" in low or disk_io_from_full_disk(low, free_space(path)):
        return StoreFull(
            f"cannot write to the collection file {path}: the disk is full ({reason}); what was saved "
            "before is kept: free some space and run the same command again"
        )
    if "readonly" in low or "read-only" in low:
        return StoreReadOnly(
            f"the collection file {path} is read-only ({reason}); it can be read but not changed: "
            "copy it to a writable folder to scan or review"
        )
    return StoreError(f"cannot use the collection file {path}: {reason}")


#: What :func:`guarded` turns into a StoreError: SQLite's failures (IntegrityError, a
#: broken constraint, stays what it is: it is a bug, not a bad file), and a stored text
#: that does not decompress.
_TRANSLATED = (sqlite3.DatabaseError, sa_exc.DatabaseError, *TEXT_ERRORS)


@contextmanager
def guarded(path: str) -> Iterator[None]:
    """Translate SQLite failures inside the block into StoreError (see :func:`translate`)."""
    try:
        yield
    except (sqlite3.IntegrityError, sa_exc.IntegrityError):
        raise
    except _TRANSLATED as exc:
        raise translate(exc, path) from exc
