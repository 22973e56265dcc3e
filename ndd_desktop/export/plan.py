"""The export plan: which files go where, and one report row per document.

The deduplicated set is every document in no duplicate group plus the keepers of each
group (``pipeline.grouping.groups_at`` applies the reviewer's keepers and "not
duplicate" verdicts): a document is left out only when it duplicates a kept document
directly (a pair at the threshold, or a reviewer's "duplicate"), so a chained group keeps
as many documents as it needs (``core.cover``). The unit that is copied is the file on disk: a container member
is exported as its container file, so a container goes out when any of its documents is
kept, and stays out only when all of them are left-out duplicates.

Records the scan made for entries it never read as files are not planned as files (see
:mod:`.scan_records`): entries that are not regular files (links the scan did not follow,
FIFOs, folder aliases) are listed in ``ExportPlan.not_files``; entries the scan could not
read become issues (failures), with the scan's reason.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from dataclasses import dataclass, field, replace

from ..ingest.document import free_numbered_name
from ..pipeline.grouping import groups_at
from ..pipeline.pair_lookup import PairLookup
from .decisions import DecisionIndex
from .errors import ExportError
from .extra_leave_out import extra_leave_outs, restated_rows
from .layout import bag_safe_relpath, check_destination, root_names, safe_relpath
from .left_out_check import LeftOutSource, left_out_sources
from .options import ExportOptions, resolve_options
from .roles import CHOSEN_KEEPER_NOTE, DUPLICATE, KEEPER, UNIQUE
from .scan_records import NOT_A_FILE, UNREAD, scan_exclusion
from .shares import containment_lookup, found_in, low_share_note, text_shares
from .portable_names import windows_problems
from .template_check import suspect_note, template_suspects


@dataclass(frozen=True)
class PlannedFile:
    """One file on disk to export.

    ``expected_sha256`` is the store's hash of the whole file, or None where the store only
    knows the hashes of its members (a container with no document of its own) or has no
    hash (a file that could not be read at scan time): such a file is verified against
    the hash of its bytes as read at export time, after a check that its modification
    time is still the one the scan saw.
    """

    source: str
    target: str  # POSIX path relative to the payload folder: "<root-name>/<relpath>"
    expected_sha256: str | None
    scanned_mtime_ns: int
    doc_ids: tuple[int, ...]
    size: int | None = None  # known when the store has a document of the whole file


@dataclass(frozen=True)
class DocumentRow:
    """One document as the reports list it (see docs/export.md for the columns)."""

    doc_id: int
    path: str  # "<root-name>/<relpath>", members as "<root-name>/mail.eml!att.pdf"
    source: str  # the file on disk (the container file for a member)
    root: str
    relpath: str
    container: str | None
    sha256: str
    size: int
    format: str
    status: str
    reference: bool
    group_id: int | None
    principal: int | None
    principal_path: str
    keeper_path: str
    role: str
    score: float | None
    containment: float | None
    verdict: str
    reviewer: str
    decided_at: str
    target: str  # payload path of the file that carries it; "" when it is not exported
    note: str = ""
    score_to_keeper: float | None = None  # the stored score with the group's keeper (None: none stored)
    duplicate_of: str = ""  # a left-out document: the kept document it duplicates directly
    duplicate_score: float | None = None  # ... and their score (None: a reviewer's "duplicate", no score)
    #: ... and the share of this document's text found in that document (None: not known)
    found_in_duplicate_of: float | None = None


@dataclass(frozen=True)
class PlanIssue:
    """A document the plan does not export, and why.

    In ``ExportPlan.issues`` a failure (an unsafe path, an entry the scan could not
    read); in ``ExportPlan.not_files`` an entry that is not a regular file (no failure).
    """

    doc_id: int
    path: str
    reason: str
    source: str = ""  # the path on disk


@dataclass
class ExportPlan:
    """Everything an export will do, computed from the store before any file is touched."""

    options: ExportOptions  # resolved: method, pairs_key and threshold are set
    params: dict
    floor: float
    roots: list  # store Root objects
    root_names: dict[str, str]
    files: list[PlannedFile]
    rows: list[DocumentRow]
    groups: list  # pipeline DocGroup objects
    left_out: list[int]
    pair_count: int
    issues: list[PlanIssue] = field(default_factory=list)
    plan_id: str = ""
    #: entries that are not regular files (links the scan did not follow, FIFOs, sockets,
    #: devices, folder aliases): not exported, and no failure; ``reason`` is the scan's
    not_files: list[PlanIssue] = field(default_factory=list)
    #: left-out documents to check before an original is deleted (``export.template_check``):
    #: document id -> (group id, documents sharing the common passage, share of its own text)
    suspects: dict[int, tuple[int, int, float]] = field(default_factory=dict)
    #: files that carry only left-out documents: checked again when the export runs
    #: (``export.left_out_check``), so that no report calls a file changed since the scan a duplicate
    left_out_sources: list[LeftOutSource] = field(default_factory=list)
    #: exported files whose names Windows cannot hold, by target (``export.portable_names``)
    not_portable: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_id = {r.doc_id: r for r in self.rows}

    def row(self, doc_id: int) -> DocumentRow:
        """The report row of one document."""
        return self._by_id[doc_id]

    @property
    def left_out_rows(self) -> list[DocumentRow]:
        """Rows of the duplicates left out of the set, in path order."""
        return sorted((self._by_id[d] for d in self.left_out), key=lambda r: r.path)

def plan_export(store, options: ExportOptions) -> ExportPlan:
    """Compute the export of ``options`` from ``store`` without touching any file.

    Raises:
        ExportError: no scan or pairs to export, a destination inside a source folder,
            an unknown keeper rule or measure.
    """
    options, pair_set = resolve_options(store, options)
    roots = store.documents.roots()
    docs = store.documents.all(status=None)
    listed = [r.path for r in roots]
    root_paths = listed + sorted({d.root for d in docs} - set(listed))
    check_destination(options.dest, root_paths)
    names = root_names(root_paths)
    try:
        grouping = groups_at(
            store,
            options.method,
            options.pairs_key,
            options.threshold,
            measure=options.measure,
            keeper_rule=options.keeper_rule,
            folder_priority=options.folder_priority,
            grouping=options.grouping,
        )
    except ValueError as exc:  # an unknown keeper rule, measure or grouping
        raise ExportError(str(exc)) from None
    # Grouping.left_out names documents kept apart by a "not duplicate" (they are in no
    # group and so are exported); the duplicates this export leaves out are the members
    # each group's keepers cover directly (DocGroup.covered_by).
    membership = {}
    left_out: set[int] = set()
    for g in grouping.groups:
        for m in g.members:
            membership[int(m)] = g
        left_out.update(g.covered_by)
    cover_of = {int(m): int(k) for g in grouping.groups for m, (k, _v) in g.covered_by.items()}
    arrays = store.pairs.arrays(options.method, options.pairs_key)
    contained = containment_lookup(arrays)
    # covered folders, non-inclusive e-mails
    extra = extra_leave_outs(store, options, left_out, docs, cover_of, contained)
    left_out = (left_out - set(extra.put_back)) | set(extra.left_out)
    planner = _Planner(options, names, membership, left_out, set(grouping.partial))
    files, issues = planner.files(docs)
    scored = PairLookup(arrays.a, arrays.b, arrays.score)
    decisions = DecisionIndex(store.review.standing())
    planner.texts = text_shares(store, planner.by_id)
    rows = [planner.row(d, contained, decisions, scored) for d in docs]
    if extra.notes:
        def score_of(x, y):
            return scored.get((min(x, y), max(x, y)))

        rows = restated_rows(rows, extra, membership, left_out,
                             lambda d: planner.display(planner.by_id[d]) if d in planner.by_id else "",
                             score_of,
                             lambda x, y: found_in(contained, planner.by_id[x], planner.by_id.get(y),
                                                   planner.texts if score_of(x, y) is None else None)
                             if x in planner.by_id else None)
    # a reviewer's "duplicate" may leave out a text little of which is in what it is left
    # out for: the groups decide, the row warns (docs/export.md)
    rows = [replace(r, note="; ".join(filter(None, (low_share_note(r), r.note))))
            if r.role == DUPLICATE and low_share_note(r) else r for r in rows]
    # left-out documents whose likeness may be a shared template: named, not kept (the
    # window and ndd clusters count the same left-out set)
    suspects = {d: s for d, s in template_suspects(store.documents, grouping.groups, extra.held_by).items()
                if d in left_out}
    if suspects:
        rows = [replace(r, note="; ".join(filter(None, (suspect_note(*suspects[r.doc_id]), r.note))))
                if r.doc_id in suspects else r for r in rows]
    # names Windows or a FAT drive cannot hold: named in their rows, copied as they are
    not_portable = windows_problems(f.target for f in files)
    rows = [replace(r, note="; ".join(filter(None, (f"name Windows cannot hold: {not_portable[r.target]}", r.note))))
            if r.target in not_portable else r for r in rows]
    rows.sort(key=lambda r: r.path)
    plan = ExportPlan(
        options=options, params=dict(pair_set.params), floor=float(pair_set.floor),
        roots=list(roots), root_names=names, files=files, rows=rows,
        groups=list(grouping.groups), left_out=sorted(left_out),
        pair_count=int(grouping.pair_count), issues=issues, not_files=planner.not_files, suspects=suspects,
        not_portable=not_portable,
        left_out_sources=left_out_sources(planner.by_id, left_out, planner.target_of,
                                          {i.doc_id for i in issues} | {d.id for d in docs if scan_exclusion(d)},
                                          planner.display),
    )
    plan.plan_id = plan_identity(plan)
    return plan


class _Planner:
    """The per-file and per-document halves of :func:`plan_export`, sharing their context."""

    def __init__(self, options: ExportOptions, names: dict, membership: dict, left_out: set,
                 partial: set[int] = frozenset()):
        self.options, self.names = options, names
        self.membership, self.left_out = membership, left_out
        self.partial = partial  # Grouping.partial: cut texts kept out of the groups
        self.by_id: dict[int, object] = {}
        self.target_of: dict[int, str] = {}
        self.not_files: list[PlanIssue] = []
        self.not_a_file: set[int] = set()
        self.texts = None  # shares of unstored joins from the texts (export.shares)

    def display(self, doc) -> str:
        """A document's path as the reports show it: ``<root-name>/<relpath>`` (the
        root's name alone for a record of the root itself)."""
        name = self.names[doc.root]
        return f"{name}/{doc.relpath}" if doc.relpath else name

    def _scan_records(self, docs) -> tuple[list, list[PlanIssue]]:
        """Set apart the scan's records of entries it never read as files.

        Returns the other documents and the issues (entries the scan could not read);
        entries that are not regular files go to :attr:`not_files`.
        """
        rest, issues = [], []
        for d in docs:
            kind = scan_exclusion(d)
            if kind is None:
                rest.append(d)
            elif kind == NOT_A_FILE:
                self.not_a_file.add(d.id)
                self.not_files.append(PlanIssue(d.id, self.display(d), d.reason, d.abspath))
            elif kind == UNREAD and (self.options.include_reference or not d.reference):
                issues.append(PlanIssue(d.id, self.display(d), f"the scan could not read it: {d.reason}",
                                        d.abspath))
        self.not_files.sort(key=lambda i: i.path)
        return rest, issues

    def files(self, docs) -> tuple[list[PlannedFile], list[PlanIssue]]:
        """The files on disk to export, grouping documents by the file that carries them."""
        self.by_id = {d.id: d for d in docs}
        docs, issues = self._scan_records(docs)
        disk_files: dict[tuple[str, str], list] = {}
        for d in docs:
            disk_files.setdefault((d.root, d.container or d.relpath), []).append(d)
        files = []
        o = self.options
        bag_names: set[str] = set()
        for (root, diskrel), members in sorted(disk_files.items()):
            rel = safe_relpath(diskrel)
            if rel is None:
                issues.extend(PlanIssue(d.id, self.display(d), "unsafe path: it would leave its folder", d.abspath)
                              for d in members)
                continue
            if not any(d.id not in self.left_out and (o.include_reference or not d.reference) for d in members):
                continue
            own = next((d for d in members if d.container is None and d.relpath == diskrel), None)
            target = f"{self.names[root]}/{rel}"
            if o.bagit:
                target = bag_safe_relpath(target)
                # bagit compares payload names in Unicode NFC: "café" spelled NFC and NFD
                # (two files on Linux) would be one name in the bag; the second is numbered
                if _nfc(target) in bag_names:
                    target = free_numbered_name(target, lambda n: _nfc(n) in bag_names)
                bag_names.add(_nfc(target))
            files.append(PlannedFile(
                source=members[0].abspath,
                target=target,
                expected_sha256=(own.sha256 or None) if own is not None else None,
                scanned_mtime_ns=max(d.mtime_ns for d in members),
                doc_ids=tuple(sorted(d.id for d in members)),
                size=own.size if own is not None else None,
            ))
            for d in members:
                self.target_of[d.id] = target
        files.sort(key=lambda f: f.target)
        return files, issues

    def row(self, d, contained, decisions: DecisionIndex, scored: PairLookup | None = None) -> DocumentRow:
        """The report row of document ``d`` (call :meth:`files` first)."""
        g = self.membership.get(d.id)
        score = cont = None
        principal_path = keeper_path = ""
        if g is None:
            role, shown = UNIQUE, decisions.for_unique(d.id)
        else:
            role = KEEPER if d.id in g.keepers else (DUPLICATE if d.id in self.left_out else UNIQUE)
            shown = decisions.for_member(d.id, g.principal, g.keeper)
            score = g.scores.get(d.id, 1.0 if d.id == g.principal else None)
            cont = None if d.id == g.principal else contained(d.id, g.principal)
            principal_path = self.display(self.by_id[g.principal]) if g.principal in self.by_id else ""
            keeper_path = self.display(self.by_id[g.keeper]) if g.keeper in self.by_id else ""
        note = ""
        if d.id in self.left_out and d.id in self.target_of:
            note = "left out, but exported inside its container"
        elif d.id in self.not_a_file:
            note = f"not a regular file, skipped by the scan: {d.reason}"
        elif not self.options.include_reference and d.reference and d.id not in self.left_out:
            note = "reference document: not exported"
        elif d.id in self.partial:
            note = ("text cut at the size limit, compared on its beginning only: "
                    "grouped only with files of the same bytes, so exported")
        elif g is not None and g.is_extra_keeper(d.id) and decisions.chose_keeper(d.id):
            note = CHOSEN_KEEPER_NOTE
        elif g is not None and g.is_extra_keeper(d.id):
            note = "kept too: no other kept document of its group is similar enough to it"
        cover = None if g is None else g.covered_by.get(d.id)
        return DocumentRow(
            doc_id=d.id, path=self.display(d), source=d.abspath, root=d.root, relpath=d.relpath,
            container=d.container, sha256=d.sha256, size=d.size, format=d.format,
            status=d.status, reference=bool(d.reference),
            group_id=None if g is None else int(g.group_id),
            principal=None if g is None else int(g.principal),
            principal_path=principal_path, keeper_path=keeper_path, role=role,
            score=None if score is None or math.isnan(score) else float(score),
            containment=cont, verdict=shown.verdict, reviewer=shown.reviewer,
            decided_at=shown.time_iso, target=self.target_of.get(d.id, ""), note=note,
            score_to_keeper=(None if g is None or d.id == g.keeper or scored is None
                             else scored.get((min(d.id, g.keeper), max(d.id, g.keeper)))),
            duplicate_of=(self.display(self.by_id[cover[0]]) if cover and cover[0] in self.by_id else ""),
            duplicate_score=None if cover is None or cover[1] is None or math.isnan(cover[1]) else float(cover[1]),
            found_in_duplicate_of=None if cover is None else found_in(
                contained, d, self.by_id.get(cover[0]),
                self.texts if cover[1] is None or math.isnan(cover[1]) else None),
        )


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def plan_identity(plan: ExportPlan) -> str:
    """A hash of what the export writes: a rerun resumes only into the same identity."""
    o = plan.options
    body = {
        "version": 1,
        "method": o.method,
        "pairs_key": o.pairs_key,
        "threshold": o.threshold,
        "mode": o.mode,
        "bagit": o.bagit,
        "sha512": o.sha512,
        **({"covered_folders": True} if o.leave_out_covered_folders else {}),
        **({"emails": o.emails} if o.emails != "all" else {}),
        "files": [[f.target, f.expected_sha256 or "", f.source] for f in plan.files],
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()
