"""What extractors return and raise, and the context they run in."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field

from ndd_desktop.ingest.limits import Limits, mb
from ndd_desktop.ingest.options import ExtractOptions


#: What word processors keep beside a document's body, in the order the DOCX and RTF readers
#: put it after the body: notes first (they belong to the body's paragraphs), then
#: comments, then the headers and footers every letter of an office repeats.
SIDE_PARTS = ("footnotes", "endnotes", "comments", "header", "footer")
#: The kinds of those repeated on every section or page: each distinct text is kept once.
RUNNING_PARTS = ("header", "footer")


class Skip(Exception):
    """The file is fine but yields no text on purpose (status "skipped")."""


class Fail(Exception):
    """The file could not be read (status "error").

    ``claimed`` names the format the file claims by its name when that is what failed
    (a ``.docx`` of random bytes is detected as text, but it is a broken DOCX to the
    user); the record then shows that format instead of the detected one.
    """

    def __init__(self, reason: str, claimed: str | None = None) -> None:
        super().__init__(reason)
        self.claimed = claimed


@dataclass
class Member:
    """A document inside a container (a ZIP member, a mail attachment, an mbox message).

    ``data`` is None when the member could not be read; ``status``/``reason`` say why.
    """

    name: str
    data: bytes | None
    date: float | None = None
    status: str = "ok"
    reason: str = ""
    hint: str = ""  # a format the container knows the member to be ("eml" for mbox)


@dataclass
class Extraction:
    """What an extractor made of one document.

    ``text`` is None for pure containers (ZIP, MBOX), which are no document themselves.
    """

    text: str | None
    date: float | None = None
    members: Iterable[Member] = ()
    notes: list[str] = field(default_factory=list)
    #: an e-mail message's threading headers (message_id, in_reply_to, references,
    #: subject, from, date: header text as read); None for anything but a message
    headers: dict[str, str] | None = None


class Budget:
    """Decompressed bytes still allowed for one file on disk (shared by nested containers)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.remaining = limits.max_expanded_bytes

    def take(self, n: int) -> None:
        """Spend ``n`` bytes; raise Skip when the file would expand beyond the limit."""
        if n > self.remaining:
            self.remaining = 0
            raise Skip(
                f"zip bomb protection: expands beyond {mb(self.limits.max_expanded_bytes)}"
            )
        self.remaining -= n


@dataclass
class Context:
    """What an extractor may know: the limits, the budget, the document's name, the options."""

    limits: Limits
    budget: Budget
    name: str = ""  # file or member name, for extension hints and messages
    depth: int = 0
    options: ExtractOptions = field(default_factory=ExtractOptions)  # how to read (HTML: main text or all)

    @property
    def ext(self) -> str:
        """Lower-case extension of the name without the dot ("" when none)."""
        return posixpath.splitext(self.name.lower())[1].lstrip(".")



def too_many_entries(count: int | None, limit: int) -> str:
    """The reason of an archive with more entries than ``limit`` (``count``; None: more
    than the limit, counted no further): not a bomb, often a real archive, so it says what
    to do."""
    held = f"{count:,}" if count is not None else f"more than {limit:,}"
    return (f"too many entries to read: {held} (the limit is {limit:,} an archive); "
            "unpack it and scan its folder")
