"""``ndd check``, ``ndd repair`` and ``ndd decisions export|import``: the collection file's care."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..store import StoreError
from ..store.check import check_collection
from ..store.repair import repair_collection
from ..store.review_transfer import decisions_refusal, review_from_csv, review_to_csv
from . import EXIT_FAILURE, EXIT_OK, CommandError, UsageError
from .opening import open_store
from .output import one_line


def _a_file(path: str) -> None:
    """Refuse (exit 2) a ``--db`` that is missing or a folder, as every command does."""
    from ..store import StoreNotThere
    from ..store.engine import file_there

    try:
        file_there(path)
    except StoreNotThere as exc:
        raise UsageError(str(exc)) from None


#: Decisions a review import could not apply, named one a line, at most.
UNMATCHED_SHOWN = 20


def cmd_check(args: argparse.Namespace) -> int:
    """``ndd check``: SQLite's integrity check, the schema version and the rows per table;
    exit status 1 when anything is wrong. The file is only read."""
    _a_file(args.db)
    report = check_collection(args.db)
    out = sys.stdout
    out.write(f"collection file: {one_line(os.path.abspath(args.db))}\n")
    if report.revision is not None:
        out.write(f"schema: {report.revision}\n")
    for table, n in report.counts.items():
        out.write(f"{table:14} {'unreadable' if n is None else f'{n:,} rows'}\n")
    if report.integrity and report.integrity != ["ok"]:
        out.write("integrity check:\n")
        for line in report.integrity:
            out.write(f"  {one_line(line)}\n")
    if report.ok:
        out.write("ok: the file is whole\n")
        return EXIT_OK
    for problem in report.problems:
        out.write(f"problem: {one_line(problem)}\n")
    out.flush()
    if report.disk_full:
        sys.stderr.write(f"ndd: error: the disk holding {args.db} is full: SQLite cannot open the file even to "
                         "read it (\"disk I/O error\"); free some space and run 'ndd check' again before "
                         "anything else: the file may well be whole\n")
        return EXIT_FAILURE
    if report.newer and len(report.problems) == 1:  # repairing would lose what the newer schema keeps
        sys.stderr.write(f"ndd: error: {args.db} was written by a newer ndd-desktop (schema {report.revision}): "
                         "upgrade this one to open it; nothing else was found wrong with it\n")
        return EXIT_FAILURE
    sys.stderr.write(f"ndd: error: {args.db} is damaged or not a collection ({len(report.problems)} problem(s)); "
                     f"'ndd repair --db {args.db} --to NEW_FILE' saves what can be read\n")
    return EXIT_FAILURE


def cmd_repair(args: argparse.Namespace) -> int:
    """``ndd repair``: copy what can be read into a new collection file, review first."""
    _a_file(args.db)
    if os.path.exists(args.to):
        raise UsageError(f"{args.to} exists; the repair writes a new collection file")
    folder = os.path.dirname(os.path.abspath(args.to))
    if not os.path.isdir(folder):  # refused before any work, as every missing folder is (exit 2)
        raise UsageError(f"folder {folder} does not exist; the repair writes its new collection file there")
    try:
        report = repair_collection(args.db, args.to)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    err = sys.stderr
    for note in report.notes:
        err.write(f"ndd: note: {note}\n")
    for table, copied in report.copied.items():
        lost = report.lost.get(table)
        lost_text = "an unknown number lost (the damaged file cannot count them)" if lost is None else f"{lost:,} lost"
        dropped = report.dropped.get(table)
        err.write(f"{table:14} {copied:,} saved, {lost_text}" + (f", {dropped:,} dropped (what they belong "
                                                                 "to was lost)" if dropped else "") + "\n")
    for table, reason in report.unreadable.items():
        err.write(f"{table:14} unreadable: {one_line(reason)}\n")
    err.write(f"wrote {report.dest} (integrity check: {report.integrity}). Sketches are made again and pairs "
              "compared again by the next 'ndd scan' of the same folders, which also reads again the files whose "
              "documents were lost; review decisions re-attach to their content.\n")
    if report.integrity != "ok":
        raise CommandError(f"the repaired file {report.dest} does not pass SQLite's integrity check")
    if not report.complete:
        err.write("ndd: note: not everything could be saved (see above)\n")
    return EXIT_OK


def cmd_decisions(args: argparse.Namespace) -> int:
    """``ndd decisions export|import``: the review (verdicts, keepers, settings) as a file."""
    if args.action == "export":
        with open_store(args.db) as store:
            review = store.review.export_dict()
        fmt = args.format or ("csv" if str(args.file).lower().endswith(".csv") else "json")
        text = review_to_csv(review) if fmt == "csv" else json.dumps(review, indent=1, ensure_ascii=False) + "\n"
        if args.file == "-":
            sys.stdout.write(text)
        else:
            try:
                with open(args.file, "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
            except OSError as exc:
                raise CommandError(f"cannot write {args.file}: {exc.strerror or exc}") from None
            sys.stderr.write(f"wrote {len(review['decisions'])} decisions and {len(review['settings'])} settings "
                             f"to {args.file}\n")
        return EXIT_OK
    try:
        with open(args.file, encoding="utf-8", newline="") as fh:
            text = fh.read()
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    fmt = args.format or ("json" if text.lstrip().startswith("{") else "csv")
    try:
        review = json.loads(text) if fmt == "json" else review_from_csv(text.splitlines())
        if not isinstance(review, dict):
            raise ValueError("not an ndd-desktop review")
    except (ValueError, KeyError) as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    from ..pipeline.selection import setting_problems

    problems = setting_problems(review.get("settings") or {}) if isinstance(review.get("settings"), dict) else []
    refused = decisions_refusal(review)  # a verdict "Duplicate" was stored, then ignored by every grouping
    if refused:
        problems.append(refused)
    if problems:  # nothing is imported: a bad setting or value would be ignored silently later
        raise UsageError(f"{args.file}: " + "; ".join(problems))
    with open_store(args.db) as store:
        try:
            report = store.review.import_dict(review)
        except ValueError as exc:
            raise UsageError(f"{args.file}: {exc}") from None
    sys.stderr.write(f"imported {report.applied} decisions and {report.settings} settings; {report.kept_newer} "
                     f"kept as they were (the collection's own decision is as new or newer); {report.unmatched} "
                     "name content this collection does not hold (or copies the path cannot tell apart)\n")
    for line in report.unmatched_items[:UNMATCHED_SHOWN]:  # which: they were only counted
        sys.stderr.write(f"  not applied: {one_line(line)}\n")
    if len(report.unmatched_items) > UNMATCHED_SHOWN:
        sys.stderr.write(f"  ... and {len(report.unmatched_items) - UNMATCHED_SHOWN} more\n")
    if report.state_ignored:
        sys.stderr.write(f"ndd: note: {report.state_ignored} setting(s) of the file describe how its own collection "
                         "was read, not the review; this collection keeps its own\n")
    return EXIT_OK
