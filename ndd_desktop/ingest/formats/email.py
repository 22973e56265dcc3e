"""E-mail messages (RFC 5322, ``.eml``) through the standard library's email package.

The text is the body (the plain-text part, else the HTML part's visible text): the header
lines are the message's metadata, not its content, and short messages of one sender on one
day shared most of their text through them ("Subject: ... From: ... Date: ..."), so that
unrelated notes scored as duplicates. A message with no body of its own (attachments
only) keeps its Subject, From and Date lines as its text. The threading headers (Message-ID, In-Reply-To,
References, Subject, From, Date) are kept with the document for ``ndd threads``. Attachments that are documents (any format
ingest can read) become their own documents, ``mail.eml!attachment.pdf``; pictures and
other media are left out. The document date is the Date header.

A base64 payload cut off (a mailbox export interrupted, a disk that filled up) or holding
characters outside the alphabet does not make the standard library raise: it records a
defect on the part and, when nothing decodes, hands back the base64 text itself. So such
a document attachment is an error record (``CORRUPT_ATTACHMENT``), where a cut-off PDF
was stored as 12,741 characters of "JVBERi0x..." read as a text file; a damaged body
keeps the text its base64 gives before the damage, with a note.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Iterator
from email import errors, policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime

from ndd_desktop.ingest.detect import EXT_FORMATS, detect_format, ext_of
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip
from ndd_desktop.ingest.formats.docx import to_epoch
from ndd_desktop.ingest.formats.html import html_to_text
from ndd_desktop.ingest.formats.txt import decode_text

DOCUMENT_FORMATS = {
    "txt", "md", "html", "xml", "pdf", "docx", "odt", "rtf", "eml", "mbox", "msg", "zip",
    "gz", "bz2", "xz", "zst", "tar", "7z", "xlsx", "xls", "ods", "pptx", "ppt", "odp", "epub", "doc",
}
#: The reason of a document attachment whose base64 does not decode whole ("corrupt", as a
#: damaged archive member, so that the Errors tab groups it and gives the same advice).
CORRUPT_ATTACHMENT = "corrupt attachment: its base64 encoding is cut off or broken"
#: The note of a message whose body's base64 does not decode whole.
DAMAGED_BODY = "message text damaged: its base64 encoding is cut off or broken (the text before the damage is read)"
_BASE64_DEFECTS = (errors.InvalidBase64PaddingDefect, errors.InvalidBase64CharactersDefect,
                   errors.InvalidBase64LengthDefect)
_BASE64_RUN = re.compile(rb"[A-Za-z0-9+/]*")


def extract(data: bytes, ctx: Context) -> Extraction:
    """Header lines and body of a message; its document attachments as members."""
    msg = BytesParser(policy=policy.default).parsebytes(data)
    subject, sender, date_text = (_header(msg, h) for h in ("subject", "from", "date"))
    date = mail_date(date_text)
    body, damaged = _body(msg)
    text = message_text(subject, sender, date_text, body)
    headers = {"message_id": _header(msg, "message-id"), "in_reply_to": _header(msg, "in-reply-to"),
               "references": _header(msg, "references"), "subject": subject, "from": sender, "date": date_text}
    return Extraction(text=text, date=date, members=_attachments(msg, date), headers=headers,
                      notes=[DAMAGED_BODY] if damaged else [])


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


def _body(msg: EmailMessage) -> tuple[str, bool]:
    """(the body's text, whether its base64 was damaged)."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:
        part = None
    if part is None:
        return "", False
    raw, damaged = _decoded(part)
    if damaged and (part.get_content_charset() or "utf-8") in ("utf-8", "utf8"):
        raw = _whole_utf8(raw)  # cut off, perhaps inside a character
    content = _part_text(part, raw)
    if part.get_content_subtype() == "html":
        return html_to_text(content), damaged
    return content.replace("\r\n", "\n").strip(), damaged


def _decoded(part: EmailMessage) -> tuple[bytes | None, bool]:
    """(payload bytes, damaged) of a part that is no multipart. A base64 payload is damaged
    when it is cut off or holds characters outside the alphabet (white space in its lines,
    which some gateways add, is no damage). Its bytes are then those its base64 gives up
    to the damage, not the standard library's (the base64 text itself when nothing
    decodes; bytes decoded across the stray characters, as if they were not there)."""
    try:
        raw = part.get_payload(decode=True)
    except Exception:
        return None, False
    if not isinstance(raw, bytes) or not any(isinstance(d, _BASE64_DEFECTS) for d in part.defects):
        return raw, False
    payload = part.get_payload()
    if not isinstance(payload, str):
        return raw, False
    encoded = b"".join(payload.encode("utf-8", "surrogateescape").split())
    good = _BASE64_RUN.match(encoded).end()
    padding = encoded[good:]
    if padding in (b"", b"=", b"==") and (good + len(padding)) % 4 == 0:
        return raw, False
    good -= 1 if good % 4 == 1 else 0  # a lone last character holds no whole byte
    return base64.b64decode(encoded[:good] + b"=" * (-good % 4)), True


def _whole_utf8(raw: bytes | None) -> bytes | None:
    """UTF-8 bytes cut off inside a character, without that character's first bytes: with
    them the whole text fails as UTF-8 and is read in a legacy code page."""
    try:
        raw.decode("utf-8") if raw else None
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            return raw[:exc.start]
    return raw


def _part_text(part: EmailMessage, raw: bytes | None) -> str:
    """A text part's content (``raw``: its decoded payload). A declared charset that decodes
    the bytes is taken; a part with none (or a wrong one) is decoded as a text file is
    (``formats.txt``: UTF-8, else the legacy page its letters fit): old mail programs sent
    8-bit Latin-1 or cp1252 bodies with no charset, which the standard library reads as
    ASCII with replacement marks."""
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
    """Document attachments, with unique names (a repeated name gets " (2)"); a damaged
    one (its base64 cut off or broken) as an error record, since its bytes are not the
    document's."""
    seen: dict[str, int] = {}
    try:
        parts = list(msg.iter_attachments())
    except Exception:
        return
    for number, part in enumerate(parts, 1):
        data, damaged = _attachment_bytes(part)
        if not data and not damaged:
            continue
        name = _attachment_name(part, number)
        # a damaged one is known by the bytes before the damage, else by its name
        fmt = detect_format(data, name) if data else EXT_FORMATS.get(ext_of(name), "txt")
        if fmt not in DOCUMENT_FORMATS:
            continue
        if name in seen:
            seen[name] += 1
            stem, dot, ext = name.rpartition(".")
            name = f"{stem} ({seen[name]}).{ext}" if dot and stem else f"{name} ({seen[name]})"
        else:
            seen[name] = 1
        if damaged:
            yield Member(name, None, date, status="error", reason=CORRUPT_ATTACHMENT)
        else:
            yield Member(name, data, date)


def _attachment_bytes(part: EmailMessage) -> tuple[bytes, bool]:
    """(the attachment's bytes, whether its base64 was damaged)."""
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        if isinstance(inner, list) and inner:
            return inner[0].as_bytes(policy=policy.default), False
        return b"", False
    data, damaged = _decoded(part)
    return data or b"", damaged


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
