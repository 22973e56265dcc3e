"""Stop a scan before it exhausts the machine's memory.

The pairs a scan keeps grow with the square of the number of documents that are all
similar to each other: 20,000 mails quoting one another gave ~10^8 pairs at the floor 0.3,
and the scan grew to 22 GB on a 23 GB machine before it was killed (an out-of-memory kill
takes other programs with it). The pair stage checks the process's memory at every
checkpoint of the search and between slices of the pairs it stores; past the limit the
scan stops with a :class:`~ndd_desktop.pipeline.config.ScanStopped` that says what to do.
An allocation too large to be made at all (10,000 copies of one document asked the banded
search for tens of gigabytes in one array) raises MemoryError before the resident memory
grows; the pair stage turns it into the same stop
(:meth:`MemoryGuard.stopping_when_out_of_memory`).
The documents and sketches read so far are kept. psutil gives the figures on every platform
(the guard did nothing on Windows before it read them from there).
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Callable, Iterator

from .config import ScanStopped

#: Share of the machine's physical memory a scan may hold.
LIMIT_SHARE = 0.75


def physical_memory() -> int | None:
    """Bytes of physical memory (psutil: Linux, macOS and Windows), or None where the
    system does not say."""
    import psutil  # imported when first asked: a rescan that reads nothing never asks

    try:
        return int(psutil.virtual_memory().total)
    except (OSError, RuntimeError, psutil.Error):
        return None


def resident_memory() -> int | None:
    """Bytes this process holds in memory now (its resident set; the working set on
    Windows), or None where the system does not say."""
    import psutil

    try:
        return int(psutil.Process().memory_info().rss)
    except (OSError, RuntimeError, psutil.Error):
        return None


class MemoryGuard:
    """A callable for checkpoints: raises ScanStopped once the process holds more than
    ``share`` of physical memory (does nothing where the system gives no figures)."""

    def __init__(self, floor: float, share: float = LIMIT_SHARE) -> None:
        self.floor = floor
        self._share = share

    @functools.cached_property
    def limit(self) -> int | None:
        """Bytes the process may hold (None: no figures), asked at the first checkpoint: a
        pair stage that searches nothing (an unchanged rescan) never asks."""
        total = physical_memory()
        return int(total * self._share) if total else None

    def __call__(self) -> None:
        if self.limit is None:
            return
        used = resident_memory()
        if used is not None and used > self.limit:
            raise ScanStopped(
                f"the pair search stopped at {used / 2**30:.1f} GB of memory, the most a scan may "
                f"take on this machine ({self.limit / 2**30:.1f} GB): {self._advice()}")

    @contextmanager
    def stopping_when_out_of_memory(self, copies: Callable[[], tuple[int, str] | None] | None = None
                                    ) -> Iterator[None]:
        """Within the block, a step that cannot get its memory at all stops the scan with the
        same advice: one allocation larger than the machine can give (numpy refuses it at
        once, before the resident memory grows for a checkpoint to see), as thousands of
        copies of one document, or thousands of messages on one template, ask of the pair
        search. The block's own cleanup has run by then; the documents are kept.

        ``copies`` gives the collection's largest family of identical files (how many, one
        of their paths): from :data:`MANY_COPIES` on, the message names it, since a higher
        floor does nothing for copies."""
        try:
            yield
        except MemoryError as exc:
            raise ScanStopped(f"the pair search needed more memory than this machine could give: "
                              f"{self._advice()}{_copies_note(copies)}") from exc

    def _advice(self) -> str:
        return (f"too many documents are similar to one another at the floor {self.floor:g} (thousands "
                "of copies of one document, or of messages or forms on one template, are all pairs of "
                "one another). Scan again with a higher floor (ndd scan --floor 0.6) or fewer folders "
                "at once; the documents read are kept.")


#: Identical files from which the stop names them: a family that alone is half a million pairs.
MANY_COPIES = 1_000


def _copies_note(copies: Callable[[], tuple[int, str] | None] | None) -> str:
    """The sentence that names the largest family of copies, from MANY_COPIES on ("" below)."""
    if copies is None:
        return ""
    try:
        found = copies()
    except Exception:  # the message goes out without the note rather than not at all
        return ""
    if found is None or found[0] < MANY_COPIES:
        return ""
    n, path = found
    return (f" {n:,} of them are copies of one file ({path}): they are {n * (n - 1) // 2:,} pairs of one "
            "another at any floor, more than a scan can hold; scan the folders without them, or with one of them.")
