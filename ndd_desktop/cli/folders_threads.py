"""``ndd folders`` (near-duplicate folders) and ``ndd threads`` (e-mail threads)."""

from __future__ import annotations

import argparse
import json
import sys

from . import EXIT_OK, UsageError


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, got {value}")
    return value


def add_parsers(sub, add_db, add_selection) -> None:
    """Add the ``folders`` and ``threads`` subcommands to ``ndd``'s subparsers."""
    p = sub.add_parser(
        "folders", help="list pairs of near-duplicate folders",
        description="Pairs of folders (at any depth; a folder holds everything below it) with the share of each "
                    "one's documents that have an exact or near duplicate in the other. relation: same, 'a in b' "
                    "(every document of a has a duplicate in b), 'b in a', or overlap. Near duplicates: the pairs "
                    "at the threshold (see 'ndd pairs').")
    add_db(p)
    add_selection(p)
    p.add_argument("--min-share", type=_share, default=0.8, metavar="S",
                   help="list a pair when at least this share of either folder is matched (default %(default)s)")
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.set_defaults(run=cmd_folders)

    p = sub.add_parser(
        "threads", help="list e-mail threads and their inclusive messages",
        description="E-mail messages (eml, mbox, msg) grouped into threads, oldest first. A message is inclusive "
                    "when its text is not contained (quoted) in a later message of its thread.")
    add_db(p)
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.set_defaults(run=cmd_threads)

    export = sub.choices["export"]
    export.add_argument("--leave-out-covered-folders", action="store_true",
                        help="leave out whole folders whose every document has an exact or near duplicate in "
                             "another exported folder (see 'ndd folders'); the reports give the covering folder")
    export.add_argument("--emails", choices=("all", "inclusive"), default="all",
                        help="inclusive: keep only the e-mails whose text no later message of their thread quotes, "
                             "and attachments exported nowhere else (see 'ndd threads'; default: all)")


def cmd_folders(args: argparse.Namespace) -> int:
    """``ndd folders``: one row per pair of near-duplicate folders, best first."""
    from ..app.analyses import FOLDER_COLUMNS, folder_source
    from .opening import open_store
    from .selection import open_session
    from .output import write_rows

    with open_store(args.db) as store:
        if store.scans.last_method() is None and args.method is None:
            raise UsageError("the collection has not been scanned yet (run 'ndd scan')")
        analysis = folder_source(open_session(store, args, grouping=False)).analyse(args.min_share)
    write_rows(analysis.rows(), args.format, sys.stdout, FOLDER_COLUMNS)
    return EXIT_OK


THREAD_COLUMNS = ["thread", "position", "inclusive", "date", "from", "subject", "path", "root", "message_id",
                  "reason", "id"]


def cmd_threads(args: argparse.Namespace) -> int:
    """``ndd threads``: every thread with its messages in order, inclusive or not."""
    from ..app.analyses import threads_job
    from ..app.session import Session
    from .opening import open_store
    from .output import iso_utc, write_rows

    with open_store(args.db) as store:
        threads = threads_job(Session(store))()
    if args.format == "json":
        out = [
            {
                "thread": t.thread_id, "subject": t.subject,
                "messages": [
                    {"position": k, "inclusive": m.inclusive, "date": iso_utc(m.date), "from": m.sender,
                     "subject": m.subject, "path": m.relpath, "root": m.root, "message_id": m.message_id,
                     "reason": m.reason, "id": m.doc_id, "parent": m.parent}
                    for k, m in enumerate(t.messages, start=1)
                ],
            }
            for t in threads
        ]
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    rows = [
        {"thread": t.thread_id, "position": k, "inclusive": "yes" if m.inclusive else "no",
         "date": iso_utc(m.date), "from": m.sender, "subject": m.subject, "path": m.relpath, "root": m.root,
         "message_id": m.message_id, "reason": m.reason, "id": m.doc_id}
        for t in threads for k, m in enumerate(t.messages, start=1)
    ]
    write_rows(rows, "csv", sys.stdout, THREAD_COLUMNS)
    return EXIT_OK
