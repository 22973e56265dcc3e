"""A second copy of the review, beside the collection file, written at every decision.

The review (verdicts, keeper choices, the reviewer's settings) is the one part of a
collection no rescan can give back, and it lived on the pages of one table: a damaged
first page of the file made ``ndd repair`` give up everything, and one damaged page of the
decisions table lost every decision on it (54 of 54, tried by zeroing each page of a
collection in turn). So a change of the review also writes the review, as ``ndd
decisions export`` writes it (documents named by folder, path and content hash), to
``<collection file>.review.json``: written to a temporary name and renamed over the last
copy, so a crash leaves the previous copy whole; at most every :data:`EVERY_S` seconds,
the decisions in between with the next write or when the store closes
(``Review.flush_copy``). ``ndd repair`` says where it lies, and
``ndd decisions import`` brings it into the repaired (and rescanned) collection.

A copy that cannot be written (a read-only folder, a full disk) never fails the decision
itself: the decision is in the collection file, and the copy catches up at the next one.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from .types import StoreError

if TYPE_CHECKING:
    from .store import Store

#: What is added to the collection file's name.
COPY_SUFFIX = ".review.json"
#: Seconds between two writes of the copy at most (decisions in between wait for the next
#: write or for the store's close).
EVERY_S = 2.0


def copy_path(store_path: str) -> str:
    """Where the review copy of the collection file at ``store_path`` lies."""
    return str(store_path) + COPY_SUFFIX


def write_copy(store: "Store") -> bool:
    """Write the review of ``store`` beside its file; whether it was written (a collection
    in memory, opened read-only, or a copy that cannot be written: no)."""
    path = str(store.path or "")
    if not path or path == ":memory:" or store.read_only:
        return False
    target = copy_path(path)
    temporary = target + ".part"
    try:
        review = store.review.export_dict()
        with open(temporary, "w", encoding="utf-8") as fh:
            json.dump(review, fh, ensure_ascii=False)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temporary, target)
    except (OSError, ValueError, TypeError, StoreError):  # a damaged store: the decision itself stands
        try:
            os.remove(temporary)
        except OSError:
            pass
        return False
    return True


def copy_count(store_path: str) -> int | None:
    """How many decisions the review copy beside ``store_path`` holds (None: no readable copy)."""
    try:
        with open(copy_path(store_path), encoding="utf-8") as fh:
            review = json.load(fh)
        return len(review.get("decisions") or [])
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def copy_summary(store_path: str) -> str:
    """One sentence on the review copy beside ``store_path`` ("" when there is none)."""
    target = copy_path(store_path)
    count = copy_count(store_path)
    if count is None:
        return ""
    return (f"a copy of the review ({count} decision{'s' if count != 1 else ''}), written at every decision, lies "
            f"at {target}: after the rescan, 'ndd decisions import --db NEW_FILE {target}' brings back any the "
            "repair lost")
