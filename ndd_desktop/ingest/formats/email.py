"""E-mail messages (RFC 5322, ``.eml``) through the standard library's email package.

The text is the body (the plain-text part, else the HTML part's visible text): the header
lines are the message's metadata, not its content, and short messages of one sender on one
day shared most of their text through them ("Subject: ... From: ... Date: ..."), so that
unrelated notes scored as duplicates. A message with no body of its own (attachments
only) keeps its Subject, From and Date lines as its text. The threading headers (Message-ID, In-Reply-To,
References, Subject, From, Date) are kept with the document for ``ndd threads``. Attachments that are documents (any format
ingest can read) become their own documents, ``mail.eml!attachment.pdf``; pictures and
other media are left out. The document date is the Date header.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime

from ndd_desktop.ingest.detect import detect_format
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip
from ndd_desktop.ingest.formats.docx import to_epoch
from ndd_desktop.ingest.formats.html import html_to_text
from ndd_desktop.ingest.formats.txt import decode_text

DOCUMENT_FORMATS = {
    "txt", "md", "html", "xml", "pdf", "docx", "odt", "rtf", "eml", "mbox", "msg", "zip",
    "gz", "bz2", "xz", "zst", "tar", "7z", "xlsx", "xls", "ods", "pptx", "ppt", "odp", "epub", "doc",
}


def extract(data: bytes, ctx: Context) -> Extraction:
    """Header lines and body of a message; its document attachments as members."""
    msg = BytesParser(policy=policy.default).parsebytes(data)
    subject, sender, date_text = (_header(msg, h) for h in ("subject", "from", "date"))
    date = mail_date(date_text)
    text = message_text(subject, sender, date_text, _body(msg))
    headers = {"message_id": _header(msg, "message-id"), "in_reply_to": _header(msg, "in-reply-to"),
               "references": _header(msg, "references"), "subject": subject, "from": sender, "date": date_text}
    return Extraction(text=text, date=date, members=_attachments(msg, date), headers=headers)


def message_text(subject: str, sender: str, date_text: str, body: str) -> str:
    """A message's text: its body, or its header lines when it has no body."""
    body = body.strip()
    if body:
        return body
    return "\n".join([f"Subject: {subject}", f"From: {sender}", f"Date: {date_text}"]).strip()


def mail_date(value: str) -> float | None:
    """A Date header as epoch seconds (None when it does not parse)."""
    if not value:
        return None
    try:
        return to_epoch(parsedate_to_datetime(value))
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a header the parser cannot fold: fall back to the raw value
        raw = [v for k, v in msg.raw_items() if k.lower() == name]
        value = raw[0] if raw else None
    return " ".join(str(value).split()) if value is not None else ""


def _body(msg: EmailMessage) -> str:
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:
        part = None
    if part is None:
        return ""
    content = _part_text(part)
    if part.get_content_subtype() == "html":
        return html_to_text(content)
    return content.replace("\r\n", "\n").strip()


def _part_text(part: EmailMessage) -> str:
    """A text part's content. A declared charset that decodes the bytes is taken; a part
    with none (or a wrong one) is decoded as a text file is (``formats.txt``: UTF-8, else
    the legacy page its letters fit): old mail programs sent 8-bit Latin-1 or cp1252 bodies
    with no charset, which the standard library reads as ASCII with replacement marks."""
    try:
        raw = part.get_payload(decode=True)
    except Exception:
        raw = None
    if not isinstance(raw, bytes):
        try:
            content = part.get_content()
            return content if isinstance(content, str) else ""
        except (LookupError, ValueError, AssertionError, KeyError):
            return ""
    charset = part.get_content_charset()
    if _known(charset):
        try:
            return raw.decode(charset)
        except UnicodeDecodeError:
            pass
    try:
        return decode_text(raw)[0]
    except (Skip, Fail):
        return raw.decode(charset if _known(charset) else "utf-8", errors="replace")


def _known(charset: str | None) -> bool:
    if not charset:
        return False
    try:
        "".encode(charset)
        return True
    except LookupError:
        return False


def _attachments(msg: EmailMessage, date: float | None) -> Iterator[Member]:
    """Document attachments, with unique names (a repeated name gets " (2)")."""
    seen: dict[str, int] = {}
    try:
        parts = list(msg.iter_attachments())
    except Exception:
        return
    for number, part in enumerate(parts, 1):
        data = _attachment_bytes(part)
        if not data:
            continue
        name = _attachment_name(part, number)
        if detect_format(data, name) not in DOCUMENT_FORMATS:
            continue
        if name in seen:
            seen[name] += 1
            stem, dot, ext = name.rpartition(".")
            name = f"{stem} ({seen[name]}).{ext}" if dot and stem else f"{name} ({seen[name]})"
        else:
            seen[name] = 1
        yield Member(name, data, date)


def _attachment_bytes(part: EmailMessage) -> bytes:
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        if isinstance(inner, list) and inner:
            return inner[0].as_bytes(policy=policy.default)
        return b""
    try:
        return part.get_payload(decode=True) or b""
    except Exception:
        return b""


def _attachment_name(part: EmailMessage, number: int) -> str:
    try:
        name = part.get_filename()
    except Exception:
        name = None
    if name:
        # The member name is a label, not a path: keep only its last component.
        name = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].replace("!", "_")
    if not name:
        ext = mimetypes.guess_extension(part.get_content_type()) or ".bin"
        name = f"attachment-{number}{'.eml' if part.get_content_type() == 'message/rfc822' else ext}"
    return name
