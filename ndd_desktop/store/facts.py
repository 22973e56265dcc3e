"""``store.facts``: answers about the collection's content, kept until that content changes.

An unchanged rescan asks four questions, and the answer to each is a pass over every file
or document row: is every file on disk the one the collection recorded (the plan), does
every document have its sketch, is the stored pair set the one its documents give now,
how many documents are tables or logs (``Documents.count_kinds``, for the scan's note).
Each answer is kept here once found, and forgotten as soon as a row it rests on changes,
whoever writes the row:

- an update or deletion: the schema's triggers (migration 0009) delete the answers at once
  (a change to ``files`` the listing, :data:`LISTING`; a sketch deleted the sketch and pair
  answers; a change to ``documents``, or a root added, removed or given another path or
  reference flag, every answer). A sketch's bytes are no part of an answer;
- a row added to ``files`` or ``documents``: each answer carries the stamp of the moment it
  was found, the AUTOINCREMENT counters of both tables, which every added row raises; an
  answer whose stamp is not the current one is no answer. (A trigger on inserts would do
  the same, but SQLite then writes every row of a table with a unique index more slowly:
  about 5 us a row, a second on a first scan's 20,000 documents.)
- a sketch added to a document that has one for no other reason: :meth:`Sketches.put
  <ndd_desktop.store.sketches.Sketches.put>` forgets the sketch and pair answers itself.

An answer found by a read must not outlive a change made between that read and the
writing of the answer. So the writer first puts a ticket under the answer's key, with the
stamp of that moment (:meth:`Facts.ticket`); the triggers delete tickets with the answers,
and the answer is written only in place of its own ticket (:meth:`Facts.settle`, one write
transaction), with the ticket's stamp.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from .store import Store

#: The key of the listing: the walked files of the last scan whose records match them.
LISTING = "listing"
#: Values that are tickets, not answers, begin with this.
_TICKET = "ticket:"


class Facts:
    """The kept answers of a :class:`~ndd_desktop.store.Store` (``store.facts``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    def get(self, key: str) -> str | None:
        """The answer kept under ``key``; None when there is none, only a ticket, or one
        found before a file or document was added."""
        with self._db._read() as conn:
            row = conn.exec_driver_sql("SELECT value FROM content_facts WHERE key = ?", (key,)).first()
            if row is None or row[0].startswith(_TICKET):
                return None
            stamp, _, answer = row[0].partition("|")
            return answer if stamp == _stamp(conn) else None

    def ticket(self, key: str) -> str | None:
        """Put a ticket under ``key`` before reading what its answer rests on; None on a
        read-only collection (nothing is then kept)."""
        if self._db.read_only:
            return None
        with self._db._write() as conn:
            ticket = f"{_TICKET}{secrets.token_hex(8)}:{_stamp(conn)}"
            _put(conn, key, ticket)
        return ticket

    def settle(self, key: str, ticket: str | None, answer: str) -> bool:
        """Keep ``answer`` under ``key`` if ``ticket`` is still there, that is if nothing it
        rests on changed since the ticket was put. Whether it was kept."""
        if ticket is None:
            return False
        with self._db._write() as conn:
            row = conn.exec_driver_sql("SELECT value FROM content_facts WHERE key = ?", (key,)).first()
            if row is None or row[0] != ticket:
                return False
            _put(conn, key, f"{ticket.rsplit(':', 1)[1]}|{answer}")
        return True


def keep(conn: "Connection", key: str, answer: str) -> None:
    """Keep ``answer`` under ``key``, within the caller's write transaction, in which it
    has checked what the answer rests on."""
    _put(conn, key, f"{_stamp(conn)}|{answer}")


def kept_answers(conn: "Connection") -> list[tuple[str, str]]:
    """The answers (and tickets) other than the listing, to put back with
    :func:`put_back` after updates, in the same write transaction, that change nothing
    they rest on: a document's time and date, which the trigger on ``documents`` cannot
    tell from its other columns (a rescan that found files saved again unchanged)."""
    return [tuple(r) for r in conn.exec_driver_sql(f"SELECT key, value FROM content_facts WHERE key <> '{LISTING}'")]


def put_back(conn: "Connection", answers: list[tuple[str, str]]) -> None:
    """Write ``answers`` (:func:`kept_answers`) again, as they were."""
    for key, value in answers:
        _put(conn, key, value)


def forget_sketch_answers(conn: "Connection") -> None:
    """Forget the answers that rest on the sketches (within the caller's transaction that
    adds sketches: see the module's docstring)."""
    conn.exec_driver_sql(f"DELETE FROM content_facts WHERE key <> '{LISTING}'")


def _put(conn: "Connection", key: str, value: str) -> None:
    conn.exec_driver_sql("INSERT OR REPLACE INTO content_facts (key, value) VALUES (?, ?)", (key, value))


def _stamp(conn: "Connection") -> str:
    """The AUTOINCREMENT counters of ``files`` and ``documents`` now."""
    seq = dict(conn.exec_driver_sql(
        "SELECT name, seq FROM sqlite_sequence WHERE name IN ('files', 'documents')").all())
    return f"{seq.get('files', 0)}/{seq.get('documents', 0)}"
