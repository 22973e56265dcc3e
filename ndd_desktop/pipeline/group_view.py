"""One group seen against its reference document: what each member adds, drops or changes.

The reference is the group's keeper unless the reviewer picks another member. The member
list (path, size, date, stored score to the reference) comes from the store at once; the
differences of a member are computed when first asked for (:meth:`GroupView.diff`) and
kept, so a window shows its first screen at once and fills in the rest in the background,
and ``ndd group`` computes every member one after the other. Each member's texts are read,
compared and dropped: a group of 500 members of 100 KB holds one member's words at a time.

Bulk review (:func:`bulk_review`) marks the whole group at once and returns what it
changed, so :func:`undo_bulk` can put it back.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from ..core.passages import CONTAINED, Words, differences, words_of  # noqa: F401 - CONTAINED for the window
from ..core.places import Places
from ..store import DocumentInfo, Documents, Review
from .passages import BUDGET, excerpt

#: Characters of each side of a difference kept for showing.
CHANGE_CHARS = 400
BULK_ACTIONS = ("keep-reference", "keep-all", "duplicates")


@dataclass(frozen=True)
class Change:
    """A passage where a member differs from the reference: ``kind`` removed (only in the
    reference), added (only in the member) or changed; the text and place on each side."""

    kind: str
    ref_place: str
    member_place: str
    ref_text: str
    member_text: str
    ref_chars: tuple[int, int]
    member_chars: tuple[int, int]


@dataclass
class MemberDiff:
    """A member against the reference: the shares found in each other and the changes."""

    member: int
    share_ref: float  # of the reference's words, the share found in the member
    share_member: float  # of the member's words, the share found in the reference
    changes: list[Change] = field(default_factory=list)
    complete: bool = True

    @property
    def identical(self) -> bool:
        """The same words in the same order."""
        return not self.changes and self.complete


class GroupView:
    """The members of one group and their differences to a reference member."""

    def __init__(self, documents: Documents, group_id: int, members: Sequence[int], reference: int, *,
                 score: Callable[[int, int], float | None] | None = None, budget: float | None = BUDGET):
        self.documents = documents
        self.group_id = group_id
        docs = {d.id: d for d in documents.all(list(members), status=None)}
        self.docs: dict[int, DocumentInfo] = {m: docs[m] for m in members if m in docs}
        self.members = list(self.docs)
        if reference not in self.docs:
            raise ValueError(f"document {reference} is not a member of group {group_id}")
        self._score = score
        self.budget = budget
        self._lock = threading.Lock()
        self._reference = reference
        self._ref_words: Words | None = None
        self._diffs: dict[int, MemberDiff] = {}

    @classmethod
    def of_group(cls, documents: Documents, group, **kwargs) -> "GroupView":
        """The view of a ``pipeline.grouping.DocGroup``, its keeper as the reference."""
        return cls(documents, group.group_id, group.members, group.keeper, **kwargs)

    @property
    def reference(self) -> int:
        """The member the others are compared with."""
        return self._reference

    def set_reference(self, doc_id: int) -> None:
        """Compare with another member (the differences computed so far are dropped)."""
        if doc_id not in self.docs:
            raise ValueError(f"document {doc_id} is not a member of group {self.group_id}")
        with self._lock:
            self._reference = doc_id
            self._ref_words = None
            self._diffs = {}

    def others(self) -> list[int]:
        """The members other than the reference, in group order."""
        return [m for m in self.members if m != self._reference]

    def score(self, member: int) -> float | None:
        """The stored score of ``member`` with the reference (None: below the floor)."""
        if self._score is None or member == self._reference:
            return None
        a, b = sorted((member, self._reference))
        return self._score(a, b)

    def reference_words(self) -> Words:
        """The reference's text as words (read once)."""
        with self._lock:
            if self._ref_words is None:
                self._ref_words = words_of(self.documents.texts([self._reference]).get(self._reference, ""))
            return self._ref_words

    def computed(self, member: int) -> MemberDiff | None:
        """The member's differences if already computed, else None (never computes)."""
        with self._lock:
            return self._diffs.get(member)

    def diff(self, member: int) -> MemberDiff:
        """The member's differences to the reference (computed on first use, then kept)."""
        reference = self._reference
        hit = self.computed(member)
        if hit is not None:
            return hit
        ref = self.reference_words()
        mem = words_of(self.documents.texts([member]).get(member, ""))
        result = member_diff(ref, mem, self.docs[reference].format, self.docs[member].format, member,
                             budget=self.budget)
        with self._lock:
            if self._reference == reference:  # not switched meanwhile
                self._diffs[member] = result
        return result

    def diffs(self, members: Sequence[int] | None = None) -> Iterator[MemberDiff]:
        """The differences of ``members`` (default: every other member), one at a time."""
        for m in (self.others() if members is None else members):
            yield self.diff(m)

    def to_dict(self) -> dict:
        """The whole view, every member computed (for ``ndd group``)."""
        ref = self.docs[self._reference]
        ref_missing = self.documents.text_missing(self._reference)
        out = {"group": self.group_id, "reference": {**_doc(ref), "text_missing": ref_missing}, "members": []}
        for m in self.others():
            d = self.diff(m)
            # a text that could not be read (its original changed since the scan) is no
            # text at all: its shares and changes say nothing, and the member says why
            missing = self.documents.text_missing(m)
            out["members"].append({
                **_doc(self.docs[m]), "score": _round(self.score(m)), "text_missing": missing,
                "share_reference_in_member": round(d.share_ref, 4), "share_member_in_reference": round(d.share_member, 4),
                "complete": d.complete and not missing and not ref_missing,
                "identical": d.identical and not missing and not ref_missing,
                "changes": [{"kind": c.kind, "reference_place": c.ref_place, "member_place": c.member_place,
                             "reference_text": c.ref_text, "member_text": c.member_text} for c in d.changes],
            })
        return out


