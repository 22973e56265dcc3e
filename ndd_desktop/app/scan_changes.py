"""What a scan changed that its counts do not tell, for ``ndd scan`` to say.

The summary counts documents new, changed, moved and removed. Three things went unsaid:

- review decisions that stopped applying because a document they are about holds other
  content now (a decision stands only while its documents hold the content it was made
  on, docs/store.md): the keeper moved to another document without a word;
- a scanned folder that held documents and now yields none (a drive not mounted leaves
  its mount point there, empty): every document of it was removed, exit status 0;
- documents read only in part by this scan (a text cut at the size limit), which only
  ``ndd errors`` named.

:func:`before_scan` notes what the collection holds; :func:`after_scan` compares.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..ingest.document import display_path
from ..store import Decision, DocumentInfo, Store
from ..store.collection_counts import documents_per_root, read_in_part


@dataclass(frozen=True)
class BeforeScan:
    """What the collection held before a scan (:func:`before_scan`)."""

    documents_per_root: dict[str, int]
    standing: list[Decision]


@dataclass
class ScanChanges:
    """What :func:`after_scan` found."""

    #: Decisions that applied before the scan and no longer do: their documents changed.
    lapsed: int = 0
    #: The changed documents those decisions are about (relative paths, as ``ndd pairs``).
    lapsed_paths: list[str] = field(default_factory=list)
    #: (root, documents it held) of each scanned folder that held documents and holds none.
    emptied: list[tuple[str, int]] = field(default_factory=list)
    #: Documents this scan read only in part (new, or read again with other content).
    in_part: list[DocumentInfo] = field(default_factory=list)

    def lapsed_note(self) -> str:
        """The sentence on the decisions that no longer apply ("" when none did)."""
        if not self.lapsed:
            return ""
        if self.lapsed == 1:
            return ("1 review decision no longer applies: its document changed since it was made "
                    f"({_some(self.lapsed_paths)}); review it again")
        return (f"{self.lapsed} review decisions no longer apply: their documents changed since they were made "
                f"({_some(self.lapsed_paths)}); review them again")

    def emptied_warnings(self) -> list[str]:
        """A sentence for each scanned folder that held documents and now holds none."""
        return [f"{display_path(root)} held {held:,} document{'' if held == 1 else 's'} and now holds none: is a "
                "drive not mounted? Their documents were removed from the collection (the files were not touched); "
                "scan again once the folder holds them: their review decisions come back with the files"
                for root, held in self.emptied]


#: Paths a note names at most (then "...").
NAMED_IN_NOTE = 3


def _some(paths: list[str]) -> str:
    """Up to :data:`NAMED_IN_NOTE` paths, then "..." for the rest."""
    shown = [display_path(p) for p in paths[:NAMED_IN_NOTE]]
    return ", ".join(shown + (["..."] if len(paths) > NAMED_IN_NOTE else []))


def before_scan(store: Store) -> BeforeScan:
    """Note what :func:`after_scan` compares with (a query over the folders' index and the
    decisions: an unchanged rescan of 20,000 documents paid 12 ms for a fuller picture)."""
    return BeforeScan(documents_per_root(store), store.review.standing())


def after_scan(store: Store, before: BeforeScan, summary: Any, written: Iterable[int] = ()) -> ScanChanges:
    """What changed since :func:`before_scan` (see the module docstring), for a scan whose
    ``summary`` (``pipeline.ScanSummary``) counts what it changed and which wrote the
    documents ``written`` (``ScanJob.written``); nothing is read when it changed nothing."""
    changes = ScanChanges()
    if summary.new or summary.changed or summary.moved or summary.removed or summary.reattached:
        lapsed = store.review.lapsed(before.standing)
        changes.lapsed = len(lapsed)
        ids = list(dict.fromkeys(x for _, changed in lapsed for x in changed))
        by_id = {d.id: d for d in store.documents.all(ids, status=None)}
        changes.lapsed_paths = [by_id[x].relpath for x in ids if x in by_id]
    if summary.removed:
        now = documents_per_root(store)
        changes.emptied = [(root, n) for root, n in before.documents_per_root.items() if n and now.get(root) == 0]
    written = written if isinstance(written, (set, frozenset)) else set(written)
    if written:  # read in part by this scan: of those it wrote
        fresh = sorted(read_in_part(store) & written)
        changes.in_part = store.documents.all(fresh) if fresh else []
    return changes
