"""E-mail threads of a collection: the store's message documents through :mod:`ndd_desktop.core.threads`.

Shared by ``ndd threads``, the window's Threads tab and the export's ``emails="inclusive"``.
A message document is one with stored e-mail headers (eml, msg, each message of an mbox,
a message attached to another); documents of those formats scanned by a release that
kept no headers are read from their text's ``Subject:``/``From:``/``Date:`` lines, so
they thread by subject and quotes until a rescan re-reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.threads import MailRecord
from ..core.threads import build_threads as thread_records
from ..ingest.formats.email import mail_date
from ..store import Store
from ..store.email import EmailHeaders

#: Formats whose documents are messages.
MESSAGE_FORMATS = ("eml", "msg")


@dataclass(frozen=True)
class MessageRow:
    """A message in its thread, as listed."""

    doc_id: int
    root: str
    relpath: str
    date: float | None
    sender: str
    subject: str
    message_id: str
    parent: int | None  # document id of the message it answers (None at the top)
    depth: int
    inclusive: bool
    reason: str  # why it is not inclusive ("" when it is)
    contained_in: int | None = None  # document id of the later message that contains its text
    contained_share: float = 1.0  # ... and the share of its text found there


def contained(share: float) -> str:
    """How a message that is not inclusive is held by a later one: "its text is contained",
    or, where a part is missing (the holder need have only :data:`core.threads.CONTAINED_SHARE`
    of it: a P.S. nobody quoted), "93% of its text is contained"."""
    return "its text is contained" if share >= 0.995 else f"{share:.0%} of its text is contained"


@dataclass
class MailThread:
    """One thread: its number (from 1), subject and messages in tree order."""

    thread_id: int
    subject: str
    messages: list[MessageRow] = field(default_factory=list)

    @property
    def inclusive(self) -> list[MessageRow]:
        """The inclusive messages."""
        return [m for m in self.messages if m.inclusive]


def _preamble(text: str) -> dict[str, str]:
    out = {}
    for line in text.split("\n")[:3]:
        key, sep, value = line.partition(": ")
        if sep and key.lower() in ("subject", "from", "date"):
            out[key.lower()] = value.strip()
    return out


def _fallback_headers(store: Store, known: set[int]) -> list[EmailHeaders]:
    """Message documents without stored headers: what their text's first lines say."""
    docs = [d for d in store.documents.all() if d.format in MESSAGE_FORMATS and d.id not in known]
    if not docs:
        return []
    texts = store.documents.texts([d.id for d in docs])
    out = []
    for d in docs:
        head = _preamble(texts.get(d.id) or "")
        out.append(EmailHeaders(d.id, d.root, d.relpath, d.date, "", "", "", head.get("subject", ""),
                                head.get("from", ""), head.get("date", "")))
    return out


def build_threads(store: Store) -> list[MailThread]:
    """The e-mail threads of the collection, oldest first, each message marked inclusive or not."""
    headers = store.emails.headers()
    headers += _fallback_headers(store, {h.doc_id for h in headers})
    if not headers:
        return []
    texts = store.documents.texts([h.doc_id for h in headers])
    by_id = {h.doc_id: h for h in headers}
    records = [
        MailRecord(h.doc_id, h.message_id, h.in_reply_to, h.references, h.subject, mail_date(h.date_text),
                   texts.get(h.doc_id) or "")
        for h in headers
    ]
    dates = {r.key: r.date for r in records}
    out = []
    for n, t in enumerate(thread_records(records), start=1):
        thread = MailThread(n, t.subject)
        position = {m.key: k for k, m in enumerate(t.messages, start=1)}
        for m in t.messages:
            h = by_id[m.key]
            reason = "" if m.inclusive else (
                f"{contained(m.contained_share)} in message {position[m.contained_in]} of the thread "
                f"({by_id[m.contained_in].relpath})")
            thread.messages.append(MessageRow(
                doc_id=m.key, root=h.root, relpath=h.relpath, date=dates[m.key], sender=h.sender,
                subject=h.subject, message_id=h.message_id, parent=m.parent, depth=m.depth,
                inclusive=m.inclusive, reason=reason, contained_in=m.contained_in,
                contained_share=m.contained_share))
        out.append(thread)
    return out
