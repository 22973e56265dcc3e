"""``store.documents``: the collection's roots and documents, their texts, errors and counts.

What the window, the command line and the export read about documents; the scan writes
them through ``store.scans``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from ..ingest.reasons import PARTIAL, READ_IN_PART
from ._sql import DOC_COLUMNS, DOC_FROM, chunks, dec_path, doc_from_row, enc_path, placeholders, plain_cursor
from .document_table import DocumentTable
from .originals import ORIGINAL, read_original
from .text_reading import original_files, read_texts
from .types import DocumentInfo, Root, StoreError

if TYPE_CHECKING:
    from .store import Store


#: How :meth:`Documents.text_missing` begins for a text kept as its file that the file no
#: longer gives (unreadable, gone, or changed since the scan).
ORIGINAL_MISSING = "its text is read from"


class Documents:
    """Roots and documents of a :class:`~ndd_desktop.store.Store` (``store.documents``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    # -- roots ----------------------------------------------------------------------------
    def roots(self) -> list[Root]:
        """The collection's roots in the order they were given."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql("SELECT path, reference FROM roots ORDER BY position, id").fetchall()
        return [Root(dec_path(path), bool(ref)) for path, ref in rows]

    def set_roots(self, roots: Sequence[Root]) -> int:
        """Replace the roots; documents under a root no longer listed are removed (their
        number is returned)."""
        paths = [r.path for r in roots]
        if len(set(paths)) != len(paths):
            raise StoreError("a root is listed twice")
        removed = 0
        with self._db._write() as conn:
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
    def all(self, ids: Sequence[int] | None = None, *, status: str | None = "ok") -> list[DocumentInfo]:
        """Documents by id (all when ``ids`` is None), filtered by status (None: any), by id."""
        return [doc_from_row(r) for r in self._rows(ids, status)]

    def table(self, ids: Sequence[int] | None = None, *, status: str | None = "ok") -> DocumentTable:
        """:meth:`all` as a read-only mapping by id whose documents are made when first
        asked for, with whole columns at once (``store.document_table``): what a view of
        a large pair set reads."""
        return DocumentTable(self._rows(ids, status))

    def _rows(self, ids: Sequence[int] | None, status: str | None) -> list[tuple]:
        """The rows (DOC_COLUMNS) of :meth:`all`, by id."""
        where, args = ([], [])
        if status is not None:
            where.append("d.status = ?")
            args.append(status)
        clause = (" WHERE " + " AND ".join(where)) if where else ""
        # The sqlite3 cursor itself: SQLAlchemy's row objects cost a third of the time of
        # naming the 240,000 documents of a million-document collection's pairs.
        with self._db._read() as conn, plain_cursor(conn) as cur:
            if ids is None:
                sql = f"SELECT {DOC_COLUMNS} FROM {DOC_FROM}{clause} ORDER BY d.id"
                rows = cur.execute(sql, tuple(args)).fetchall()
            else:
                rows = []
                joiner = " AND " if where else " WHERE "
                for part in chunks(list(ids)):
                    sql = f"SELECT {DOC_COLUMNS} FROM {DOC_FROM}{clause}{joiner}d.id IN ({placeholders(len(part))})"
                    rows.extend(cur.execute(sql, tuple(args) + tuple(part)).fetchall())
                rows.sort(key=lambda r: r[0])
        return rows

    def get(self, doc_id: int) -> DocumentInfo:
        """One document by id (any status).

        Raises:
            KeyError: no such document.
        """
        with self._db._read() as conn:
            row = conn.exec_driver_sql(f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.id = ?", (int(doc_id),)).first()
        if row is None:
            raise KeyError(doc_id)
        return doc_from_row(row)

    def text(self, doc_id: int) -> str | None:
        """The extracted (not normalised) text of a document, None when there is none (or
        when it is its original file and that changed since the scan: :meth:`text_missing`)."""
        return self.texts([doc_id]).get(int(doc_id))

    def texts(self, doc_ids: Sequence[int]) -> dict[int, str]:
        """Extracted texts of the given documents (those that have one). A text kept as its
        original file (``store.originals``) is read from the file, when it still holds it."""
        with self._db._read() as conn:  # a damaged text does not decompress: StoreDamaged
            return read_texts(conn, self._db._codec, doc_ids)

    def text_missing(self, doc_id: int) -> str:
        """Why a document shows no text ("" when it has one): no text was extracted, or its
        text is its original file and that is gone or changed since the scan."""
        with self._db._read() as conn:
            row = conn.exec_driver_sql("SELECT data FROM document_text WHERE doc_id = ?", (int(doc_id),)).first()
            if row is None:
                return "no text was extracted from this document"
            if row[0] != ORIGINAL:
                return ""
            found = original_files(conn, [int(doc_id)])
        if not found:
            return "the document is no longer in the collection"
        _, path, size, xxh = found[0]
        text, why = read_original(path, size, xxh)
        return "" if text is not None else f"{ORIGINAL_MISSING} {path}, and {why}: rescan to read it again"

    def fail_for_now(self, reasons: dict[int, str]) -> None:
        """Record documents (id -> reason) as failed for a reason that may pass (the reason
        begins with one of ``ingest.reasons.RETRIED_REASONS``): the next scan reads their
        files again even when their size and time are unchanged."""
        with self._db._write() as conn:
            conn.exec_driver_sql("UPDATE documents SET status = 'error', reason = ? WHERE id = ?",
                                 [(why, int(doc_id)) for doc_id, why in reasons.items()])

    def errors(self, in_part: bool = False) -> list[DocumentInfo]:
        """Every file or document that was skipped or failed (status != "ok"), by path;
        with ``in_part`` also those read only in part (a text cut at the size limit, an OCR
        stopped by its time limit: ``ingest.reasons.READ_IN_PART``), with the status
        ``"partial"``: the rest of their content was never compared."""
        where = "d.status != 'ok'"
        args: tuple = ()
        if in_part:
            where += "".join(" OR (d.status = 'ok' AND instr(d.reason, ?) > 0)" for _ in READ_IN_PART)
            args = READ_IN_PART
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE {where} ORDER BY r.position, d.relpath", args
            ).fetchall()
        docs = [doc_from_row(r) for r in rows]
        return [replace(d, status=PARTIAL) if d.status == "ok" else d for d in docs]

    def largest_copies(self) -> tuple[int, str] | None:
        """The largest family of documents read from the same bytes: (how many, the relative
        path of one of them), or None when no two documents share their bytes."""
        with self._db._read() as conn:
            # with one min() in the query, SQLite takes the bare relpath from the row of the min id
            row = conn.exec_driver_sql(
                "SELECT COUNT(*) AS n, MIN(id), relpath FROM documents WHERE status = 'ok' AND xxh128 != '' "
                "GROUP BY xxh128 ORDER BY n DESC LIMIT 1").fetchone()
        if row is None or row[0] < 2:
            return None
        return int(row[0]), dec_path(row[2])

    def count_kinds(self, formats: tuple[str, ...], suffixes: tuple[str, ...]) -> tuple[int, int]:
        """(how many readable documents are of one of ``formats`` or have a name ending in
        one of ``suffixes`` (ASCII, with the dot, without % or _: ".csv"; in any case), how
        many readable documents there are), in one pass. SQLite's LIKE ignores the case of ASCII letters,
        so the names are not lowered first (which took twice the time of the pass). The
        answer is kept until a document changes (``store.facts``: a rescan that changed
        nothing asks every time, 9 ms at 20,000 documents)."""
        key = f"kinds:{','.join(formats)}|{','.join(suffixes)}"
        kept = self._db.facts.get(key)
        if kept is not None:
            found, total = kept.split("/")
            return int(found), int(total)
        ticket = self._db.facts.ticket(key)
        clauses = (["format IN (%s)" % ", ".join("?" * len(formats))] if formats else []) \
            + ["relpath LIKE ?"] * len(suffixes)
        kinds = " OR ".join(clauses) or "0"
        args = (*formats, *(f"%{s}" for s in suffixes))
        with self._db._read() as conn:
            total, found = conn.exec_driver_sql(
                f"SELECT COUNT(*), COALESCE(SUM({kinds}), 0) FROM documents WHERE status = 'ok'", args).one()
        self._db.facts.settle(key, ticket, f"{int(found)}/{int(total)}")
        return int(found), int(total)

    def count(self, status: str | None = "ok") -> int:
        """How many documents there are (of one status, or all with None)."""
        with self._db._read() as conn:
            if status is None:
                return int(conn.exec_driver_sql("SELECT COUNT(*) FROM documents").scalar_one())
            return int(conn.exec_driver_sql("SELECT COUNT(*) FROM documents WHERE status = ?", (status,)).scalar_one())
