"""``repair_collection``: save what can be read from a damaged collection into a new file.

The damaged file is only read (SQLite's read-only mode). A fresh collection file is
created with the current schema, and the tables are copied one at a time, the review
first (decisions, settings: what no rescan can give back), then roots, files, documents,
texts (their dictionaries first), pair sets, pairs and the scan log. Texts are kept only
when they decompress (the zstd frame's checksum, or zlib's in an older file, tells a
garbled one). Sketches are not copied: a damaged page can garble one
without SQLite noticing, and a garbled sketch gives wrong scores silently; the next scan
sketches every document again from its stored text (no file is read for that) and
recomputes the pairs. Each table is read in row id order;
when SQLite meets a damaged page, the copy goes on row by row past it, so one bad page
costs the rows on it, not the table.

Afterwards the new file is made consistent for the next scan: rows whose parent was lost
go, a document whose text was lost goes with its file's record (so the next scan extracts
that file again), and pair sets forget their input digest when anything under them was
lost (so the next scan recomputes the pairs). Decisions are never dropped: they name their
documents' content, and a scan re-attaches them when that content is found again.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from typing import Callable

from . import review_copy
from .check import TABLES, connect_read_only
from .engine import announced_size
from .originals import ORIGINAL
from .text_codec import TEXT_ERRORS, TextCodec, dictionary_fetcher
from .types import StoreError

#: Rows read and written at a time.
BATCH = 2000
#: AUTOINCREMENT tables, whose counters keep ids from being reused.
_SEQUENCED = ("files", "documents", "decisions")
#: Tables an older schema does not have (nothing to save, nothing lost).
_LATER = ("settings", "email_headers", "text_dictionaries")


@dataclass
class RepairReport:
    """What :func:`repair_collection` saved and lost, per table."""

    source: str
    dest: str
    copied: dict[str, int] = field(default_factory=dict)
    #: Rows not saved (in damaged pages, or garbled values the schema refused): the
    #: table's count less the rows copied; None when the damaged file cannot count them.
    lost: dict[str, int | None] = field(default_factory=dict)
    #: Tables that could not be read at all, with SQLite's reason.
    unreadable: dict[str, str] = field(default_factory=dict)
    #: Rows copied but then dropped because what they belong to was lost.
    dropped: dict[str, int] = field(default_factory=dict)
    #: The new file's ``PRAGMA integrity_check``.
    integrity: str = ""
    #: How the damaged file was read, when not as it is (a file cut short).
    notes: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every row was saved."""
        return (all(n == 0 for n in self.lost.values()) and not self.unreadable
                and not any(self.dropped.values()))


def repair_collection(source: str, dest: str) -> RepairReport:
    """Copy what can be read from the collection ``source`` into a new collection ``dest``.

    Raises:
        StoreError: ``dest`` exists, or ``source`` cannot be opened by SQLite at all.
    """
    source, dest = os.path.abspath(source), os.path.abspath(dest)
    if os.path.exists(dest):
        raise StoreError(f"{dest} exists; the repair writes a new collection file (choose another name)")
    if not os.path.isfile(source):
        raise StoreError(f"no collection file at {source}")
    report = RepairReport(source, dest)
    padded = _padded_copy(source, dest, report)  # a file cut short: read as if whole
    try:
        src = connect_read_only(padded or source)
        src.execute("SELECT name FROM sqlite_master").fetchall()
    except sqlite3.Error as exc:
        _remove_copy(padded)
        count = review_copy.copy_count(source)
        kept = (f"; the review is not lost: its copy ({count} decision{'s' if count != 1 else ''}) lies at "
                f"{review_copy.copy_path(source)}: scan the folders into a new collection file, then 'ndd decisions "
                f"import --db NEW_FILE {review_copy.copy_path(source)}'") if count is not None else ""
        raise StoreError(f"nothing can be read from {source}: {exc}{kept}") from None
    try:
        report = _repair_into(src, dest, report)
    finally:
        _remove_copy(padded)
    if report.lost.get("decisions", 0) != 0 or "decisions" in report.unreadable:
        summary = review_copy.copy_summary(source)
        if summary:
            report.notes.append(summary)
    return report


def _remove_copy(path: str | None) -> None:
    """Remove the padded copy and the files SQLite kept beside it."""
    for name in ((path, path + "-wal", path + "-shm") if path else ()):
        if os.path.exists(name):
            os.remove(name)


