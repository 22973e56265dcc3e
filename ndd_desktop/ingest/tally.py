"""Files that yielded no text, grouped by reason: "3,867 skipped: unsupported format: gz (.gz)"
rather than 3,867 lines. Shared by the scan summary, ``ndd errors`` and the window's
Errors tab, so all three count alike.

A reason's details that differ from file to file (the parser's message after
"corrupt PDF:", the member named by a bomb refusal) are left out of its group; the
reasons that name a kind ("unsupported format: jpg", "needs antiword: ...") keep it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ndd_desktop.ingest.detect import ext_of

# Reasons whose text after the first ": " is a per-file detail.
_DETAILED = (
    "corrupt", "refused", "zip bomb protection", "too many entries to read", "decompression bomb protection", "not a valid",
    "result ", "could not run", "tesseract failed", "antiword failed", "catppt failed",
)
_EXCEPTION = "extractor failed: "


@dataclass(frozen=True)
class ReasonGroup:
    """Files of one status and one reason (details dropped), with their extensions."""

    status: str
    reason: str
    count: int
    extensions: tuple[tuple[str, int], ...]  # (".gz", 3867), most common first; "" for none

    def describe(self, most: int = 3) -> str:
        """``skipped: unsupported format: gz (.gz)``; up to ``most`` extensions, each with
        its count when there are several."""
        shown = [f"{ext or '(no extension)'}" + (f" {n:,}" if len(self.extensions) > 1 else "")
                 for ext, n in self.extensions[:most]]
        if len(self.extensions) > most:
            shown.append(f"+{len(self.extensions) - most} more")
        return f"{self.status}: {self.reason} ({', '.join(shown)})"

    @property
    def advice(self) -> str:
        """What the user can do about files of this group ("" when the reason says it)."""
        return advice_for(self.reason)

    def label(self, most: int = 3) -> str:
        """``3,867 skipped: unsupported format: gz (.gz)``."""
        return f"{self.count:,} {self.describe(most)}"


#: What to do about the files of a reason group, by the group's beginning: the reasons
#: pass on a library's words ("AttValue: ' expected"), which say what broke but not what
#: the user can do. Reasons that name their remedy (a package to install, an option to
#: turn on, a folder to unpack) have none.
_ADVICE = (
    ("corrupt", "damaged or not what its name says: open it in its own program to see; a copy from where it came "
                "from may be whole"),
    ("encrypted", "protected by a password: scan a copy saved without one"),
    ("unreadable", "the system refused to read it: check its permissions; the next scan reads it again"),
    ("timed out after", "the next scan tries it again (a busy machine slows every file)"),
    ("extractor crashed", "the next scan tries it again; if it crashes again it is likely damaged"),
    ("changed while being read", "the next scan reads it again"),
)


def advice_for(reason: str) -> str:
    """What to do about a file skipped or failed for ``reason`` ("" when nothing to add)."""
    lowered = (reason or "").lower()
    return next((text for start, text in _ADVICE if lowered.startswith(start)), "")


def reason_group(reason: str) -> str:
    """The group a reason belongs to: the reason without its per-file details."""
    reason = " ".join((reason or "").split())
    if reason.startswith(_EXCEPTION):  # keep the exception's type, drop its message
        return _EXCEPTION + reason[len(_EXCEPTION):].split(":", 1)[0]
    if reason.lower().startswith(_DETAILED) and ": " in reason:
        return reason.split(": ", 1)[0]
    return reason or "(no reason given)"


class ReasonTally:
    """Counts by reason group, kept up to date as failures arrive (the window adds them in
    batches during a scan); :meth:`groups` is cheap: one entry per group, not per file."""

    def __init__(self) -> None:
        self._counts: Counter[tuple[str, str]] = Counter()
        self._exts: dict[tuple[str, str], Counter[str]] = {}

    def add(self, status: str, reason: str, relpath: str) -> tuple[str, str]:
        """Count one file; returns its group's (status, reason)."""
        key = (status, reason_group(reason))
        self._counts[key] += 1
        ext = ext_of((relpath or "").rsplit("!", 1)[-1].rsplit("/", 1)[-1])
        self._exts.setdefault(key, Counter())[f".{ext}" if ext else ""] += 1
        return key

    def clear(self) -> None:
        """Forget every count."""
        self._counts.clear()
        self._exts.clear()

    def groups(self) -> list[ReasonGroup]:
        """The groups, the largest first (then by status and reason)."""
        groups = [ReasonGroup(status, reason, n,
                              tuple(sorted(self._exts[(status, reason)].items(), key=lambda e: (-e[1], e[0]))))
                  for (status, reason), n in self._counts.items()]
        groups.sort(key=lambda g: (-g.count, g.status, g.reason))
        return groups


def group_reasons(items: Iterable[tuple[str, str, str]]) -> list[ReasonGroup]:
    """Groups of (status, reason, relpath) triples, the largest first (then by reason)."""
    tally = ReasonTally()
    for status, reason, relpath in items:
        tally.add(status, reason, relpath)
    return tally.groups()
