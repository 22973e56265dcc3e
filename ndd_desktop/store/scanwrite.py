"""The SQL of the scan's bulk writes: a batch of documents, a pair set, files that are gone.

Each function runs inside the one write transaction its caller opened
(``store.scans.write_documents``, ``store.pairs.replace``, ``store.scans.remove_files``),
so a scan killed at any moment leaves every earlier batch whole and nothing of the batch
in flight.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from sqlalchemy import Connection

from ..core.methods import get_method
from ._sql import chunks, dec_path, enc_path, placeholders
from .email import email_row
from .originals import ORIGINAL, is_original
from .text_codec import TextCodec, encode_texts


def sketch_from_text(method: str) -> bool:
    """Whether the store keeps only a mark for this method's sketches (Method.sketch_from_text)."""
    try:
        return bool(get_method(method).sketch_from_text)
    except KeyError:  # a name no method has (tests): bytes are stored as given
        return False


@dataclass
class DocWrite:
    """One extracted document to record (see :func:`write_documents`).

    ``doc_id`` is the row to update (same path, or a moved document), None for a new one;
    ``text`` is written when given (only a mark when the text is the document's own file,
    ``store.originals``), or ``text_blob``, the text as stored, already compressed with the
    collection's current dictionary (``store.text_codec``) or the mark, by an extraction worker; ``sketch`` is stored under the method and key of the
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
    text_blob: bytes | None = None
    sketch: bytes | None = None
    content_changed: bool = False
    #: threading headers of an e-mail message (keys of ``store.email.HEADER_KEYS``); None: not a message
    email: dict | None = None


PAIR_INSERT_CHUNK = 50_000

# A document's sketch and text replace any it had. An upsert, not INSERT OR REPLACE: with
# foreign keys on, REPLACE runs the delete's foreign key checks on every row even when there
# is nothing to replace (a first scan's 20,000 sketches: 13 us a row against 6).
PUT_SKETCH = ("INSERT INTO sketches (doc_id, method, sketch_key, data) VALUES (?, ?, ?, ?) "
              "ON CONFLICT (doc_id, method, sketch_key) DO UPDATE SET data = excluded.data")
PUT_TEXT = ("INSERT INTO document_text (doc_id, data) VALUES (?, ?) "
            "ON CONFLICT (doc_id) DO UPDATE SET data = excluded.data")


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


def write_documents(
    conn: Connection, docs: Sequence[DocWrite], method: str, sketch_key: str, keep_ids: set[int] | None = None,
    *, codec: TextCodec, carried: dict[tuple[str, str], dict[int, bytes]], carry: dict[int, bytes],
    gone: list[int] | None = None,
) -> list[int]:
    """Record a batch of extracted documents with their files, texts and sketches.

    In the caller's transaction: upsert each document's file row, insert or update the
    document (a moved document keeps its id, sketches and decisions), replace its text
    and sketch where given, then drop documents of the touched files that this scan
    did not produce (ids in ``keep_ids`` were written earlier in the same scan).
    Returns the document ids, in the order of ``docs``.

    Texts are compressed with the collection's ``codec``. For a method whose sketches are
    made from the text (``sketch_from_text``) only a mark is stored and the sketch goes into
    ``carry`` (the caller hands it to the pair stage once the transaction has committed);
    ``carried`` (sketches held from earlier batches) loses those of changed documents.
    ``gone``, when given, receives the ids of the documents dropped that way (a member no
    longer in its archive).
    """
    keep = set(keep_ids or ())
    # The raw sqlite3 cursor, inside the same transaction, and one executemany per kind of
    # row: per-row statements cost ~25 us each, three per document.
    cur = conn.connection.dbapi_connection.cursor()
    root_ids = {dec_path(p): i for p, i in cur.execute("SELECT path, id FROM roots")}
    file_ids, recorded = _upsert_files(cur, docs, root_ids)
    new = [n for n, d in enumerate(docs) if d.doc_id is None]
    ids = [d.doc_id for d in docs]
    # AUTOINCREMENT's next ids, given explicitly (this transaction is the only writer)
    next_id = _next_id(cur, "documents")
    for k, n in enumerate(new):
        ids[n] = next_id + 1 + k
    derived = sketch_from_text(method)
    rows, updates, dropped, texts, text_ids, sketches, headers, written = [], [], [], [], [], [], [], []
    blobs: list[tuple[int, bytes]] = []
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
                for held in carried.values():  # a sketch of the old content
                    held.pop(doc_id, None)
        if d.text_blob is not None:
            blobs.append((doc_id, d.text_blob))
        elif d.text is not None and is_original(d.text, container=d.container, size=d.size, xxh128=d.xxh128):
            blobs.append((doc_id, ORIGINAL))  # the file is the text: read from it when asked
        elif d.text is not None:
            texts.append(d.text)
            text_ids.append(doc_id)
        if d.sketch is not None:
            if derived:  # a mark in the file, the sketch in memory for the pair stage
                carry[doc_id] = d.sketch
            sketches.append((doc_id, method, sketch_key, b"" if derived else d.sketch))
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
        blobs += zip(text_ids, encode_texts(cur, codec, texts))
    if blobs:
        cur.executemany(PUT_TEXT, blobs)
    if sketches:
        cur.executemany(PUT_SKETCH, sketches)
    stale = []
    # only a file recorded before this batch can hold documents this scan did not produce
    for part in chunks(sorted(recorded)):
        stale += [r[0] for r in cur.execute(
            f"SELECT id FROM documents WHERE file_id IN ({placeholders(len(part))})", tuple(part)) if r[0] not in keep]
    for part in chunks(stale):
        cur.execute(f"DELETE FROM documents WHERE id IN ({placeholders(len(part))})", tuple(part))
    if gone is not None:
        gone.extend(stale)
    cur.close()
    return ids


def _upsert_files(cur, docs: Sequence[DocWrite],
                  root_ids: dict[str, int]) -> tuple[dict[tuple[int, str], int], set[int]]:
    """Record the file row of each document (the first document of a file gives its size,
    time and hash): ((root id, relative path) -> file id, the ids of the files that were
    recorded before)."""
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
    recorded = set(found.values())
    fresh = [key for key in rows if key not in found]
    if fresh:
        next_id = _next_id(cur, "files")
        for k, key in enumerate(fresh):
            found[key] = next_id + 1 + k
        cur.executemany(
            "INSERT INTO files (id, root_id, relpath, size, mtime_ns, xxh128) VALUES (?, ?, ?, ?, ?, ?)",
            [(found[key], key[0], enc_path(key[1]), *rows[key]) for key in fresh],
        )
    return found, recorded


def remove_files(conn: Connection, file_ids: Sequence[int]) -> int:
    """Forget files that are gone (their documents, texts and sketches go with them).

    Pairs that mention a removed document are dropped from every pair set. Returns
    the number of documents removed. Review decisions are kept.
    """
    removed = 0
    for part in chunks(list(file_ids)):
        marks = placeholders(len(part))
        removed += conn.exec_driver_sql(
            f"SELECT COUNT(*) FROM documents WHERE file_id IN ({marks})", tuple(part)
        ).scalar_one()
        conn.exec_driver_sql(f"DELETE FROM files WHERE id IN ({marks})", tuple(part))
    if removed:
        drop_dangling_pairs(conn)
    return removed


def drop_dangling_pairs(conn: Connection) -> None:
    """Delete the pairs that mention a document no longer stored, and recount every pair set."""
    conn.exec_driver_sql(
        "DELETE FROM pairs WHERE a NOT IN (SELECT id FROM documents) OR b NOT IN (SELECT id FROM documents)"
    )
    conn.exec_driver_sql("UPDATE pair_sets SET count = (SELECT COUNT(*) FROM pairs WHERE set_id = pair_sets.id)")


def replace_pairs(
    conn: Connection,
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
    """Replace the pair set of (method, pairs_key) with new pairs, in the caller's transaction.

    ``columns`` holds parallel arrays ``a, b, score, cont_ab, cont_ba, hamming, estimate`` (NaN
    is stored as NULL). ``complete_from``: see :class:`PairSet`. Readers see the old
    set until the transaction commits. ``on_chunk(rows_written)`` is called after each
    slice of rows; if it raises, nothing is written (a cancelled scan keeps the old set).
    """
    n = int(columns["a"].shape[0])
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
