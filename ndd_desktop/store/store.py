"""``Store``: one collection file, used from any thread, one short transaction per call."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from typing import Iterator, Sequence

from sqlalchemy import Connection

from . import engine as _engine
from ._sql import DOC_COLUMNS, DOC_FROM, chunks, dec_path, doc_from_row, enc_path, placeholders
from .decisions import DecisionsMixin
from .email import EmailMixin
from .pairs import PairsMixin
from .review_transfer import ReviewTransferMixin
from .scanwrite import ScanWriteMixin
from .settings import SettingsMixin
from .text_codec import TextCodec, dictionary_fetcher
from .types import DocumentInfo, Root, ScanRun, StoreError, StoreReadOnly


class Store(PairsMixin, DecisionsMixin, ReviewTransferMixin, ScanWriteMixin, SettingsMixin, EmailMixin):
    """A collection: roots, documents, sketches, pairs, review decisions, scan runs and settings.

    Open with :meth:`open`. Every method opens its own short transaction, so one Store can
    serve the GUI thread and a scan worker at once; plain dataclasses come out.
    """

    def __init__(self, path: str, engine, write_engine, durable_engine, read_only: bool = False) -> None:
        self.path = path
        #: Opened for reading only (read-only media or permissions): every write raises
        #: StoreReadOnly, reads work as usual.
        self.read_only = read_only
        self._engine = engine
        self._wengine = write_engine
        self._dengine = durable_engine
        #: The collection's text dictionaries, cached (store.text_codec).
        self._codec = TextCodec()
        #: Sketches of sketch_from_text methods made during this session's scan, by
        #: (method, sketch key) and document id, until its pair stage takes them (see
        #: ScanWriteMixin.load_sketches).
        self._carried: dict[tuple[str, str], dict[int, bytes]] = {}

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
        return cls(path, eng, weng, deng, read_only)

    def close(self) -> None:
        """Release the database connections (the Store is unusable afterwards)."""
        self._engine.dispose()

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

    # -- roots ----------------------------------------------------------------------------
    def roots(self) -> list[Root]:
        """The collection's roots in the order they were given."""
        with self._read() as conn:
            rows = conn.exec_driver_sql("SELECT path, reference FROM roots ORDER BY position, id").fetchall()
        return [Root(dec_path(path), bool(ref)) for path, ref in rows]

    def set_roots(self, roots: Sequence[Root]) -> int:
        """Replace the roots; documents under a root no longer listed are removed (their
        number is returned)."""
        paths = [r.path for r in roots]
        if len(set(paths)) != len(paths):
            raise StoreError("a root is listed twice")
        removed = 0
        with self._write() as conn:
            existing = {dec_path(p): i for p, i in conn.exec_driver_sql("SELECT path, id FROM roots")}
            for path, root_id in existing.items():
                if path not in paths:
                    removed += conn.exec_driver_sql(
                        "SELECT COUNT(*) FROM documents WHERE root_id = ?", (root_id,)).scalar_one()
                    conn.exec_driver_sql("DELETE FROM roots WHERE id = ?", (root_id,))
            for pos, root in enumerate(roots):
                if root.path in existing:
                    conn.exec_driver_sql(
                        "UPDATE roots SET reference = ?, position = ? WHERE id = ?",
                        (bool(root.reference), pos, existing[root.path]),
                    )
                else:
                    conn.exec_driver_sql(
                        "INSERT INTO roots (path, reference, position) VALUES (?, ?, ?)",
                        (enc_path(root.path), bool(root.reference), pos),
                    )
        return removed

    # -- documents ------------------------------------------------------------------------
    def documents(self, ids: Sequence[int] | None = None, *, status: str | None = "ok") -> list[DocumentInfo]:
        """Documents by id (all when ``ids`` is None), filtered by status (None: any), by id."""
        where, args = ([], [])
        if status is not None:
            where.append("d.status = ?")
            args.append(status)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        with self._read() as conn:
            if ids is None:
                rows = conn.exec_driver_sql(f"SELECT {DOC_COLUMNS} FROM {DOC_FROM}{clause} ORDER BY d.id", tuple(args)).fetchall()
            else:
                rows = []
                joiner = " AND " if where else " WHERE "
                for part in chunks(list(ids)):
                    sql = f"SELECT {DOC_COLUMNS} FROM {DOC_FROM}{clause}{joiner}d.id IN ({placeholders(len(part))})"
                    rows.extend(conn.exec_driver_sql(sql, tuple(args) + tuple(part)).fetchall())
                rows.sort(key=lambda r: r[0])
        return [doc_from_row(r) for r in rows]

    def document(self, doc_id: int) -> DocumentInfo:
        """One document by id (any status).

        Raises:
            KeyError: no such document.
        """
        with self._read() as conn:
            row = conn.exec_driver_sql(f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.id = ?", (int(doc_id),)).first()
        if row is None:
            raise KeyError(doc_id)
        return doc_from_row(row)

    def document_text(self, doc_id: int) -> str | None:
        """The extracted (not normalised) text of a document, None when there is none."""
        with self._read() as conn:  # a damaged text does not decompress: StoreDamaged
            row = conn.exec_driver_sql("SELECT data FROM document_text WHERE doc_id = ?", (int(doc_id),)).first()
            return None if row is None else self._codec.decoder(dictionary_fetcher(conn))(row[0])

    def errors(self) -> list[DocumentInfo]:
        """Every file or document that was skipped or failed (status != "ok"), by path."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.status != 'ok' ORDER BY r.position, d.relpath"
            ).fetchall()
        return [doc_from_row(r) for r in rows]

    def count_documents(self, status: str | None = "ok") -> int:
        """How many documents there are (of one status, or all with None)."""
        with self._read() as conn:
            if status is None:
                return int(conn.exec_driver_sql("SELECT COUNT(*) FROM documents").scalar_one())
            return int(conn.exec_driver_sql("SELECT COUNT(*) FROM documents WHERE status = ?", (status,)).scalar_one())

    # -- scan runs ------------------------------------------------------------------------
    def scans(self) -> list[ScanRun]:
        """All scan runs, newest first."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, started, finished, status, method, params, pairs_key, floor, documents, new, "
                "changed, unchanged, removed, errors, pairs, message FROM scan_runs ORDER BY id DESC"
            ).fetchall()
        return [
            ScanRun(
                id=r[0], started=r[1], finished=r[2], status=r[3], method=r[4], params=json.loads(r[5]),
                pairs_key=r[6], floor=r[7], documents=r[8], new=r[9], changed=r[10], unchanged=r[11],
                removed=r[12], errors=r[13], pairs=r[14], message=r[15],
            )
            for r in rows
        ]

    def last_method(self) -> tuple[str, dict] | None:
        """(method name, params dict) of the newest finished scan (else the newest scan)."""
        runs = self.scans()
        if not runs:
            return None
        finished = [r for r in runs if r.status == "finished"]
        run = finished[0] if finished else runs[0]
        return run.method, dict(run.params)
