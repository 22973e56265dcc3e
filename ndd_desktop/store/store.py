"""``Store``: one collection file, used from any thread, one short transaction per call.

The Store owns the connection (engines, transactions, damage handling); what it holds is
read and written through narrow interfaces, one per concern, each an attribute:
``store.documents`` (:class:`~.documents.Documents`), ``store.pairs``
(:class:`~.pairs.Pairs`), ``store.sketches`` (:class:`~.sketches.Sketches`),
``store.scans`` (:class:`~.scans.Scans`), ``store.review`` (:class:`~.review.Review`),
``store.settings`` (:class:`~.settings.Settings`), ``store.emails``
(:class:`~.email.Emails`) and ``store.facts`` (:class:`~.facts.Facts`). A caller names the one it needs.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import Connection

from . import engine as _engine
from .documents import Documents
from .email import Emails
from .facts import Facts
from .pairs import Pairs
from .review import Review
from .scans import Scans
from .settings import Settings
from .sketch_spool import SketchSpool
from .sketches import Sketches
from .text_codec import TextCodec
from .types import StoreReadOnly


class Store:
    """A collection: roots, documents, sketches, pairs, review decisions, scan runs and settings.

    Open with :meth:`open`. Every method of its interfaces opens its own short
    transaction, so one Store can serve the GUI thread and a scan worker at once; plain
    dataclasses come out.
    """

    documents: Documents
    pairs: Pairs
    sketches: Sketches
    scans: Scans
    review: Review
    settings: Settings
    emails: Emails

    def __init__(self, path: str, engine, write_engine, durable_engine, read_only: bool = False) -> None:
        self.path = path
        #: Opened for reading only (read-only media or permissions): every write raises
        #: StoreReadOnly, reads work as usual.
        self.read_only = read_only
        #: why some of the latest changes cannot be read ("" when all can): see ``engine.unread_journal``
        self.unread_changes = ""
        self._engine = engine
        self._wengine = write_engine
        self._dengine = durable_engine
        #: The collection's text dictionaries, cached (store.text_codec).
        self._codec = TextCodec()
        #: Sketches of sketch_from_text methods made during this session's scan, by
        #: (method, sketch key) and document id, until its pair stage takes them (see
        #: Sketches.load); in temporary files (store.sketch_spool), not in memory.
        self._carried: dict[tuple[str, str], SketchSpool] = {}
        self.documents = Documents(self)
        self.pairs = Pairs(self)
        self.sketches = Sketches(self)
        self.scans = Scans(self)
        self.review = Review(self)
        self.settings = Settings(self)
        self.emails = Emails(self)
        self.facts = Facts(self)

    @classmethod
    def open(cls, path: str | os.PathLike, *, create: bool = True, revision: str = "head",
             read_only: bool | None = None, max_pages: int | None = None) -> "Store":
        """Open (or create) the collection at ``path`` and bring its schema up to date.

        ``":memory:"`` gives a private in-memory store. ``revision`` is for tests of the
        migrations only. ``read_only``: None opens a file read-only when it or its folder is
        not writable (read-only media), True always; a read-only store reads as usual and
        raises StoreReadOnly on any write. ``max_pages`` caps the file's size in SQLite
        pages (writes past it fail as on a full disk; for tests).

        Raises:
            StoreError: a missing file (when ``create`` is false), a file that is not a
                collection, an unreadable or damaged one (StoreDamaged), one written by a
                newer release, or an older one opened read-only.
        """
        path = str(path)
        if path != ":memory:":
            path = os.path.abspath(path)
        file_ok, folder_ok = _engine.check_file(path, create)
        if read_only is None:
            read_only = not (file_ok and folder_ok)
        read_only = bool(read_only) and path != ":memory:" and os.path.exists(path)
        eng, weng, deng = _engine.make_engines(path, read_only=read_only, immutable=not folder_ok,
                                               max_pages=max_pages)
        try:
            with _engine.guarded(path):
                _engine.upgrade(weng, revision, read_only=read_only, path=path)
        except BaseException:
            eng.dispose()
            raise
        store = cls(path, eng, weng, deng, read_only)
        store.unread_changes = _engine.unread_journal(path, folder_ok) if read_only else ""
        return store

    def close(self) -> None:
        """Release the database connections (the Store is unusable afterwards); the review's
        copy beside the file takes the decisions it does not hold yet first."""
        self.review.flush_copy()  # (never raises: a copy that cannot be written is left as it was)
        self._drop_carried()
        self._engine.dispose()

    def _carry(self, method: str, sketch_key: str) -> SketchSpool:
        """The spool of the sketches this session's scan made for (method, sketch key)."""
        spool = self._carried.get((method, sketch_key))
        if spool is None:
            spool = self._carried[(method, sketch_key)] = SketchSpool()
        return spool

    def _drop_carried(self) -> None:
        """Let the held sketches go (their files are deleted)."""
        for spool in self._carried.values():
            spool.close()
        self._carried.clear()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.path!r})"

    # -- transactions ---------------------------------------------------------------------
    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection in a read transaction (a consistent snapshot in WAL mode)."""
        with _engine.guarded(self.path), self._engine.connect() as conn:
            yield conn

    @contextmanager
    def _write(self, durable: bool = False) -> Iterator[Connection]:
        """A connection in a write transaction (BEGIN IMMEDIATE), committed on success.

        ``durable``: the commit is synced to disk before returning (review decisions, settings).
        A failure (damaged file, full disk) rolls the transaction back and raises StoreError.
        """
        if self.read_only:
            raise StoreReadOnly(f"the collection file {self.path} is open read-only (read-only media or "
                                "permissions): nothing can be changed; copy it to a writable folder to scan or review")
        with _engine.guarded(self.path), (self._dengine if durable else self._wengine).begin() as conn:
            yield conn

    def schema_revision(self) -> str | None:
        """The schema revision of the file (``"0006"``)."""
        with _engine.guarded(self.path):
            return _engine.current_revision(self._engine)

    def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` result ("ok" when healthy)."""
        with self._read() as conn:
            rows = conn.exec_driver_sql("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)
