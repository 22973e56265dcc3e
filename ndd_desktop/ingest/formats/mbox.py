"""MBOX mailboxes: each message becomes a document ``box.mbox!message-N``.

The standard library's ``mailbox.mbox`` wants a path it may open for writing; ingest
never does that to an original and also reads mailboxes out of archives, so the
mailbox is split here on its "From " separator lines (the one rule the format has) and
each message goes to the e-mail extractor.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ndd_desktop.ingest.formats.base import Context, Extraction, Member, Skip

_SEPARATOR = re.compile(rb"^From .*$\n?", re.M)


def extract(data: bytes, ctx: Context) -> Extraction:
    """A mailbox: no text of its own, one member per message."""
    if not data.lstrip(b"\r\n").startswith(b"From "):
        raise Skip("not an mbox file: it does not start with a 'From ' line")
    return Extraction(text=None, members=_messages(data, ctx))


def _messages(data: bytes, ctx: Context) -> Iterator[Member]:
    starts = [m for m in _SEPARATOR.finditer(data) if m.start() == 0 or _after_blank(data, m.start())]
    if len(starts) > ctx.limits.max_members:
        yield Member("", None, status="skipped",
                     reason=f"more than {ctx.limits.max_members} messages; only the first were read")
    for number, match in enumerate(starts[: ctx.limits.max_members], 1):
        end = starts[number].start() if number < len(starts) else len(data)
        body = data[match.end():end]
        yield Member(f"message-{number}", body, hint="eml")


def _after_blank(data: bytes, pos: int) -> bool:
    """mboxo/mboxrd: a separator follows an empty line (or starts the file)."""
    return data[max(0, pos - 2):pos] == b"\n\n" or data[max(0, pos - 4):pos] == b"\r\n\r\n"
