"""Running an export: plan, copy or link each file with verification, reports, bag.

The job reads the store and the source files and writes only inside the destination
(every write goes through :class:`~.layout.WriteGuard`). It can be cancelled between
chunks of a file; a rerun with the same plan resumes from the journal.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from dataclasses import dataclass, field

from ..pipeline.progress import ProgressMeter
from . import bag as bagging
from .copy import FileProblem, is_cancelled, needs_rescan, transfer_file
from .errors import ExportCancelled, destination_full
from .journal import Journal
from .layout import REPORTS_DIR, WriteGuard
from .left_out_check import check_left_out_sources
from .options import ExportOptions
from .plan import ExportPlan, plan_export
from .report_data import ReportContext
from .shares import mails_left_out, partly_elsewhere
from .report_html import closest_pairs, write_html
from .reports_csv_json import write_documents_csv, write_documents_json, write_left_out_csv

#: Stages an export reports through the progress callback, in order.
EXPORT_STAGES = ("plan", "copy", "reports", "bag", "validate", "done")


@dataclass(frozen=True)
class FileIssue:
    """A file that was not exported, and why."""

    target: str
    source: str
    reason: str


@dataclass
class ExportResult:
    """What an export did. ``ok`` is True when every planned file is in DEST (and the bag is valid).

    ``failed`` holds the files that could not be exported and the entries the scan could
    not read; ``not_files`` the entries that are not regular files (symbolic links the scan
    did not follow, FIFOs, sockets, devices, folder aliases), which are not exported and
    are no failure.
    """

    dest: str
    payload_dir: str
    plan_id: str
    files_planned: int = 0
    copied: int = 0
    linked: int = 0
    skipped: int = 0  # verified in an earlier, interrupted run
    bytes_written: int = 0
    failed: list[FileIssue] = field(default_factory=list)
    not_files: list[FileIssue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reports: list[str] = field(default_factory=list)
    bag: bool = False
    bag_valid: bool | None = None
    bag_message: str = ""
    resumed: bool = False
    already_complete: bool = False
    seconds: float = 0.0
    #: left-out documents to check before deleting originals (``ExportPlan.suspects``)
    to_check: dict = field(default_factory=dict)
    #: documents the plan leaves out (duplicates, covered folders, non-inclusive e-mails)
    left_out: int = 0
    #: of them, those with a tenth or more of their text not in what they are left out for
    #: (``shares.partly_elsewhere``)
    partly_elsewhere: int = 0
    #: of them, e-mails left out as near-duplicates in an export of every message
    #: (``shares.mails_left_out``; 0 with ``emails="inclusive"``)
    mails_left_out: int = 0
    #: of ``failed``: planned files not copied, files of left-out documents that changed
    #: or vanished since the scan, and the plan's own failures (entries the scan could not
    #: read, unsafe paths)
    copy_failures: int = 0
    left_out_changed: int = 0
    plan_failures: int = 0
    #: left-out documents whose kept document was not exported (its copy failed)
    not_covered: int = 0
    #: what to do about the failures, in a sentence ("" when there is nothing to do)
    advice: str = ""
    #: exported files whose names Windows or a FAT/exFAT drive cannot hold (``ExportPlan.not_portable``)
    not_portable: int = 0

    @property
    def ok(self) -> bool:
        """No file failed and, for a bag, the bag validates."""
        return not self.failed and self.bag_valid is not False

    def to_read_first(self) -> list[str]:
        """The sentences on what to read before deleting originals or handing the set on
        (documents that may be alike only through a shared passage, those with text of their
        own, e-mails left out as near-duplicates, names Windows cannot hold), as ``ndd
        export`` and the window's export dialog both say them."""
        from . import portable_names
        from .shares import mails_left_out_summary, partly_elsewhere_summary
        from .template_check import suspects_summary

        return [s for s in (suspects_summary(self.to_check), partly_elsewhere_summary(self.partly_elsewhere),
                            mails_left_out_summary(self.mails_left_out), portable_names.summary(self.not_portable))
                if s]


def _target_path(root: str, target: str) -> str:
    return os.path.join(root, *target.split("/"))


