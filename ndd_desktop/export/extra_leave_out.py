"""Documents an export leaves out beyond the duplicates of its groups, each with its reason.

Two options add to the left-out set of :func:`~ndd_desktop.export.plan.plan_export`:

* ``leave_out_covered_folders``: a folder every document of which has an exact or near
  duplicate in another folder that is exported (see :mod:`ndd_desktop.pipeline.folders`)
  is left out whole. Where a document of the covered folder was its group's keeper and
  its match in the covering folder a left-out duplicate, that match is *put back* (so
  the content is exported exactly once, from the covering folder). Folders are taken
  largest first; a folder relied on as a cover, or holding a document relied on, is
  never left out afterwards, so no content is lost through chains of covers. A duplicate
  elsewhere whose kept document goes with the folder is exported itself unless the match
  put in that document's place holds it as well (at the threshold): nothing else stands in
  for it then.
* ``emails == "inclusive"``: e-mail messages that are not inclusive (their text is
  quoted in a later message of their thread, see :mod:`ndd_desktop.pipeline.threads`)
  are left out, with their attachments where the same content is exported elsewhere; and
  an inclusive message that its group left out as a near duplicate is put back unless
  the kept document it duplicates holds all of its text (a reply with an objection of its
  own that quotes the message it answers scores as that message's near duplicate).

The export unit is the file on disk: a message inside an mbox is left out of the reports'
set, but the mbox file goes out as long as one of its documents is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from .roles import DUPLICATE, KEEPER


@dataclass
class ExtraLeaveOut:
    """What the options change: documents left out (id -> reason) and duplicates put back (id -> reason)."""

    left_out: dict[int, str] = field(default_factory=dict)
    put_back: dict[int, str] = field(default_factory=dict)
    #: a document left out -> the document that holds its content for the export (the
    #: match in the covering folder, the later message that quotes it, the attachment's
    #: copy); the reports name it as what the left-out document duplicates
    held_by: dict[int, int] = field(default_factory=dict)

    @property
    def notes(self) -> dict[int, str]:
        """The report note of every document the options touched."""
        return {**self.put_back, **self.left_out}


def extra_leave_outs(store, options, left_out: set[int], docs, cover_of: dict[int, int] | None = None,
                     share_in: Callable[[int, int], float | None] | None = None) -> ExtraLeaveOut:
    """The extra leave-outs of ``options`` given the plan's ``left_out`` duplicates.

    ``docs``: the store's documents (any status); ``cover_of``: each left-out duplicate's
    kept document (``DocGroup.covered_by``); ``share_in(x, y)``: the stored share of x
    found in y (None: no pair stored). Returns an empty result when neither option is on.
    """
    out = ExtraLeaveOut()
    share_in = share_in or (lambda x, y: None)
    if getattr(options, "leave_out_covered_folders", False):
        _covered_folders(store, options, left_out, docs, out, share_in)
        _orphans(options, left_out, cover_of or {}, share_in, out)
    if getattr(options, "emails", "all") == "inclusive":
        _inclusive_emails(store, left_out, docs, out, cover_of or {})
    return out


def _covered_folders(store, options, left_out: set[int], docs, out: ExtraLeaveOut, share_in) -> None:
    from ..core.folders import covered_by
    from ..pipeline.folders import analyse_folders
    from ..pipeline.group_edges import may_stand_in

    analysis = analyse_folders(store, options.method, options.pairs_key, options.threshold, min_share=1.0)
    folders = analysis.folders
    ids = analysis.doc_ids
    reference = {d.id for d in docs if d.reference}
    sizes = {int(a): int(n) for a, n in zip(analysis.pairs.a, analysis.pairs.n_a)}
    sizes.update({int(b): int(n) for b, n in zip(analysis.pairs.b, analysis.pairs.n_b)})
    # largest folders first; between folders that cover each other the later path goes
    candidates = sorted(covered_by(analysis.pairs), key=lambda fg: (-sizes[fg[0]], [-ord(c) for c in
                                                                                    folders[fg[0]].abspath]))
    gone: set[int] = set()  # folders left out
    relied: set[int] = set()  # documents (indices) other folders rely on
    cover_folders: set[int] = set()

    def under(f: int, pool: set[int]) -> bool:
        return any(int(x) in pool for x in analysis.anc[f] if x >= 0)

    def exported(doc_id: int) -> bool:
        return (doc_id not in left_out or doc_id in out.put_back) and doc_id not in out.left_out

    for f, g in candidates:
        if under(f, gone) or under(g, gone) or f in cover_folders:
            continue
        docs_f, docs_g = analysis.documents_in(f), analysis.documents_in(g)
        if any(int(x) in relied for x in docs_f) or any(int(ids[x]) in reference for x in docs_f):
            continue  # reference documents are kept where they are
        x, y, s = analysis.matches_between(docs_f, docs_g)
        by_x: dict[int, list[int]] = {}
        for xi, yi in zip(x.tolist(), y.tolist()):
            # a match stands in for a document of f only as a group's kept document would:
            # half of it (and the threshold) found in the match, and the match not lying
            # wholly in it beside text of its own (a letter never stands in for the
            # report quoting it, whichever folder is larger)
            left, kept = int(ids[xi]), int(ids[yi])
            if may_stand_in(share_in(left, kept), share_in(kept, left), options.threshold):
                by_x.setdefault(xi, []).append(yi)
        chosen: dict[int, int] = {}  # document of f -> the document of g it relies on
        back: set[int] = set()
        ok = True
        for xi in docs_f.tolist():
            if not exported(int(ids[xi])):
                continue  # already out (a duplicate whose keeper is exported)
            ys = by_x.get(xi, [])
            live = [yi for yi in ys if exported(int(ids[yi]))]
            if live:
                chosen[xi] = live[0]
            elif ys:
                chosen[xi] = ys[0]
                back.add(ys[0])
            else:
                ok = False
                break
        if not ok:
            continue
        cover = folders[g].abspath
        for xi, yi in chosen.items():
            out.left_out[int(ids[xi])] = f"folder {folders[f].abspath} is covered by {cover}"
            out.held_by[int(ids[xi])] = int(ids[yi])
            relied.add(yi)
        for yi in back:
            out.put_back[int(ids[yi])] = (f"exported in place of its duplicate in {folders[f].abspath}, "
                                          f"a folder covered by {cover}")
        for xi in docs_f.tolist():  # the duplicates already out are out for the folder too
            out.left_out.setdefault(int(ids[xi]), f"folder {folders[f].abspath} is covered by {cover}")
        gone.add(f)
        cover_folders.add(g)


def _orphans(options, left_out: set[int], cover_of: dict[int, int], share_in, out: ExtraLeaveOut) -> None:
    """Put back the duplicates outside the covered folders whose kept document went with its
    folder and whose content the match exported in its place does not hold."""
    from ..pipeline.group_edges import may_stand_in

    threshold = float(options.threshold)
    for m, k in cover_of.items():
        if m in out.left_out or m in out.put_back or k not in out.left_out:
            continue
        held = out.held_by.get(k)
        share = share_in(m, held) if held is not None else None
        if share is not None and may_stand_in(share, share_in(held, m), threshold):
            out.held_by[m] = held  # the match holds it too: the reports name the match
            continue
        out.put_back[m] = (f"exported: the document it duplicates was left out ({out.left_out[k]}), "
                           "and nothing exported holds this one")


def _inclusive_emails(store, left_out: set[int], docs, out: ExtraLeaveOut, cover_of: dict[int, int]) -> None:
    from ..pipeline.threads import build_threads
    from ..pipeline.threads import contained as held

    threads = build_threads(store)
    dropped: set[int] = set()
    inclusive = [m.doc_id for t in threads for m in t.messages
                 if m.inclusive and m.doc_id in left_out and m.doc_id not in out.left_out and m.doc_id in cover_of]
    by_id = {d.id: d for d in docs}
    # a copy of the same bytes exported already holds it (a thread saved twice)
    exported = {d.sha256 for d in docs if d.sha256 and d.id not in left_out}
    for doc_id in _not_held(store, inclusive, cover_of):
        digest = by_id[doc_id].sha256 if doc_id in by_id else ""
        if digest in exported:
            continue
        if digest:
            exported.add(digest)
        out.put_back[doc_id] = ("exported as an inclusive e-mail: the near duplicate kept for it "
                                "does not hold all of its text")
    for t in threads:
        rows = {m.doc_id: m for m in t.messages}
        for m in t.messages:
            if m.inclusive or m.doc_id in out.put_back:
                continue
            out.left_out[m.doc_id] = (f"e-mail not inclusive: {held(m.contained_share)} in a later message "
                                      f"of thread {t.thread_id}")
            dropped.add(m.doc_id)
            # the message that holds its text must go out: put it back if it was left out
            # as a near duplicate (of this very message, often: a reply quoting it whole)
            holder = m.contained_in
            seen: set[int] = set()
            while holder is not None and holder in rows and holder not in seen and not rows[holder].inclusive:
                seen.add(holder)
                holder = rows[holder].contained_in
            if holder is not None:
                out.held_by[m.doc_id] = holder
            if holder is not None and holder in left_out and holder not in out.left_out:
                out.put_back[holder] = ("exported as the inclusive message of its thread "
                                        f"{t.thread_id}, which holds the text of the messages left out")
    if not dropped:
        return
    by_id = {d.id: d for d in docs}
    # attachments of a left-out message go too when the same content is exported elsewhere
    kept_hashes: dict[str, int] = {}
    members: list = []
    message_path = {(by_id[i].root, by_id[i].relpath): i for i in dropped if i in by_id}
    for d in docs:
        parent = (d.root, d.relpath.rsplit("!", 1)[0]) if "!" in d.relpath else None
        if parent is not None and parent in message_path:
            members.append(d)
        elif d.sha256 and (d.id not in left_out or d.id in out.put_back) and d.id not in out.left_out:
            kept_hashes.setdefault(d.sha256, d.id)
    for d in members:
        if d.sha256 and d.sha256 in kept_hashes and d.id not in out.left_out:
            other = by_id[kept_hashes[d.sha256]]
            out.left_out[d.id] = f"attachment of a left-out e-mail; the same content is exported as {other.relpath}"
            out.held_by[d.id] = other.id


def _not_held(store, messages: list[int], cover_of: dict[int, int]) -> list[int]:
    """The messages whose whole text is not in the kept document that covers them."""
    if not messages:
        return []
    from ..core.quotes import contained, words

    texts = store.documents.texts(sorted({*messages, *(cover_of[m] for m in messages)}))
    return [m for m in messages if not contained(words(texts.get(m) or ""), words(texts.get(cover_of[m]) or ""))]


#: What the reports say of a document left out whose file goes out with another it holds
#: (``plan``'s note for a left-out member of an exported container).
_IN_CONTAINER = "exported inside its container"


def restated_rows(rows: list, extra: ExtraLeaveOut, membership: dict, left_out: set[int],
                  display: Callable[[int], str],
                  score_of: Callable[[int, int], float | None] = lambda x, y: None,
                  found_of: Callable[[int, int], float | None] = lambda x, y: None) -> list:
    """The rows as the extra leave-outs leave them: a document they leave out is a
    duplicate of the exported document that holds its content; one they put back is
    exported (a keeper, duplicating nothing); and a duplicate whose kept document they
    left out names the exported document that holds it now, with their stored score
    (``score_of``; None: no pair stored), as the score with the keeper does, and the share
    of it found there (``found_of``). Before, only
    the note changed: reports named left-out documents as what others duplicate.
    ``display`` names a document as the reports do ("" for one not in them)."""

    def held_by(doc_id: int) -> int | None:
        """The exported document that holds ``doc_id``'s content (None: none found)."""
        seen: set[int] = set()
        while doc_id in left_out and doc_id not in seen:
            seen.add(doc_id)
            nxt = extra.held_by.get(doc_id)
            if nxt is None:
                g = membership.get(doc_id)
                cover = g.covered_by.get(doc_id) if g is not None else None
                nxt = cover[0] if cover else None
            if nxt is None:
                return None
            doc_id = int(nxt)
        return None if doc_id in left_out else doc_id

    def shown(doc_id: int | None) -> str:
        return "" if doc_id is None else display(doc_id)

    def score(doc_id: int, other: int | None) -> float | None:
        return None if other is None or other == doc_id else score_of(doc_id, other)

    out = []
    for r in rows:
        g = membership.get(r.doc_id)
        if g is not None and int(g.keeper) in left_out:  # the group's copy exported now
            keeper = held_by(int(g.keeper))
            r = replace(r, keeper_path=shown(keeper), score_to_keeper=score(r.doc_id, keeper))
        note = extra.notes.get(r.doc_id, r.note)
        if r.doc_id in extra.left_out and r.target and _IN_CONTAINER not in note:
            note = f"{note}; {_IN_CONTAINER}"  # its file goes out all the same: say so, as for any other
        if r.doc_id in extra.put_back:
            r = replace(r, role=KEEPER, duplicate_of="", duplicate_score=None, found_in_duplicate_of=None, note=note)
        elif r.doc_id in left_out and (r.doc_id in extra.left_out or r.duplicate_of):
            holder_id = held_by(r.doc_id)
            holder = shown(holder_id)
            same = holder == r.duplicate_of
            r = replace(r, role=DUPLICATE, duplicate_of=holder,
                        duplicate_score=r.duplicate_score if same else score(r.doc_id, holder_id),
                        found_in_duplicate_of=(r.found_in_duplicate_of if same or holder_id is None
                                               else found_of(r.doc_id, holder_id)),
                        note=note)
        elif r.doc_id in extra.notes:
            r = replace(r, note=note)
        out.append(r)
    return out
