"""What a view shows of a collection beyond its pairs and groups: the version order of the
groups (lineage), near-duplicate folders and e-mail threads, without Qt.

The window (the Version column, the Folders and Threads tabs) and ``ndd lineage``,
``ndd folders`` and ``ndd threads`` ask here, never ``pipeline.lineage``,
``pipeline.folders`` or ``pipeline.threads`` themselves, so a rule of what is analysed
changes once: the version order is of the groups a :class:`~.session.Session` formed
(every group, whichever a view shows), the folders are compared on the pair set and
threshold the session shows. Each ``*_job`` takes a snapshot of the session and returns a
function that touches no session state, so the window runs it on a worker thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..pipeline.folders import FOLDER_COLUMNS, RELATION_TEXT, FolderAnalysis, analyse_folders
from ..pipeline.lineage import GroupOrder, group_orders
from ..pipeline.threads import MailThread, build_threads

__all__ = ["FOLDER_COLUMNS", "RELATION_TEXT", "FolderAnalysis", "FolderSource", "GroupOrder", "MailThread",
           "folder_source", "lineage_job", "threads_job", "unsure_latest_note", "version_orders"]


def version_orders(store: Any, grouping: Any, *, progress: Callable | None = None,
                   cancel: Any = None) -> dict[int, GroupOrder]:
    """The version order of every group of ``grouping`` (a ``pipeline.grouping.Grouping``),
    by group id. All groups are ordered even when a view shows only some: an edit several
    groups share gives direction, so one group's answer does not depend on the question.
    ``cancel`` is checked between groups; ``progress`` gets stage "lineage"."""
    return group_orders(store, grouping.groups, progress=progress, cancel=cancel)


def unsure_latest_note(store: Any, grouping: Any) -> str:
    """One sentence on how far the keeper rule ``latest`` can be trusted on ``grouping``:
    how many groups have a version order of "low" confidence (length alone, clues that
    disagree), where the version kept as the latest may be the first draft; "" when none.
    ``ndd clusters`` and ``ndd export`` say it; the window marks each such group."""
    orders = version_orders(store, grouping)
    # copies of one text have no order to get wrong (they counted: "in 8 of 9 groups", all copies)
    sized = [o for o in orders.values() if len(o.order) >= 2 and not o.same_text]
    low = sum(1 for o in sized if o.level == "low")
    if not low:
        return ""
    return (f"in {low} of {len(sized)} groups the version order is a guess (low confidence): the version kept as "
            "the latest may not be the last one written; 'ndd lineage' shows the evidence")


def lineage_job(session: Any, *, progress: Callable | None = None) -> Callable[..., tuple[Any, dict]] | None:
    """A function returning ``(grouping, orders)``: the version order of the groups the
    session holds now (a snapshot); None when it holds none. The function takes an optional
    cancel token, checked between groups (a regrouping stops the order of the old groups)."""
    grouping, store = session.grouping, session.store
    if grouping is None:
        return None

    def job(cancel: Any = None) -> tuple[Any, dict[int, GroupOrder]]:
        return grouping, version_orders(store, grouping, progress=progress, cancel=cancel)

    return job


@dataclass(frozen=True)
class FolderSource:
    """The pair set and threshold near-duplicate folders are found on (a snapshot of a session)."""

    store: Any
    method: str
    pairs_key: str
    threshold: float

    def analyse(self, min_share: float) -> FolderAnalysis:
        """The pairs of folders of which at least ``min_share`` of either one's documents
        has an exact or near duplicate in the other (``pipeline.folders.analyse_folders``)."""
        return analyse_folders(self.store, self.method, self.pairs_key, self.threshold, min_share)


def folder_source(session: Any) -> FolderSource | None:
    """What the session shows, to compare folders on; None when it shows no pair set."""
    if session.method is None:
        return None
    return FolderSource(session.store, session.method, session.pairs_key, float(session.threshold))


def threads_job(session: Any) -> Callable[[], list[MailThread]]:
    """A function reading the e-mail threads of the session's collection (every message
    document; no pair set needed)."""
    store = session.store

    def job() -> list[MailThread]:
        return build_threads(store)

    return job