def run_export(store, options: ExportOptions, progress=None, cancel=None, *, plan: ExportPlan | None = None) -> ExportResult:
    """Export the deduplicated set and the reports of ``store`` as ``options`` say.

    Args:
        progress: called with ``pipeline.Progress`` reports (stages: :data:`EXPORT_STAGES`).
        cancel: any object with ``cancelled`` (e.g. ``pipeline.CancelToken``).
        plan: a plan already computed with :func:`plan_export` (the dialog shows one first).

    Raises:
        ExportError: the export cannot start (destination, options, store).
        ExportCancelled: ``cancel`` was set; verified copies stay and a rerun resumes.
    """
    started = time.monotonic()
    meter = ProgressMeter(progress)
    meter.stage("plan")
    if plan is None:
        plan = plan_export(store, options)
    o = plan.options
    dest = os.path.abspath(o.dest)
    source_roots = sorted({r.path for r in plan.roots} | {r.root for r in plan.rows})
    guard = WriteGuard(dest, source_roots)
    journal = Journal.open(dest, plan.plan_id, guard)
    result = ExportResult(dest=dest, payload_dir=dest, plan_id=plan.plan_id,
                          files_planned=len(plan.files), bag=o.bagit, resumed=journal.resumed,
                          not_files=[FileIssue(i.path, i.source, i.reason) for i in plan.not_files],
                          to_check=dict(plan.suspects), left_out=len(plan.left_out),
                          partly_elsewhere=partly_elsewhere(plan.left_out_rows),
                          mails_left_out=mails_left_out(plan.left_out_rows) if o.emails == "all" else 0,
                          plan_failures=len(plan.issues), not_portable=len(plan.not_portable))
    try:
        if o.bagit and journal.state == "complete":
            result.already_complete = True
            result.payload_dir = os.path.join(dest, bagging.PAYLOAD_DIR)
            result.bag_valid, result.bag_message = bagging.validate_bag(dest)
            meter.stage("done")
            return result
        outcomes = _transfer_all(plan, dest, journal, guard, meter, cancel, result, source_roots)
        if is_cancelled(cancel):
            raise ExportCancelled()
        ctx = ReportContext(plan, outcomes, left_out_problems=_check_left_out(plan, result, source_roots, cancel))
        result.not_covered = sum(1 for r in plan.left_out_rows if ctx.not_covered(r))
        missing = result.copy_failures  # planned files not copied this time
        result.advice = _advice(result)
        if o.bagit and (missing or result.left_out_changed):
            # a bag says it is whole; one made now would leave those files out for good, as a
            # rerun takes a complete bag as it is (and would not look at the left-out files
            # again). The copies stay; a rerun copies the rest.
            what = [f"{n} {one if n == 1 else many}" for n, one, many in (
                (missing, "planned file could not be copied", "planned files could not be copied"),
                (result.left_out_changed, "left-out file changed or vanished since the scan",
                 "left-out files changed or vanished since the scan")) if n]
            result.bag_message = f"the bag was not made: {', '.join(what)}; {result.advice}"
            meter.stage("done")
            return result
        meter.stage("reports")
        pairs = closest_pairs(store, ctx, o.closest_pairs) if "html" in o.reports else []
        if o.bagit:
            meter.stage("bag")
            _bag_payload(dest, plan, journal)
            result.payload_dir = os.path.join(dest, bagging.PAYLOAD_DIR)
        result.reports = _write_reports(ctx, pairs, dest, guard)
        if not missing:
            journal.set_state("complete")
        journal.close()
        if o.bagit:
            bagging.refresh_tag_manifests(dest)
            meter.stage("validate")
            result.bag_valid, result.bag_message = bagging.validate_bag(dest)
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            try:  # its last lines may not fit either; what it holds is what a rerun resumes from
                journal.close()
            except OSError:
                pass
            raise destination_full(dest, exc) from None
        raise
    finally:
        journal.close()
        result.seconds = time.monotonic() - started
    meter.stage("done")
    return result


def _transfer_all(plan, dest, journal, guard, meter, cancel, result, source_roots) -> dict[str, str]:
    """Copy or link every planned file; return target -> "copied" | "linked" | "failed: ...".

    A source is read through a symbolic link only where it leads inside ``source_roots``
    (as the walk follows links), never to a file outside the scanned folders.
    """
    o = plan.options
    outcomes: dict[str, str] = {}
    folded = {t.casefold() for t in journal.done}
    meter.stage("copy", total=len(plan.files))
    for n, pf in enumerate(plan.files):
        if is_cancelled(cancel):
            raise ExportCancelled()
        meter.update(n, current=pf.target)
        target = _target_path(dest, pf.target)
        done = journal.done.get(pf.target)
        if done is not None:
            if _still_there(target, done, pf.scanned_mtime_ns):
                outcomes[pf.target] = done["how"]
                result.skipped += 1
                continue
            journal.forget(pf.target)
            if os.path.lexists(target):
                os.remove(guard.check(target))
        elif os.path.lexists(target) and pf.target.casefold() not in folded:
            # DEST held only our journal when the export began, so this is our own copy,
            # renamed into place just before a crash kept it out of the journal
            os.remove(guard.check(target))
        try:
            t = transfer_file(pf.source, target, pf.expected_sha256, pf.scanned_mtime_ns,
                              mode=o.mode, guard=guard, cancel=cancel, keep_writable=o.bagit,
                              roots=source_roots)
        except FileProblem as exc:
            outcomes[pf.target] = f"failed: {exc}"
            result.failed.append(FileIssue(pf.target, pf.source, str(exc)))
            result.copy_failures += 1
            continue
        journal.record(pf.target, t.sha256, t.size, t.how, t.mtime_ns)
        folded.add(pf.target.casefold())
        outcomes[pf.target] = t.how
        result.bytes_written += t.size if t.how == "copied" else 0
        if t.how == "linked":
            result.linked += 1
        else:
            result.copied += 1
        if t.note:
            result.notes.append(f"{pf.target}: {t.note}")
    for issue in plan.issues:
        result.failed.append(FileIssue(issue.path, issue.source, issue.reason))
    meter.finish()
    return outcomes


