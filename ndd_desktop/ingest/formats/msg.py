"""Outlook MSG messages through extract-msg.

The text is the body (plain text, else the HTML body's visible text), or the Subject,
From and Date lines for a message without one, as for ``.eml`` (``formats.email``). Attachments become members like e-mail attachments;
embedded messages are handed on as their own MSG bytes when extract-msg can export them.
"""

from __future__ import annotations

import logging

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip
from ndd_desktop.ingest.formats.docx import to_epoch
from ndd_desktop.ingest.formats.email import message_text
from ndd_desktop.ingest.formats.html import html_to_text

logging.getLogger("extract_msg").setLevel(logging.CRITICAL)


def extract(data: bytes, ctx: Context) -> Extraction:
    """Body (or header lines) and attachments of an Outlook message."""
    # imported on the first message (0.2 s): not in the workers' server, which every scan
    # waits for, while few collections hold Outlook messages
    import extract_msg

    try:
        msg = extract_msg.openMsg(data, delayAttachments=False)
    except Exception as exc:  # extract-msg raises many types for broken compound files
        raise Fail(f"corrupt or unsupported MSG: {type(exc).__name__}: {exc}") from None
    try:
        if not hasattr(msg, "body"):
            raise Skip(f"unsupported MSG item: {type(msg).__name__}")
        subject = _safe(lambda: msg.subject)
        sender = _safe(lambda: msg.sender)
        when = _safe(lambda: msg.date, None)
        body = _safe(lambda: msg.body)
        if not body.strip():
            html = _safe(lambda: msg.htmlBody, None)
            body = html_to_text(html) if html else ""
        date = to_epoch(when) if when is not None and hasattr(when, "timestamp") else None
        date_text = when.isoformat() if date is not None else ""
        text = message_text(subject, sender, date_text, body.replace("\r\n", "\n"))
        members = list(_attachments(msg, date))
        headers = {"message_id": _safe(lambda: msg.messageId), "in_reply_to": _safe(lambda: msg.inReplyTo),
                   "references": _safe(lambda: msg.header.get("References") or ""),
                   "subject": subject, "from": sender, "date": date_text}
        headers = {k: " ".join(str(v).split()) for k, v in headers.items()}
    finally:
        _safe(msg.close, None)
    return Extraction(text=text.strip(), date=date, members=members, headers=headers)


def _attachments(msg, date: float | None):
    for number, att in enumerate(_safe(lambda: msg.attachments, []) or [], 1):
        name = _safe(lambda: att.getFilename(), "") or f"attachment-{number}"
        name = name.replace("\\", "/").rsplit("/", 1)[-1].replace("!", "_")
        payload = _safe(lambda: att.data, None)
        if isinstance(payload, (bytes, bytearray)) and payload:
            yield Member(name, bytes(payload), date)
        elif payload is not None and hasattr(payload, "exportBytes"):
            exported = _safe(payload.exportBytes, None)
            if exported:
                yield Member(name if name.lower().endswith(".msg") else name + ".msg", exported, date)


def _safe(call, default=""):
    try:
        value = call()
    except Exception:
        return default
    return default if value is None else value
