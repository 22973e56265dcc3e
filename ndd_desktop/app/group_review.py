"""One group against a reference document, and reviewing the whole group at once, without Qt.

The window's group view and ``ndd group`` ask here for the view of a group
(``pipeline.group_view.GroupView``: each member's differences from the reference, the
reference being the group's keeper unless another member is chosen, each member's score
that of the pair set the session shows); the window's bulk buttons review through here, so
the session's copy of the verdicts follows what a bulk action or its undo wrote.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..pipeline.group_view import BULK_ACTIONS, CONTAINED, BulkChange, GroupView, MemberDiff, bulk_review, undo_bulk
from ..pipeline.pair_lookup import PairLookup

__all__ = ["BULK_ACTIONS", "CONTAINED", "BulkChange", "GroupView", "MemberDiff", "group_view", "review_group",
           "undo_group_review"]


def group_view(session: Any, group: Any, reference: int | None = None) -> GroupView:
    """The view of ``group`` (a ``DocGroup`` of the session's grouping) against
    ``reference`` (default: the group's keeper), with the scores of the pair set shown."""
    arrays = session.pair_arrays()
    lookup = PairLookup(arrays.a, arrays.b, arrays.score) if arrays is not None else None
    return GroupView(session.store.documents, group.group_id, group.members, group.keeper if reference is None else reference,
                     score=(lambda a, b: lookup.get((a, b))) if lookup is not None else None)


def _sync_verdicts(session: Any) -> dict[tuple[int, int], str]:
    verdicts = session.store.review.verdicts()
    if session.data is not None:  # the session's copy of the verdicts, which the views show
        session.data.verdicts = verdicts
    return verdicts


def review_group(session: Any, members: Sequence[int], reference: int, action: str) -> BulkChange:
    """Apply a bulk action (``pipeline.group_view.BULK_ACTIONS``) to a whole group; the
    change it returns undoes it with :func:`undo_group_review`.

    Raises:
        ValueError: an unknown action.
    """
    change = bulk_review(session.store.review, members, reference, action)
    _sync_verdicts(session)
    record = getattr(session, "record_group_change", None)
    if record is not None:  # one undo history: Ctrl+Z in the window undoes it too
        record(change)
    return change


def undo_group_review(session: Any, change: BulkChange) -> dict[tuple[int, int], str]:
    """Put back the verdicts and keepers a :func:`review_group` changed; returns the
    verdicts now standing. The change leaves the session's undo history with it."""
    if getattr(session, "last_change", lambda: None)() is change:
        session.undo()
    else:
        undo_bulk(session.store.review, change)
        forget = getattr(session, "forget_group_change", None)
        if forget is not None:
            forget(change)
    return _sync_verdicts(session)