def _still_there(target: str, done: dict, scanned_mtime_ns: int) -> bool:
    """Whether the copy the journal lists is still in DEST as it was made: its size and its
    modification time (a copy gets its source's). A copy edited in place keeps its size,
    and the reports' SHA-256 would no longer be its own; it is copied again. (Journals of
    earlier versions hold no time: the scan's is the copy's unless the source was touched
    since, which at worst copies it again.)"""
    try:
        st = os.stat(target)
    except OSError:
        return False
    return (stat.S_ISREG(st.st_mode) and st.st_size == done["size"]
            and st.st_mtime_ns == done.get("mtime_ns", scanned_mtime_ns))


def _check_left_out(plan: ExportPlan, result: ExportResult, roots, cancel) -> dict[int, str]:
    """Look at the files of the left-out documents again (``export.left_out_check``); a
    changed or vanished one is a failure. Returns document id -> reason for the reports."""

    def cancel_check() -> None:
        if is_cancelled(cancel):
            raise ExportCancelled()

    by_doc: dict[int, str] = {}
    problems = check_left_out_sources(plan.left_out_sources, roots, cancel_check)
    for src, why in problems.items():
        result.failed.append(FileIssue(src.path, src.source, why))
        by_doc.update((d, why) for d in src.doc_ids)
    result.left_out_changed = len(problems)
    return by_doc


def _advice(result: ExportResult) -> str:
    """What to do about the failures of ``result``: a file that changed since the scan is
    checked against the old scan by every rerun, and a rescan changes the plan (a rerun
    into this folder is then refused), so the way on is a rescan and a new folder."""
    rescan = sum(1 for f in result.failed if needs_rescan(f.reason))
    copies = result.failed[:result.copy_failures]  # the transfer loop's failures come first
    other = sum(1 for f in copies if not needs_rescan(f.reason))
    parts = []
    if rescan:
        parts.append(f"{rescan} file{'s' if rescan != 1 else ''} changed since the scan: rescan (ndd scan), "
                     "then export to a new folder")
    if other:
        parts.append(f"{other} file{'s' if other != 1 else ''} could not be read: once "
                     f"{'they' if other != 1 else 'it'} can, run the same export again: it copies what is missing"
                     + (", then makes the bag" if result.bag else ""))
    return "; ".join(parts)


def _bag_payload(dest: str, plan: ExportPlan, journal: Journal) -> None:
    """Make the bag, with the journal stepping aside (bagit moves all of DEST into data/).

    If bagit fails before it moved anything, the journal comes back so a rerun can try
    again; after a partial move DEST is left for the user to inspect, and a rerun refuses it.
    """
    bagging.check_can_bag(dest)
    journal.detach()
    before = set(os.listdir(dest))
    try:
        bagging.make_payload_bag(dest, plan)
    except Exception:
        if set(os.listdir(dest)) == before:
            journal.reattach()
        raise
    journal.reattach()


def _write_reports(ctx: ReportContext, pairs, dest: str, guard) -> list[str]:
    """Write the asked reports and the left-out list into DEST/_ndd_reports."""
    folder = os.path.join(dest, REPORTS_DIR)
    os.makedirs(guard.check(folder), exist_ok=True)
    written = [write_left_out_csv(ctx, folder, guard)]
    asked = ctx.plan.options.reports
    if "csv" in asked:
        written.append(write_documents_csv(ctx, folder, guard))
    if "json" in asked:
        written.append(write_documents_json(ctx, folder, guard))
    if "html" in asked:
        written.append(write_html(ctx, pairs, folder, guard))
    return written
