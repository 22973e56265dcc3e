"""``check_collection``: is a collection file whole? (SQLite integrity, schema, counts.)

Reads the file with SQLite's read-only mode and changes nothing, not even the journal
mode, so it is safe on a damaged file, on read-only media and on another program's file.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from .engine import (
    HEAD_REVISION, SQLITE_MAGIC, announced_size, disk_io_from_full_disk, free_space, schema_number, unread_journal,
)
from ._sql import dec_path
from .text_reading import read_only_uri

#: The tables of a collection, in the order ``ndd repair`` saves them (review first).
TABLES = ("decisions", "settings", "roots", "files", "documents", "text_dictionaries", "document_text",
          "email_headers", "sketches", "pair_sets", "pairs", "scan_runs")
#: Every table ``ndd check`` counts: those a repair saves, and the kept answers (a cache a
#: repair leaves behind: the next scan finds them again).
CHECKED = (*TABLES, "content_facts")
#: Tables added by a later schema, with the schema number that added them.
_SINCE = {"settings": 4, "email_headers": 5, "text_dictionaries": 7, "content_facts": 9}
#: How many problems ``PRAGMA integrity_check`` lists at most.
MAX_PROBLEMS = 50


@dataclass
class CheckReport:
    """What :func:`check_collection` found; ``ok`` when nothing is wrong."""

    path: str
    problems: list[str] = field(default_factory=list)
    revision: str | None = None
    counts: dict[str, int | None] = field(default_factory=dict)  # None: the table could not be counted
    integrity: list[str] = field(default_factory=list)
    disk_full: bool = False  # the problems are those of a full disk: the file may be whole
    newer: bool = False  # written by a newer release: not damaged, as far as this one can tell

    @property
    def ok(self) -> bool:
        return not self.problems


def connect_read_only(path: str) -> sqlite3.Connection:
    """An SQLite connection that cannot change ``path`` (immutable when its folder is read-only)."""
    immutable = not os.access(Path(path).absolute().parent, os.W_OK)
    return sqlite3.connect(read_only_uri(path, immutable), uri=True)


def folders_of(path: str) -> list[str]:
    """The scanned folders of the collection at ``path``, in their order, read without
    changing it; [] when they cannot be read (a missing or foreign file)."""
    try:
        conn = connect_read_only(str(path))
    except sqlite3.Error:
        return []
    try:
        rows = conn.execute("SELECT path FROM roots ORDER BY position").fetchall()
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    return [dec_path(r[0]) for r in rows]


def _full_disk(report: CheckReport, path: str) -> None:
    """Mark a report whose problems may be a full disk's (SQLite's "disk I/O error" with
    almost no space left): the file may be whole, and a repair is no answer."""
    if any(disk_io_from_full_disk(p.lower(), free_space(path)) for p in report.problems):
        report.disk_full = True


def check_collection(path: str) -> CheckReport:
    """Check the collection file at ``path`` without changing it."""
    report = CheckReport(path=str(path))
    p = Path(path)
    if not p.is_file():
        report.problems.append(f"no collection file at {path}")
        return report
    with open(p, "rb") as fh:
        head = fh.read(100)
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        report.problems.append("not an SQLite file (its first bytes are not SQLite's header): "
                               "nothing can be read from it")
        return report
    announced = announced_size(head)
    if announced and p.stat().st_size < announced:
        report.problems.append(f"the file is cut short: {p.stat().st_size:,} bytes of the "
                               f"{announced:,} its header announces")
    try:
        conn = connect_read_only(str(p))
    except sqlite3.Error as exc:
        report.problems.append(f"SQLite cannot open it: {exc}")
        _full_disk(report, str(p))
        return report
    try:
        _check_open(conn, report)
    finally:
        conn.close()
    _full_disk(report, str(p))
    unread = unread_journal(str(p), os.access(p.absolute().parent, os.W_OK))
    if unread:  # the file may be whole, and still not all the collection
        report.problems.append(unread)
    return report


def _check_open(conn: sqlite3.Connection, report: CheckReport) -> None:
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        report.problems.append(f"its list of tables cannot be read: {exc}")
        return
    if "alembic_version" not in tables:
        report.problems.append("an SQLite file, but not an ndd-desktop collection (no schema version)")
        return
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        report.revision = row[0] if row else None
    except sqlite3.Error as exc:
        report.problems.append(f"the schema version cannot be read: {exc}")
    if report.revision is not None and schema_number(report.revision) > schema_number(HEAD_REVISION):
        report.problems.append(f"schema {report.revision} is newer than this release knows ({HEAD_REVISION})")
        report.newer = True
    try:
        rows = conn.execute(f"PRAGMA integrity_check({MAX_PROBLEMS})").fetchall()
        report.integrity = [line for r in rows for line in str(r[0]).splitlines()]
    except sqlite3.Error as exc:
        report.integrity = [str(exc)]
    if report.integrity != ["ok"]:
        report.problems.append(f"SQLite's integrity check failed ({len(report.integrity)} problem(s) listed)")
    for table in CHECKED:
        if table not in tables:
            since = _SINCE.get(table)  # a table of a later schema is not missing from an older file
            if since is None or report.revision is None or schema_number(report.revision) >= since:
                report.problems.append(f"the table {table} is missing")
            continue
        try:
            report.counts[table] = int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
        except sqlite3.Error as exc:
            report.counts[table] = None
            report.problems.append(f"the table {table} cannot be read to the end: {exc}")
    try:
        bad = conn.execute("PRAGMA foreign_key_check").fetchall()
    except sqlite3.Error:
        bad = []
    if bad:
        report.problems.append(f"{len(bad)} row(s) refer to rows that are gone (foreign key check)")
