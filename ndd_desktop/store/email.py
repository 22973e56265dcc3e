"""``store.emails``: e-mail headers kept per message document (the ``email_headers`` table, migration 0005).

The scan writes them with the document (``DocWrite.email``), so an unchanged file keeps
them across rescans without being read again; they go when the document goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ._sql import dec_path

if TYPE_CHECKING:
    from .store import Store

#: The keys of ``DocWrite.email`` / ``ExtractedDocument.email``, in column order.
HEADER_KEYS = ("message_id", "in_reply_to", "references", "subject", "from", "date")


def email_row(headers: dict) -> tuple[str, ...]:
    """The column values of a header dict (missing keys as "", text cut at 10,000 characters)."""
    return tuple(str(headers.get(k) or "")[:10_000] for k in HEADER_KEYS)


@dataclass(frozen=True)
class EmailHeaders:
    """The threading headers of one stored message document, with where it lies."""

    doc_id: int
    root: str
    relpath: str
    date: float | None
    message_id: str
    in_reply_to: str
    references: str
    subject: str
    sender: str
    date_text: str


class Emails:
    """E-mail headers of a :class:`~ndd_desktop.store.Store` (``store.emails``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    def headers(self) -> list[EmailHeaders]:
        """Every message document that has headers, by document id."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT d.id, r.path, d.relpath, d.date, e.message_id, e.in_reply_to, e.refs, e.subject, e.sender, "
                "e.date_text FROM email_headers e JOIN documents d ON d.id = e.doc_id JOIN roots r ON r.id = d.root_id "
                "ORDER BY d.id"
            ).fetchall()
        return [EmailHeaders(r[0], dec_path(r[1]), dec_path(r[2]), r[3], *r[4:]) for r in rows]
