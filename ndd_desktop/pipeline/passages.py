"""The shared passages of two documents of a collection, placed and ready to show.

Reads the two stored texts and formats, finds the passages (:mod:`core.passages`) and says
where each lies in both documents (:mod:`core.places`). Shared by ``ndd compare``, the
compare view's passage navigation and the group view.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..core.passages import Shared, Words, shared_passages, words_of
from ..core.places import Places
from ..store import DocumentInfo, Documents

#: Seconds a pair's passages may take before the partial result is shown.
BUDGET = 2.0
#: Characters of a passage's text kept for showing (the start and the end).
EXCERPT = 160


@dataclass(frozen=True)
class PlacedPassage:
    """One shared passage: character ranges and places in A and B, and its length."""

    a_chars: tuple[int, int]
    b_chars: tuple[int, int]
    a_place: str
    b_place: str
    words_a: int
    words_b: int
    share_of_a: float
    share_of_b: float
    excerpt: str


@dataclass
class PairPassages:
    """Everything ``ndd compare`` prints about a pair."""

    doc_a: DocumentInfo | None
    doc_b: DocumentInfo | None
    shared: Shared
    passages: list[PlacedPassage] = field(default_factory=list)
    contained: str | None = None  # "A lies wholly in B at pp. 2–3", or None

    def to_dict(self) -> dict:
        """A JSON-ready description."""
        def doc(d: DocumentInfo | None) -> dict | None:
            return None if d is None else {"id": d.id, "path": d.relpath, "root": d.root, "format": d.format}

        s = self.shared
        return {
            "a": doc(self.doc_a), "b": doc(self.doc_b),
            "words_a": s.words_a, "words_b": s.words_b,
            "share_a_in_b": round(s.share_a, 4), "share_b_in_a": round(s.share_b, 4),
            "contained": self.contained, "complete": s.complete,
            "passages": [{"a_place": p.a_place, "b_place": p.b_place, "a_chars": list(p.a_chars),
                          "b_chars": list(p.b_chars), "words_a": p.words_a, "words_b": p.words_b,
                          "share_of_a": round(p.share_of_a, 4), "share_of_b": round(p.share_of_b, 4),
                          "excerpt": p.excerpt} for p in self.passages],
        }


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` on one line, its middle cut when longer than ``limit``."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    half = (limit - 3) // 2
    return flat[:half].rstrip() + " … " + flat[-half:].lstrip()


def place_passages(a: Words, b: Words, fmt_a: str | None, fmt_b: str | None, *,
                   budget: float | None = BUDGET) -> tuple[Shared, list[PlacedPassage], str | None]:
    """The passages of two texts with their places, and the containment sentence if any."""
    shared = shared_passages(a, b, budget=budget)
    pa, pb = Places(a.text, fmt_a), Places(b.text, fmt_b)
    out = []
    for p in shared.passages:
        ca, cb = a.chars(p.a0, p.a1), b.chars(p.b0, p.b1)
        out.append(PlacedPassage(ca, cb, pa.span(*ca), pb.span(*cb), p.words_a, p.words_b,
                                 p.words_a / max(len(a), 1), p.words_b / max(len(b), 1),
                                 excerpt(a.text[ca[0]:ca[1]])))
    contained = None
    if shared.passages and (shared.a_in_b or shared.b_in_a):
        # the smaller side lies in the other: say where, from its first to its last passage
        a_small = shared.a_in_b and (not shared.b_in_a or len(a) <= len(b))
        if a_small:
            span = pb.span(min(p.b_chars[0] for p in out), max(p.b_chars[1] for p in out))
            contained = f"A lies {'wholly' if shared.share_a >= 0.999 else 'nearly wholly'} in B at {span}"
        else:
            span = pa.span(min(p.a_chars[0] for p in out), max(p.a_chars[1] for p in out))
            contained = f"B lies {'wholly' if shared.share_b >= 0.999 else 'nearly wholly'} in A at {span}"
        if shared.a_in_b and shared.b_in_a:  # each lies (nearly) wholly in the other
            # "the same words" only when every word of each is in the other: with 0.999 two
            # changed words of 7,000 said "the same text" beside a highlighted difference,
            # and a difference of layout or punctuation alone is highlighted too
            contained = ("A and B have the same words" if min(shared.share_a, shared.share_b) >= 1.0 - 1e-12
                         else "A and B are nearly the same text")
    return shared, out, contained


def compare_texts(text_a: str | None, text_b: str | None, fmt_a: str | None, fmt_b: str | None, *,
                  budget: float | None = BUDGET) -> tuple[Shared, list[PlacedPassage], str | None]:
    """:func:`place_passages` of two texts already read (offsets into these very texts)."""
    return place_passages(words_of(text_a), words_of(text_b), fmt_a, fmt_b, budget=budget)


def compare_documents(documents: Documents, a_id: int, b_id: int, *, budget: float | None = BUDGET) -> PairPassages:
    """The placed passages of two documents of a collection (its ``store.documents``)."""
    docs = {d.id: d for d in documents.all([a_id, b_id], status=None)}
    texts = documents.texts([a_id, b_id])
    da, db = docs.get(a_id), docs.get(b_id)
    shared, placed, contained = place_passages(
        words_of(texts.get(a_id, "")), words_of(texts.get(b_id, "")),
        da.format if da else None, db.format if db else None, budget=budget)
    return PairPassages(da, db, shared, placed, contained)


class NotInCollection(LookupError):
    """A path or id that names no document of the collection."""


def find_document(documents: Documents, path: str) -> DocumentInfo:
    """The document at ``path``: a file path (absolute or from here) or a path as the
    collection lists it (relative to its folder; ``mail.eml!attachment.pdf`` for a member).

    Raises:
        NotInCollection: no document, or several, at that path.
    """
    docs = documents.all(status=None)
    full = os.path.abspath(path)
    hits = [d for d in docs if os.path.join(d.root, *d.relpath.split("/")) == full]
    if not hits:
        norm = path.replace(os.sep, "/")
        hits = [d for d in docs if d.relpath == norm or d.relpath.endswith("/" + norm.lstrip("./"))]
    ok = [d for d in hits if d.status == "ok"] or hits
    if not ok:
        raise NotInCollection(f"{path} is not a document of the collection")
    if len(ok) > 1:
        raise NotInCollection(f"{path} names {len(ok)} documents of the collection; give more of its path")
    return ok[0]
