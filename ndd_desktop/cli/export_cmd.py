"""``ndd export``: copy or link what is kept, with reports, through the export package."""

from __future__ import annotations

import argparse
import os
import sys

from . import EXIT_INTERRUPTED, EXIT_OK, CommandError, UsageError
from .opening import open_store
from .output import ProgressBar, one_line
from .scan_cmd import _cancel_on_sigint
from .selection import _check_keeper_rule, note_unsure_latest, open_session


def cmd_export(args: argparse.Namespace) -> int:
    """``ndd export``: hand the selection to the export package (imported only here)."""
    from ..export import DestinationRefused, ExportCancelled, ExportError, run_export
    from ..export.options import resolve_options
    from ..pipeline import CancelToken

    _check_keeper_rule(args)
    with open_store(args.db) as store:
        session = open_session(store, args)
        try:
            options = session.export_options(args.to, mode=args.mode, bagit=args.bagit, reports=args.report,
                                             leave_out_covered_folders=args.leave_out_covered_folders,
                                             emails=args.emails)
            resolve_options(store, options)  # a threshold below the floor is a bad argument, as elsewhere
        except ExportError as exc:
            raise UsageError(str(exc)) from None
        note_unsure_latest(store, session)
        bar = ProgressBar() if sys.stderr.isatty() else None
        token = CancelToken()
        try:
            with _cancel_on_sigint(token):
                result = run_export(store, options, progress=bar, cancel=token)
        except ExportCancelled:
            if bar:
                bar.close()
            sys.stderr.write("ndd: export interrupted; run the same command to resume\n")
            return EXIT_INTERRUPTED
        except DestinationRefused as exc:  # refused before any file is copied: a usage error
            raise UsageError(str(exc)) from None
        except (ExportError, OSError) as exc:
            raise CommandError(str(exc)) from None
        finally:
            if bar:
                bar.close()
    for issue in result.failed:
        sys.stderr.write(f"failed: {one_line(issue.source)}: {one_line(issue.reason)}\n")
    for issue in result.not_files:
        sys.stderr.write(f"not exported: {one_line(issue.source)}: {one_line(issue.reason)}\n")
    for note in result.notes:
        sys.stderr.write(f"note: {note}\n")
    for sentence in result.to_read_first():
        sys.stderr.write(f"ndd: note: {sentence}\n")
    done = result.copied + result.linked + result.skipped
    if result.already_complete:  # a finished bag: nothing to copy, it was validated again
        sys.stderr.write(f"the bag in {result.dest} was already complete ({result.files_planned} files); "
                         f"validated again: {'valid' if result.bag_valid else 'NOT valid'}\n")
    else:
        from ..app.elapsed import elapsed

        n = result.left_out
        # name the list only when it was written (a bag that was not made has no reports)
        listed = any(os.path.basename(r) == "left_out.csv" for r in result.reports)
        out = (f"; {n:,} document{'s' if n != 1 else ''} left out"
               + (" (_ndd_reports/left_out.csv)" if listed else "")) if n else ""
        sys.stderr.write(
            f"exported {done} of {result.files_planned} files to {result.dest} ({result.copied} copied, "
            f"{result.linked} linked, {result.skipped} already there) in {elapsed(result.seconds)}{out}\n"
        )
    if result.not_covered:
        n = result.not_covered
        sys.stderr.write(f"ndd: note: {n:,} document{'s' if n != 1 else ''} left out duplicate{'' if n != 1 else 's'} "
                         "a document that failed to export: nothing exported holds "
                         f"{'them' if n != 1 else 'it'}; keep {'their originals' if n != 1 else 'its original'}"
                         + (" (export_status in the reports)" if result.reports else "") + "\n")
    if not result.ok:
        raise CommandError(_incomplete(result))
    return EXIT_OK


def _incomplete(result) -> str:
    """The last line of an export that did not succeed: what failed, by kind, and what to do."""
    parts = []
    for n, one, many in ((result.copy_failures, "planned file could not be copied",
                          "planned files could not be copied"),
                         (result.left_out_changed, "left-out file changed or vanished since the scan",
                          "left-out files changed or vanished since the scan"),
                         # not among the files counted as exported: the scan never read them as files
                         (result.plan_failures, "entry of the scan was not exported (listed above; a rescan may read it)",
                          "entries of the scan were not exported (listed above; a rescan may read them)")):
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    why = "export incomplete: " + (", ".join(parts) or "see above")
    if result.bag_valid is False:
        why += f"; bag: {result.bag_message}"
    elif result.bag and result.bag_valid is None and result.bag_message:
        why += "; the bag was not made"  # bag_message repeats the counts said above
    if result.advice and result.bag_valid is not False:
        why += f"; {result.advice}"
    return why