def _padded_copy(source: str, dest: str, report: RepairReport) -> str | None:
    """A copy of ``source`` beside ``dest`` extended with zero bytes to the size its header
    announces, when the file is cut short (an interrupted copy or download): SQLite refuses
    such a file whole ("database disk image is malformed") although most of its pages, the
    review among them, are there. None when the file is not cut short."""
    with open(source, "rb") as fh:
        announced = announced_size(fh.read(100))
    size = os.path.getsize(source)
    if announced is None or size >= announced:
        return None
    if announced > min(16 * size, 1 << 32):  # a header that cannot be this file's
        return None
    copy = dest + ".cut-short-source"
    with open(source, "rb") as src, open(copy, "wb") as out:
        while chunk := src.read(1 << 20):
            out.write(chunk)
        out.truncate(announced)  # the missing pages read as empty ones
    report.notes.append(f"the file is cut short ({size:,} bytes of the {announced:,} its header announces): "
                        "it was read as if the missing bytes were empty")
    return copy


#: The name a repair writes under until it is done: a repair stopped half-way left a file
#: at the destination that ``ndd check`` called whole, with no documents in it.
UNFINISHED_SUFFIX = ".repairing"


def _repair_into(src: sqlite3.Connection, dest: str, report: RepairReport) -> RepairReport:
    from .store import Store  # the fresh file gets the current schema the usual way

    work = dest + UNFINISHED_SUFFIX
    _remove_copy(work)  # what a repair stopped before left
    Store.open(work, create=True).close()
    out = sqlite3.connect(work)
    out.isolation_level = None
    try:
        out.execute("PRAGMA foreign_keys = OFF")  # parents may be lost; _make_consistent tidies up
        for table in TABLES:
            if table != "sketches":  # derived data, made again by the next scan (see above)
                _copy_table(src, out, table, report)
        _make_consistent(out, report)
        _keep_counters(src, out)
        report.integrity = "\n".join(str(r[0]) for r in out.execute("PRAGMA integrity_check"))
        out.execute("PRAGMA journal_mode = DELETE")  # nothing left beside the file to carry along
    finally:
        out.close()
        src.close()
    os.replace(work, dest)  # the destination appears whole, or not at all
    _remove_copy(work)
    return report


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _copy_table(src: sqlite3.Connection, out: sqlite3.Connection, table: str, report: RepairReport) -> None:
    try:
        have = set(_columns(src, table))
    except sqlite3.Error as exc:
        report.unreadable[table] = str(exc)
        return
    if not have:
        report.unreadable[table] = "the table is missing" if table not in _LATER else ""
        if not report.unreadable[table]:
            del report.unreadable[table]  # an older schema without it: nothing to save
        return
    cols = [c for c in _columns(out, table) if c in have]  # an older schema has fewer columns
    names = ", ".join(cols)
    select = f"SELECT rowid, {names} FROM {table}"
    insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(cols))})"
    copied = last = 0
    # texts are checked against the dictionaries already copied (text_dictionaries comes first)
    decode = TextCodec().decoder(dictionary_fetcher(out)) if table == "document_text" else None
    try:  # the fast way: one pass in row id order
        cursor = src.execute(select + " ORDER BY rowid")
        while rows := cursor.fetchmany(BATCH):
            copied += _insert(out, insert, _sound(rows, decode))
            last = rows[-1][0]
    except sqlite3.Error:
        # A damaged page: go on row by row after the last row read, up to the highest row id.
        copied += _copy_by_rowid(src, out, table, select, insert, last, decode)
    report.copied[table] = copied
    try:  # a count can often be had from an index when the table's own pages are damaged
        total = int(src.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
        report.lost[table] = max(total - copied, 0)
    except sqlite3.Error:
        report.lost[table] = None


def _sound(rows: list[tuple], decode: Callable[[bytes], str] | None) -> list[tuple]:
    """The rows without their row id, less texts that do not decompress (``decode``
    given: rows of document_text)."""
    if decode is None:
        return [r[1:] for r in rows]
    kept = []
    for r in rows:
        if r[2] == ORIGINAL:  # the mark of a text read from its file (store.originals)
            kept.append(r[1:])
            continue
        try:
            decode(r[2])  # (rowid, doc_id, data)
        except (*TEXT_ERRORS, TypeError, UnicodeDecodeError):
            continue
        kept.append(r[1:])
    return kept


def _insert(out: sqlite3.Connection, insert: str, rows: list[tuple]) -> int:
    """Write rows in one transaction; if one is refused (a garbled value that breaks a
    constraint), write them one at a time and skip the refused ones. Returns how many
    were written."""
    try:
        out.execute("BEGIN")
        out.executemany(insert, rows)
        out.execute("COMMIT")
        return len(rows)
    except sqlite3.Error:
        out.execute("ROLLBACK")
    written = 0
    out.execute("BEGIN")
    for row in rows:
        try:
            out.execute(insert, row)
            written += 1
        except sqlite3.Error:
            continue
    out.execute("COMMIT")
    return written


def _highest_rowid(src: sqlite3.Connection, table: str, last: int) -> int:
    """The highest row id to try: from the table, else its AUTOINCREMENT counter, else
    a margin past the last row read."""
    for sql in (f"SELECT MAX(rowid) FROM {table}", "SELECT seq FROM sqlite_sequence WHERE name = ?"):
        try:
            row = src.execute(sql, (table,) if "?" in sql else ()).fetchone()
            if row and row[0] is not None:
                return int(row[0])
        except sqlite3.Error:
            continue
    return last + 100_000


def _copy_by_rowid(src, out, table: str, select: str, insert: str, last: int,
                   decode: Callable[[bytes], str] | None) -> int:
    """Read row after row by id from ``last + 1``; a row whose page is damaged is lost.
    Returns how many rows were written."""
    top = _highest_rowid(src, table, last)
    written = 0
    batch: list[tuple] = []
    for rowid in range(last + 1, top + 1):
        try:
            row = src.execute(select + " WHERE rowid = ?", (rowid,)).fetchone()
        except sqlite3.Error:
            continue
        if row is not None:
            batch.extend(_sound([row], decode))
        if len(batch) >= BATCH:
            written += _insert(out, insert, batch)
            batch = []
    if batch:
        written += _insert(out, insert, batch)
    return written


#: Rows whose parent was lost, deleted in this order (children of documents last, since
#: documents themselves may go in the step before).
_ORPHANS = (
    ("files", "root_id NOT IN (SELECT id FROM roots)"),
    ("documents", "root_id NOT IN (SELECT id FROM roots) OR file_id NOT IN (SELECT id FROM files)"),
    ("document_text", "doc_id NOT IN (SELECT id FROM documents)"),
    ("email_headers", "doc_id NOT IN (SELECT id FROM documents)"),
    ("sketches", "doc_id NOT IN (SELECT id FROM documents)"),
    ("pairs", "set_id NOT IN (SELECT id FROM pair_sets) OR a NOT IN (SELECT id FROM documents) "
              "OR b NOT IN (SELECT id FROM documents)"),
)


def _make_consistent(out: sqlite3.Connection, report: RepairReport) -> None:
    out.execute("BEGIN")
    # A readable document whose text was lost cannot be compared again: it goes, with every
    # document of its file and the file's record, so the next scan extracts the file anew.
    textless = ("SELECT file_id FROM documents WHERE status = 'ok' AND text_length > 0 "
                "AND id NOT IN (SELECT doc_id FROM document_text)")
    # So does a document whose row came back garbled from a damaged page yet passed the
    # schema: a status no scan writes, or a readable document without its content hash (it
    # was kept as "\x00\x00" with no hashes and its file never read again)
    garbled = ("SELECT file_id FROM documents WHERE status NOT IN ('ok', 'skipped', 'error') "
               "OR (status = 'ok' AND (length(xxh128) != 32 OR length(sha256) != 64))")
    n = out.execute(f"DELETE FROM files WHERE id IN ({textless} UNION {garbled})").rowcount
    if n:
        report.dropped["files"] = report.dropped.get("files", 0) + n
    for table, where in _ORPHANS:
        n = out.execute(f"DELETE FROM {table} WHERE {where}").rowcount
        if n:
            report.dropped[table] = report.dropped.get(table, 0) + n
    # A file whose documents were all lost would pass the next scan as unchanged: its
    # record goes, so the scan extracts it again.
    n = out.execute("DELETE FROM files WHERE id NOT IN (SELECT file_id FROM documents)").rowcount
    if n:
        report.dropped["files"] = report.dropped.get("files", 0) + n
    # The next scan sketches again and so must compare again: no digest matches.
    out.execute("UPDATE pair_sets SET input_hash = ''")
    out.execute("UPDATE pair_sets SET count = (SELECT COUNT(*) FROM pairs WHERE pairs.set_id = pair_sets.id)")
    out.execute("COMMIT")


def _keep_counters(src: sqlite3.Connection, out: sqlite3.Connection) -> None:
    """Carry the AUTOINCREMENT counters over, so no id of a lost row is ever given again
    (a decision about a lost document must not come to name a new one)."""
    try:
        seqs = dict(src.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    except sqlite3.Error:
        seqs = {}
    out.execute("BEGIN")
    for table in _SEQUENCED:
        try:
            (top,) = out.execute(f"SELECT COALESCE(MAX(id), 0) FROM {table}").fetchone()
        except sqlite3.Error:
            continue
        seq = max(int(seqs.get(table) or 0), int(top))
        if not seq:
            continue
        if out.execute("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (seq, table)).rowcount == 0:
            out.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))
    out.execute("COMMIT")

