"""MBOX mailboxes: each message becomes a document ``box.mbox!message-N``.

The standard library's ``mailbox.mbox`` wants a path it may open for writing; ingest
never does that to an original and also reads mailboxes out of archives, so the
mailbox is split here on its "From " separator lines (the one rule the format has) and
each message goes to the e-mail extractor. A body line that starts with "From " after an
empty line (mboxo does not escape it) is no separator unless it looks like one: a sender
and a time of day ("From ada@x.org Tue Feb  1 10:00:00 2005", "From - Tue Feb 01 ..."),
or a header line right after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ndd_desktop.ingest.formats.base import Context, Extraction, Member, Skip

_SEPARATOR = re.compile(rb"^From .*$\n?", re.M)
_STAMPED = re.compile(rb"^From \S+\s.*\b\d{1,2}:\d{2}\b")
_HEADER = re.compile(rb"[!-9;-~]+:")  # matched at a position: no "^"


def extract(data: bytes, ctx: Context) -> Extraction:
    """A mailbox: no text of its own, one member per message."""
    if not data.lstrip(b"\r\n").startswith(b"From "):
        raise Skip("not an mbox file: it does not start with a 'From ' line")
    return Extraction(text=None, members=_messages(data, ctx))


def _messages(data: bytes, ctx: Context) -> Iterator[Member]:
    starts = [m for m in _SEPARATOR.finditer(data)
              if m.start() == 0 or (_after_blank(data, m.start()) and _looks_like_separator(data, m))]
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


def _looks_like_separator(data: bytes, match: re.Match) -> bool:
    """A sender and a time of day on the line, or a header line right after it."""
    return bool(_STAMPED.match(match.group()) or _HEADER.match(data, match.end()))