def member_diff(ref: Words, mem: Words, ref_format: str | None, mem_format: str | None, member: int = 0, *,
                budget: float | None = BUDGET) -> MemberDiff:
    """The differences of one member's words to the reference's words."""
    from ..core.passages import shared_passages

    shared = shared_passages(ref, mem, budget=budget)
    pr, pm = Places(ref.text, ref_format), Places(mem.text, mem_format)
    changes = []
    found = differences(shared)
    if not shared.complete and found and (found[-1].a1 == shared.words_a or found[-1].b1 == shared.words_b):
        found = found[:-1]  # past the time limit, the text after the last passage found is not known to differ
    for d in found:
        rc, mc = ref.chars(d.a0, d.a1), mem.chars(d.b0, d.b1)
        changes.append(Change(
            d.kind,
            pr.span(*rc) if d.a1 > d.a0 else f"after {pr.at(max(rc[0] - 1, 0)).label()}",
            pm.span(*mc) if d.b1 > d.b0 else f"after {pm.at(max(mc[0] - 1, 0)).label()}",
            excerpt(ref.text[rc[0]:rc[1]], CHANGE_CHARS), excerpt(mem.text[mc[0]:mc[1]], CHANGE_CHARS), rc, mc))
    return MemberDiff(member, shared.share_a, shared.share_b, changes, shared.complete)


def _doc(d: DocumentInfo) -> dict:
    return {"id": d.id, "path": d.relpath, "root": d.root, "size": d.size, "date": d.date,
            "modified": d.mtime_ns / 1e9 if d.mtime_ns else None, "format": d.format}


def _round(v: float | None) -> float | None:
    return None if v is None else round(float(v), 4)


# -- marking the whole group at once ---------------------------------------------------------
@dataclass(frozen=True)
class BulkChange:
    """What a bulk review changed: the verdicts and chosen keepers as they were before."""

    action: str
    verdicts_before: dict[tuple[int, int], str | None]
    keepers_before: dict[int, bool]


def bulk_review(review: Review, members: Sequence[int], reference: int, action: str) -> BulkChange:
    """Review the whole group at once.

    ``keep-reference``: the reference is the group's keeper (other chosen keepers cleared);
    ``keep-all``: every member is kept; ``duplicates``: every other member is a duplicate of
    the reference, which is the keeper.

    Raises:
        ValueError: an unknown action.
    """
    if action not in BULK_ACTIONS:
        raise ValueError(f"unknown action {action!r} (known: {', '.join(BULK_ACTIONS)})")
    with review.batch():  # the review copy beside the collection is written once
        return _bulk(review, members, reference, action)


def _bulk(review: Review, members, reference: int, action: str) -> BulkChange:
    chosen = review.keepers()
    verdicts = review.verdicts()
    keepers_before = {m: m in chosen for m in members}
    verdicts_before: dict[tuple[int, int], str | None] = {}
    if action == "keep-all":
        for m in members:
            if m not in chosen:
                review.set_keeper(m, True)
    else:
        for m in members:
            if m != reference and m in chosen:
                review.set_keeper(m, False)
        if reference not in chosen:
            review.set_keeper(reference, True)
    if action == "duplicates":
        for m in members:
            if m == reference:
                continue
            key = (min(m, reference), max(m, reference))
            verdicts_before[key] = verdicts.get(key)
            if verdicts.get(key) != "duplicate":
                review.set_verdict(key[0], key[1], "duplicate")
    return BulkChange(action, verdicts_before, keepers_before)


def undo_bulk(review: Review, change: BulkChange) -> None:
    """Put back the verdicts and keepers a :func:`bulk_review` changed."""
    with review.batch():
        for (a, b), verdict in change.verdicts_before.items():
            review.set_verdict(a, b, verdict)
        chosen = review.keepers()
        for m, was in change.keepers_before.items():
            if was != (m in chosen):
                review.set_keeper(m, was)
