"""The scan job's side of the store: file states, batched document writes, sketches, pairs.

These are for ``ndd_desktop.pipeline`` (the single writer during a scan); the window and
the command line read through the functions in ``store.py``, ``pairs.py`` and
``decisions.py``. Each write call is one transaction, so a scan killed at any moment
leaves every earlier batch whole and nothing of the batch in flight.
"""

from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ._sql import chunks, dec_path, enc_path, placeholders
from .email import email_row

#: zlib level for stored texts: most of the gain of level 6 at several times the speed.
TEXT_COMPRESSION = 1


def encode_text(text: str) -> bytes:
    """A document's text in its stored form (what :meth:`ScanWriteMixin.texts` decodes).

    The scan's extraction workers call it, so that compressing runs in parallel there and
    not in the one process that writes."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), TEXT_COMPRESSION)


@dataclass(frozen=True)
class KnownFile:
    """A file as the last scan recorded it."""

    file_id: int
    root: str
    relpath: str
    size: int
    mtime_ns: int
    xxh128: str | None
    retry: bool = False  # it failed for one of the reasons the scan asked to retry


@dataclass(frozen=True)
class KnownDocument:
    """The parts of a stored document the scan needs to decide what to redo."""

    doc_id: int
    file_id: int
    root: str
    relpath: str
    xxh128: str
    status: str


@dataclass
class DocWrite:
    """One extracted document to record (see :meth:`ScanWriteMixin.write_documents`).

    ``doc_id`` is the row to update (same path, or a moved document), None for a new one;
    ``text`` is written when given (``text_blob``, when also given, is that text already
    in its stored form, see :func:`encode_text`); ``sketch`` is stored under the method and key of the
    call when given; ``content_changed`` drops the document's old sketches of every method.
    """

    root: str
    file_relpath: str
    file_size: int
    file_mtime_ns: int
    file_xxh128: str | None
    relpath: str
    container: str | None
    size: int
    mtime_ns: int
    date: float | None
    format: str
    xxh128: str
    sha256: str
    text_length: int
    status: str
    reason: str
    doc_id: int | None = None
    text: str | None = None
    sketch: bytes | None = None
    content_changed: bool = False
    text_blob: bytes | None = None
    #: threading headers of an e-mail message (keys of ``store.email.HEADER_KEYS``); None: not a message
    email: dict | None = None


PAIR_INSERT_CHUNK = 50_000


def _nullable(arr: np.ndarray | None, part: slice, n: int) -> list:
    """A column slice as a list with NaN (or a missing column) as None."""
    if arr is None:
        return [None] * len(range(n)[part])
    return [None if v != v else v for v in np.asarray(arr[part], dtype=np.float64).tolist()]


def _next_id(cur, table: str) -> int:
    """The largest id an AUTOINCREMENT table has ever handed out (its next is one more)."""
    used = cur.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()[0]
    seq = cur.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
    return max(used, seq[0] if seq else 0)


def _known_doc(r) -> KnownDocument:
    return KnownDocument(r[0], r[1], dec_path(r[2]), dec_path(r[3]), r[4], r[5])


class ScanWriteMixin:
    """Scan-side methods of :class:`~ndd_desktop.store.Store`."""

    # -- reading the state the scan compares against -------------------------------------
    def root_ids(self) -> dict[str, int]:
        """Root path -> root id."""
        with self._read() as conn:
            return {dec_path(p): i for p, i in conn.exec_driver_sql("SELECT path, id FROM roots")}

    def known_files(self, retry_reasons: Sequence[str] = ()) -> dict[tuple[str, str], KnownFile]:
        """Every recorded file, keyed by (root path, relative path); ``retry`` set on those
        with a failed document whose reason begins with one of ``retry_reasons``."""
        # the files to retry in one pass over the failed documents, not a correlated
        # subquery per file (a rescan's plan reads every file row: this is most of it)
        starts = " OR ".join("substr(reason, 1, ?) = ?" for _ in retry_reasons) or "0"
        args = tuple(x for r in retry_reasons for x in (len(r), r))
        with self._read() as conn:
            retry = {r[0] for r in conn.exec_driver_sql(
                f"SELECT DISTINCT file_id FROM documents WHERE status = 'error' AND ({starts})", args)}
            roots = {i: dec_path(p) for i, p in conn.exec_driver_sql("SELECT id, path FROM roots")}
            cur = conn.connection.dbapi_connection.cursor()  # plain tuples: a row per file
            rows = cur.execute("SELECT id, root_id, relpath, size, mtime_ns, xxh128 FROM files").fetchall()
            cur.close()
        out = {}
        for file_id, root_id, relpath, size, mtime_ns, xxh in rows:
            root, rel = roots[root_id], dec_path(relpath)
            out[(root, rel)] = KnownFile(file_id, root, rel, size, mtime_ns, xxh, file_id in retry)
        return out

    def documents_of_files(self, file_ids: Iterable[int]) -> list[KnownDocument]:
        """The stored documents of the given files."""
        out: list[KnownDocument] = []
        with self._read() as conn:
            for part in chunks(list(file_ids)):
                rows = conn.exec_driver_sql(
                    "SELECT d.id, d.file_id, r.path, d.relpath, d.xxh128, d.status FROM documents d "
                    f"JOIN roots r ON r.id = d.root_id WHERE d.file_id IN ({placeholders(len(part))})",
                    tuple(part),
                ).fetchall()
                out.extend(_known_doc(r) for r in rows)
        return out

    def documents_at(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], KnownDocument]:
        """Stored documents at the given (root path, relative path) keys."""
        ids = self.root_ids()
        by_root: dict[int, list[str]] = {}
        for root, rel in keys:
            if root in ids:
                by_root.setdefault(ids[root], []).append(rel)
        out: dict[tuple[str, str], KnownDocument] = {}
        with self._read() as conn:
            for root_id, rels in by_root.items():
                for part in chunks(rels):
                    rows = conn.exec_driver_sql(
                        "SELECT d.id, d.file_id, r.path, d.relpath, d.xxh128, d.status FROM documents d "
                        "JOIN roots r ON r.id = d.root_id "
                        f"WHERE d.root_id = ? AND d.relpath IN ({placeholders(len(part))})",
                        (root_id, *(enc_path(p) for p in part)),
                    ).fetchall()
                    for r in rows:
                        kd = _known_doc(r)
                        out[(kd.root, kd.relpath)] = kd
        return out

    def sketched(self, doc_ids: Iterable[int], method: str, sketch_key: str) -> set[int]:
        """Which of the documents have a sketch for the method and key."""
        found: set[int] = set()
        with self._read() as conn:
            for part in chunks(list(doc_ids)):
                rows = conn.exec_driver_sql(
                    f"SELECT doc_id FROM sketches WHERE method = ? AND sketch_key = ? AND doc_id IN ({placeholders(len(part))})",
                    (method, sketch_key, *part),
                ).fetchall()
                found.update(r[0] for r in rows)
        return found

    def unsketched(self, method: str, sketch_key: str) -> list[int]:
        """Ids of documents with text that lack a sketch for the method and key."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT d.id FROM documents d WHERE d.status = 'ok' AND NOT EXISTS "
                "(SELECT 1 FROM sketches s WHERE s.doc_id = d.id AND s.method = ? AND s.sketch_key = ?) ORDER BY d.id",
                (method, sketch_key),
            ).fetchall()
        return [r[0] for r in rows]

    def texts(self, doc_ids: Sequence[int]) -> dict[int, str]:
        """Extracted texts of the given documents (those that have one)."""
        out: dict[int, str] = {}
        with self._read() as conn:
            for part in chunks(list(doc_ids)):
                rows = conn.exec_driver_sql(
                    f"SELECT doc_id, data FROM document_text WHERE doc_id IN ({placeholders(len(part))})", tuple(part)
                ).fetchall()
                for doc_id, data in rows:
                    out[doc_id] = zlib.decompress(data).decode("utf-8", "surrogatepass")
        return out

    def sketch_inventory(self, method: str, sketch_key: str) -> tuple[np.ndarray, list[str], np.ndarray]:
        """(doc ids, content hashes, reference flags) of the ok documents with a sketch, by id."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT d.id, d.xxh128, r.reference FROM sketches s JOIN documents d ON d.id = s.doc_id "
                "JOIN roots r ON r.id = d.root_id WHERE s.method = ? AND s.sketch_key = ? AND d.status = 'ok' ORDER BY d.id",
                (method, sketch_key),
            ).fetchall()
        ids = np.array([r[0] for r in rows], dtype=np.int64)
        refs = np.array([bool(r[2]) for r in rows], dtype=bool)
        return ids, [r[1] for r in rows], refs

    def load_sketches(
        self, method: str, sketch_key: str, decode: Callable[[bytes], Any] | None = None
    ) -> tuple[np.ndarray, list, np.ndarray, np.ndarray]:
        """(doc ids, sketches, dates (NaN unknown), reference flags) of sketched ok documents, by id.

        The sketches are the stored bytes, or ``decode(bytes)`` of each when given (decoded
        row by row, so the bytes of all sketches are never held at once).
        """
        with self._read() as conn:
            cur = conn.exec_driver_sql(
                "SELECT d.id, s.data, d.date, r.reference FROM sketches s JOIN documents d ON d.id = s.doc_id "
                "JOIN roots r ON r.id = d.root_id WHERE s.method = ? AND s.sketch_key = ? AND d.status = 'ok' ORDER BY d.id",
                (method, sketch_key),
            )
            ids, blobs, dates, refs = [], [], [], []
            for doc_id, data, date, ref in cur:
                ids.append(doc_id)
                blobs.append(data if decode is None else decode(data))
                dates.append(np.nan if date is None else date)
                refs.append(bool(ref))
        return (
            np.array(ids, dtype=np.int64),
            blobs,
            np.array(dates, dtype=np.float64),
            np.array(refs, dtype=bool),
        )

    def pair_set_input(self, method: str, pairs_key: str) -> str | None:
        """The input hash recorded with a pair set (None when there is no such set)."""
        with self._read() as conn:
            row = conn.exec_driver_sql(
                "SELECT input_hash FROM pair_sets WHERE method = ? AND pairs_key = ?", (method, pairs_key)
            ).first()
        return None if row is None else row[0]

    # -- writing ------------------------------------------------------------------------
    def write_documents(
        self, docs: Sequence[DocWrite], method: str, sketch_key: str, keep_ids: set[int] | None = None
    ) -> list[int]:
        """Record a batch of extracted documents with their files, texts and sketches.

        In one transaction: upsert each document's file row, insert or update the
        document (a moved document keeps its id, sketches and decisions), replace its text
        and sketch where given, then drop documents of the touched files that this scan
        did not produce (ids in ``keep_ids`` were written earlier in the same scan).
        Returns the document ids, in the order of ``docs``.
        """
        keep = set(keep_ids or ())
        with self._write() as conn:
            # The raw sqlite3 cursor, inside the same transaction, and one executemany per
            # kind of row: per-row statements cost ~25 us each, three per document.
            cur = conn.connection.dbapi_connection.cursor()
            root_ids = {dec_path(p): i for p, i in cur.execute("SELECT path, id FROM roots")}
            file_ids = self._upsert_files(cur, docs, root_ids)
            new = [n for n, d in enumerate(docs) if d.doc_id is None]
            ids = [d.doc_id for d in docs]
            # AUTOINCREMENT's next ids, given explicitly (this transaction is the only writer)
            next_id = _next_id(cur, "documents")
            for k, n in enumerate(new):
                ids[n] = next_id + 1 + k
            rows, updates, dropped, texts, sketches, headers, written = [], [], [], [], [], [], []
            for d, doc_id in zip(docs, ids):
                root_id = root_ids[d.root]
                values = (
                    file_ids[(root_id, d.file_relpath)], root_id, enc_path(d.relpath), enc_path(d.container), d.size,
                    d.mtime_ns, d.date, d.format, d.xxh128, d.sha256, d.text_length, d.status, d.reason,
                )
                if d.doc_id is None:
                    rows.append((doc_id, *values))
                else:
                    updates.append((*values, doc_id))
                    written.append((doc_id,))  # a new id has no headers to replace
                    if d.content_changed:
                        dropped.append((doc_id,))
                if d.text is not None:
                    texts.append((doc_id, d.text_blob if d.text_blob is not None else encode_text(d.text)))
                if d.sketch is not None:
                    sketches.append((doc_id, method, sketch_key, d.sketch))
                keep.add(doc_id)
                if d.email is not None:
                    headers.append((doc_id, *email_row(d.email)))
            if updates:
                cur.executemany(
                    "UPDATE documents SET file_id = ?, root_id = ?, relpath = ?, container = ?, size = ?, "
                    "mtime_ns = ?, date = ?, format = ?, xxh128 = ?, sha256 = ?, text_length = ?, status = ?, "
                    "reason = ? WHERE id = ?",
                    updates,
                )
            if rows:
                cur.executemany(
                    "INSERT INTO documents (id, file_id, root_id, relpath, container, size, mtime_ns, date, format, "
                    "xxh128, sha256, text_length, status, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
            if dropped:
                cur.executemany("DELETE FROM sketches WHERE doc_id = ?", dropped)
                cur.executemany("DELETE FROM document_text WHERE doc_id = ?", dropped)
            # a document's headers are those of its latest extraction (none when it is no message)
            if written:
                cur.executemany("DELETE FROM email_headers WHERE doc_id = ?", written)
            if headers:
                cur.executemany(
                    "INSERT INTO email_headers (doc_id, message_id, in_reply_to, refs, subject, sender, date_text) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", headers)
            if texts:
                cur.executemany("INSERT OR REPLACE INTO document_text (doc_id, data) VALUES (?, ?)", texts)
            if sketches:
                cur.executemany(
                    "INSERT OR REPLACE INTO sketches (doc_id, method, sketch_key, data) VALUES (?, ?, ?, ?)", sketches
                )
            stale = []
            for part in chunks(sorted(set(file_ids.values()))):
                stale += [r[0] for r in cur.execute(
                    f"SELECT id FROM documents WHERE file_id IN ({placeholders(len(part))})", tuple(part)) if r[0] not in keep]
            for part in chunks(stale):
                cur.execute(f"DELETE FROM documents WHERE id IN ({placeholders(len(part))})", tuple(part))
            cur.close()
        return ids

    @staticmethod
    def _upsert_files(cur, docs: Sequence[DocWrite], root_ids: dict[str, int]) -> dict[tuple[int, str], int]:
        """Record the file row of each document (the first document of a file gives its
        size, time and hash); (root id, relative path) -> file id."""
        rows: dict[tuple[int, str], tuple] = {}
        for d in docs:
            key = (root_ids[d.root], d.file_relpath)
            if key not in rows:
                rows[key] = (d.file_size, d.file_mtime_ns, d.file_xxh128)
        found: dict[tuple[int, str], int] = {}
        by_root: dict[int, list[str]] = {}
        for root_id, rel in rows:
            by_root.setdefault(root_id, []).append(rel)
        for root_id, rels in by_root.items():
            for part in chunks(rels):
                for rel, file_id in cur.execute(
                    f"SELECT relpath, id FROM files WHERE root_id = ? AND relpath IN ({placeholders(len(part))})",
                    (root_id, *(enc_path(p) for p in part)),
                ):
                    found[(root_id, dec_path(rel))] = file_id
        cur.executemany("UPDATE files SET size = ?, mtime_ns = ?, xxh128 = ? WHERE id = ?",
                        [(*rows[key], file_id) for key, file_id in found.items()])
        fresh = [key for key in rows if key not in found]
        if fresh:
            next_id = _next_id(cur, "files")
            for k, key in enumerate(fresh):
                found[key] = next_id + 1 + k
            cur.executemany(
                "INSERT INTO files (id, root_id, relpath, size, mtime_ns, xxh128) VALUES (?, ?, ?, ?, ?, ?)",
                [(found[key], key[0], enc_path(key[1]), *rows[key]) for key in fresh],
            )
        return found

    def put_sketches(self, method: str, sketch_key: str, items: Sequence[tuple[int, bytes]]) -> None:
        """Store sketches of existing documents (one transaction)."""
        if not items:
            return
        with self._write() as conn:
            conn.exec_driver_sql(
                "INSERT OR REPLACE INTO sketches (doc_id, method, sketch_key, data) VALUES (?, ?, ?, ?)",
                [(int(i), method, sketch_key, blob) for i, blob in items],
            )

    def touch_files(self, items: Sequence[tuple[int, int, int]]) -> None:
        """Update (file id, size, mtime_ns) of files whose content was confirmed unchanged."""
        if items:
            with self._write() as conn:
                conn.exec_driver_sql("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", [(s, m, f) for f, s, m in items])

    def remove_files(self, file_ids: Sequence[int]) -> int:
        """Forget files that are gone (their documents, texts and sketches go with them).

        Pairs that mention a removed document are dropped from every pair set. Returns
        the number of documents removed. Review decisions are kept.
        """
        removed = 0
        with self._write() as conn:
            for part in chunks(list(file_ids)):
                marks = placeholders(len(part))
                removed += conn.exec_driver_sql(
                    f"SELECT COUNT(*) FROM documents WHERE file_id IN ({marks})", tuple(part)
                ).scalar_one()
                conn.exec_driver_sql(f"DELETE FROM files WHERE id IN ({marks})", tuple(part))
            if removed:
                self._drop_dangling_pairs(conn)
        return removed

    @staticmethod
    def _drop_dangling_pairs(conn) -> None:
        conn.exec_driver_sql(
            "DELETE FROM pairs WHERE a NOT IN (SELECT id FROM documents) OR b NOT IN (SELECT id FROM documents)"
        )
        conn.exec_driver_sql("UPDATE pair_sets SET count = (SELECT COUNT(*) FROM pairs WHERE set_id = pair_sets.id)")

    def replace_pairs(
        self,
        method: str,
        pairs_key: str,
        sketch_key: str,
        params: dict,
        floor: float,
        input_hash: str,
        columns: dict[str, np.ndarray],
        complete_from: float | None = None,
        on_chunk: Callable[[int], None] | None = None,
    ) -> int:
        """Atomically replace the pair set of (method, pairs_key) with new pairs.

        ``columns`` holds parallel arrays ``a, b, score, cont_ab, cont_ba, hamming, estimate`` (NaN
        is stored as NULL). ``complete_from``: see :class:`PairSet`. Readers see the old
        set until the transaction commits. ``on_chunk(rows_written)`` is called after each
        slice of rows; if it raises, nothing is written (a cancelled scan keeps the old set).
        """
        n = int(columns["a"].shape[0])
        with self._write() as conn:
            conn.exec_driver_sql(
                "INSERT INTO pair_sets (method, pairs_key, sketch_key, params, floor, count, input_hash, created, "
                "complete_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (method, pairs_key) DO UPDATE SET "
                "sketch_key = excluded.sketch_key, params = excluded.params, floor = excluded.floor, "
                "count = excluded.count, input_hash = excluded.input_hash, created = excluded.created, "
                "complete_from = excluded.complete_from",
                (method, pairs_key, sketch_key, json.dumps(params, sort_keys=True), float(floor), n, input_hash,
                 time.time(), None if complete_from is None else float(complete_from)),
            )
            set_id = conn.exec_driver_sql(
                "SELECT id FROM pair_sets WHERE method = ? AND pairs_key = ?", (method, pairs_key)
            ).scalar_one()
            conn.exec_driver_sql("DELETE FROM pairs WHERE set_id = ?", (set_id,))
            # Rows are built a slice at a time so memory stays bounded for big pair sets.
            for start in range(0, n, PAIR_INSERT_CHUNK):
                part = slice(start, start + PAIR_INSERT_CHUNK)
                rows = zip(
                    [set_id] * (min(n, start + PAIR_INSERT_CHUNK) - start),
                    columns["a"][part].tolist(), columns["b"][part].tolist(),
                    columns["score"][part].astype(float).tolist(),
                    *(_nullable(columns.get(name), part, n) for name in ("cont_ab", "cont_ba", "hamming", "estimate")),
                )
                conn.exec_driver_sql(
                    "INSERT INTO pairs (set_id, a, b, score, cont_ab, cont_ba, hamming, estimate) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    list(rows),
                )
                if on_chunk is not None:
                    on_chunk(min(n, start + PAIR_INSERT_CHUNK))
        return n

    # -- scan runs ------------------------------------------------------------------------
    def begin_run(self, method: str, params: dict, pairs_key: str, floor: float) -> int:
        """Record the start of a scan; earlier runs still marked running become interrupted."""
        with self._write() as conn:
            conn.exec_driver_sql("UPDATE scan_runs SET status = 'interrupted' WHERE status = 'running'")
            return conn.exec_driver_sql(
                "INSERT INTO scan_runs (started, status, method, params, pairs_key, floor, documents, new, changed, "
                "unchanged, removed, errors, pairs, message) VALUES (?, 'running', ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, '') "
                "RETURNING id",
                (time.time(), method, json.dumps(params, sort_keys=True), pairs_key, float(floor)),
            ).scalar_one()

    def end_run(self, run_id: int, status: str, counts: dict[str, int], message: str = "") -> None:
        """Record the end of a scan with its counts (keys as ScanRun's count fields)."""
        fields = ("documents", "new", "changed", "unchanged", "removed", "errors", "pairs")
        sets = ", ".join(f"{f} = ?" for f in fields)
        with self._write() as conn:
            conn.exec_driver_sql(
                f"UPDATE scan_runs SET finished = ?, status = ?, message = ?, {sets} WHERE id = ?",
                (time.time(), status, message, *(int(counts.get(f, 0)) for f in fields), run_id),
            )
