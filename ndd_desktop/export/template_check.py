"""Documents an export leaves out whose likeness may be a shared template, to check first.

Ten letters on one letterhead with one long footer, or mails with one disclaimer, share
most of their text through that common passage and group as duplicates, yet each has a
text of its own that is in no other (docs/quality.md, *Shared templates*). The score
cannot tell furniture from content, so an export leaves all but one out. This check does
not change what is left out (the window, ``ndd clusters`` and the export count the same
groups); it names the documents to look at before anyone deletes an original.

In a group of at least :data:`MIN_MEMBERS` members, a run of five words found in at least
half of them (and in three) is **common**. A member left out is a **suspect** when at
least :data:`OWN_SHARE` of its runs are its own (not common) and less than
:data:`FOUND_SHARE` of those own runs are in the kept document it is said to duplicate:
its likeness to that document is mostly the common passage; and its own text is of a
piece: one stretch of consecutive own runs holds at least :data:`ONE_PIECE` of them (and
:data:`LONGEST_RUNS` runs). A body below or above a letterhead is one such stretch, while
the edits that tell versions of one text apart are scattered through it, a few runs each
(generated families of 743-word versions had 22-37 % own runs, none of them of a piece).
"""

from __future__ import annotations

import numpy as np

from ..core.normalize import normalize
from ..core.text_share import RUN, runs_many

#: Groups smaller than this are not checked: a template shows in many documents.
MIN_MEMBERS = 5
#: Groups larger than this are not checked (their texts would all be read at export).
MAX_MEMBERS = 2_000
#: A run in at least this share of a group's members (and in three) is common.
COMMON_SHARE = 0.5
#: A member is a suspect when at least this share of its runs is its own ...
OWN_SHARE = 0.2
#: ... and less than this share of its own runs is in the kept document it duplicates ...
FOUND_SHARE = 0.5
#: ... and one stretch of consecutive own runs holds this share of them ...
ONE_PIECE = 0.5
#: ... and at least this many runs (a body of a few dozen words).
LONGEST_RUNS = 20


def template_suspects(documents, groups, held_by: dict[int, int] | None = None) -> dict[int, tuple[int, int, float]]:
    """The suspects among the left-out members of ``groups`` (``DocGroup``s with their
    ``covered_by``): ``{document id: (group id, members sharing the common passage, share
    of the document that is its own)}``. ``documents`` reads texts (``Documents.texts``).
    ``held_by``: members an export leaves out beyond the groups' duplicates (a covered
    folder), each with the document that stands in for it, checked the same way: a letter
    that went with its folder, held by a letter of another folder through a letterhead, lost
    the warning it had as its group's duplicate."""
    held_by = held_by or {}
    out: dict[int, tuple[int, int, float]] = {}
    for g in groups:
        members = [int(m) for m in g.members]
        left = {int(m): int(k) for m, (k, _s) in g.covered_by.items()}
        left.update((m, int(held_by[m])) for m in members if m in held_by and int(held_by[m]) in set(members))
        if not (MIN_MEMBERS <= len(members) <= MAX_MEMBERS) or not left:
            continue
        texts = documents.texts(members)
        runs = dict(zip(members, runs_many([normalize(texts.get(m) or "") for m in members])))
        distinct = [runs[m].distinct(RUN) for m in members]
        values, counts = np.unique(np.concatenate(distinct), return_counts=True) if distinct else (None, None)
        if values is None or values.size == 0:
            continue
        is_common = counts >= max(3, COMMON_SHARE * len(members))
        common = values[is_common]
        if common.size == 0:
            continue
        holders = int(counts[is_common].max())  # the documents sharing the common passage
        for m, keeper in left.items():
            mine = runs[int(m)].distinct(RUN)
            if mine.size == 0 or int(keeper) not in runs:
                continue
            own = mine[~np.isin(mine, common, assume_unique=True, kind="sort")]  # (hashes: see core.shared_edits)
            share_own = own.size / mine.size
            if share_own < OWN_SHARE:
                continue
            found = np.isin(own, runs[int(keeper)].distinct(RUN), assume_unique=True, kind="sort").mean()
            if found < FOUND_SHARE and _of_a_piece(~np.isin(runs[int(m)].at(RUN), common, kind="sort"), own.size):
                out[int(m)] = (int(g.group_id), holders, float(share_own))
    return out


def _of_a_piece(is_own: np.ndarray, own: int) -> bool:
    """Whether the longest stretch of consecutive own runs (``is_own``, in text order)
    holds :data:`ONE_PIECE` of the ``own`` runs and :data:`LONGEST_RUNS` runs."""
    if not is_own.any():
        return False
    edges = np.flatnonzero(np.diff(np.concatenate(([0], is_own.view(np.int8), [0]))))
    longest = int((edges[1::2] - edges[::2]).max())
    return longest >= LONGEST_RUNS and longest >= ONE_PIECE * own


def suspect_note(group_id: int, holders: int, share_own: float) -> str:
    """The report note of a suspect."""
    return (f"check before deleting the original: its likeness is mostly a passage found in {holders} documents "
            f"of group {group_id} (a letterhead, footer or disclaimer?); {share_own:.0%} of its text is its own "
            "and not in the kept document")


def suspects_summary(suspects: dict[int, tuple[int, int, float]]) -> str:
    """One sentence on the suspects of an export ("" when there are none)."""
    if not suspects:
        return ""
    groups = sorted({g for g, _h, _o in suspects.values()})
    shown = ", ".join(str(g) for g in groups[:8]) + (", ..." if len(groups) > 8 else "")
    n = len(suspects)
    return (f"{n:,} document{'s' if n != 1 else ''} left out may differ in {'their' if n != 1 else 'its'} own "
            f"text from what was kept: {'they are' if n != 1 else 'it is'} alike through a passage common to "
            f"{'their' if n != 1 else 'its'} group (a letterhead, footer or disclaimer?). Check group"
            f"{'s' if len(groups) != 1 else ''} {shown} (the reports' note column; ndd group --id N) before "
            "deleting originals")
