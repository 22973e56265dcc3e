"""E-mail files for tests: one message with its headers, and a text quoted as replies quote it."""

from __future__ import annotations

from pathlib import Path


def write_message(path: Path, *, sender: str, subject: str, mid: str, date: str, body: str,
                  in_reply_to: str = "") -> None:
    """An RFC 5322 message at ``path`` (``mid`` and ``in_reply_to`` without angle brackets;
    ``date`` as the Date header has it)."""
    reply = f"In-Reply-To: <{in_reply_to}>\n" if in_reply_to else ""
    path.write_text(f"From: {sender}\nSubject: {subject}\nMessage-ID: <{mid}>\n{reply}Date: {date}\n\n{body}\n")


def quote(text: str) -> str:
    """``text`` with "> " before each line."""
    return "\n".join("> " + line for line in text.split("\n"))
