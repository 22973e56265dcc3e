"""``ndd``: the command line of ndd-desktop (scan, pairs, clusters, lineage, compare, group, errors,
methods, export, folders, threads, check, repair, decisions).

Exit status: 0 on success (a scan with file errors included: they are listed), 1 for a
failure at run time (an unreadable or newer store, a scan that failed), 2 for bad
arguments or a missing path, 130 when a scan was interrupted (its work is kept). Every
error is one line on stderr: ``ndd: error: ...``. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .. import __version__

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """Bad arguments (exit status 2)."""


class CommandError(Exception):
    """A failure at run time (exit status 1)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and no exit of its own."""

    def error(self, message: str):  # noqa: D102 - argparse API
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _workers(text: str) -> int:
    """--workers: a whole number >= 0."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {n}")
    return n


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, metavar="FILE", help="the collection file (created by 'ndd scan')")


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", metavar="NAME", help="method (default: the one the store was last scanned with)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="parameter of the method, to pick a pair set scanned with other parameters (repeatable)")
    p.add_argument("--threshold", type=float, metavar="T",
                   help="score from which two documents count as near-duplicates (pairs lists them, clusters "
                        "and export group them); wins over the threshold saved with the collection for this pair set "
                        "(default: the saved one, the reviewer's from the window, else the method's default)")


#: How an option and the value saved with the collection combine (clusters, export).
SAVED_VALUES = ("Which value wins: an option given here, else the value saved with the collection (the "
                "threshold of this pair set, keeper rule and grouping the reviewer settled on in the window), "
                "else the default.")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with all subcommands."""
    parser = _Parser(prog="ndd", description="Find near-duplicate documents in archival folders.")
    parser.add_argument("--version", action="version", version=f"ndd {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("scan", help="scan folders into a collection file (incremental)",
                       description="Scan folders into a collection file. A rescan only reads what changed.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="folders to scan")
    _add_db(p)
    from ..core.methods import DEFAULT_METHOD  # the registry is light: methods load on use

    p.add_argument("--method", metavar="NAME", help=f"detection method (see 'ndd methods'; default: {DEFAULT_METHOD})")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="method parameter (repeatable)")
    p.add_argument("--ignore", default=None, metavar="LIST",
                   help="leave these out of the text before comparing: urls, emails, numbers (comma-separated; "
                        "the stored text is unchanged; the same as --set ignore=LIST; default: nothing)")
    p.add_argument("--html", choices=("main", "all"), default="main",
                   help="how web pages are read: main, their main text without menus, sidebars and footers "
                        "(the whole page when none is found); all, every visible word (default: %(default)s; "
                        "a change reads the HTML files again)")
    p.add_argument("--reference", action="append", default=[], metavar="PATH",
                   help="a reference folder: compared with the others, not within itself (repeatable)")
    p.add_argument("--floor", type=float, default=None, metavar="F",
                   help="lowest score stored, so thresholds can be tuned without rescanning (default 0.3; with measure=containment 0.2)")
    p.add_argument("--workers", type=_workers, default=None, metavar="N",
                   help="extraction processes (default: CPUs; 0 extracts in the ndd process itself); with "
                        "--engine dask, the worker processes of the local Dask cluster")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="where files are read and band keys grouped: local, this machine's process pool (the "
                        "default); dask, a Dask cluster (needs the extra ndd-desktop[cluster]; see docs/scale-out.md)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --engine dask: the running Dask scheduler to use (tcp://HOST:PORT; default: start a "
                        "local cluster of --workers processes)")
    p.add_argument("--replace", action="store_true",
                   help="drop the collection's folders not named here (their documents, pairs and review "
                        "decisions; the files are not touched); without it such a scan is refused")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary and no list of failed files")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="after the summary, each stage of the scan with its time and items per second")
    p.add_argument("--ocr", choices=("auto", "off"), default="auto",
                   help="read pictures and PDFs without a text layer by OCR when tesseract is installed "
                        "(auto, the default) or list them as skipped (off)")

    p = sub.add_parser("pairs", help="list similar pairs", description="One row per pair at or above the threshold. Threshold: --threshold, else the one "
                                   "saved with the collection for this pair set, else the method's default.")
    _add_db(p)
    _add_selection(p)
    p.add_argument("--format", choices=("csv", "json", "table"), default="csv",
                   help="csv or json (streamed, for programs), or table (for reading on a terminal)")

    p = sub.add_parser("clusters", help="list groups of near-duplicates",
                       description="One row per document of each group, with the document to keep. " + SAVED_VALUES)
    _add_db(p)
    _add_selection(p)
    p.add_argument("--keeper-rule", default=None, metavar="RULE",
                   help="reference-oldest, oldest, newest, longest, folder-priority or latest (the last version "
                        "written, see 'ndd lineage'); wins over the rule saved with "
                        "the collection (default: the saved one, else reference-oldest)")
    p.add_argument("--priority", action="append", default=[], metavar="FOLDER",
                   help="folder order for folder-priority (repeatable; default: the collection's folder order)")
    p.add_argument("--grouping", choices=("components", "principal"), default=None,
                   help="components: every linked document in one group around its most linked document; "
                        "principal: the longest document and those directly similar to it; wins over the grouping "
                        "saved with the collection (default: the saved one, else components)")
    p.add_argument("--format", choices=("csv", "json", "table"), default="csv",
                   help="csv or json (for programs), or table (for reading on a terminal)")

    p = sub.add_parser("errors", help="files that were skipped or failed, counted by reason",
                       description="Files skipped or failed, counted by reason; --all or --format lists every file.")
    _add_db(p)
    p.add_argument("--all", action="store_true", help="every file with its reason (CSV unless --format json)")
    p.add_argument("--format", choices=("csv", "json"), default=None, help="every file, as CSV or JSON")

    p = sub.add_parser("methods", help="list the methods and their parameters")
    p.add_argument("--format", choices=("text", "json"), default="text")

    p = sub.add_parser("export", help="copy one document per group (and the rest) with reports",
                       description="Export the deduplicated collection to a new folder. " + SAVED_VALUES)
    _add_db(p)
    p.add_argument("--to", required=True, metavar="DIR", help="destination folder (new or empty)")
    _add_selection(p)
    p.add_argument("--mode", choices=("copy", "hardlink"), default="copy")
    p.add_argument("--bagit", action="store_true", help="write a BagIt bag")
    p.add_argument("--report", default="csv,json,html", metavar="LIST", help="reports to write (default: %(default)s)")
    p.add_argument("--keeper-rule", default=None, metavar="RULE",
                   help="how the keeper is chosen: reference-oldest, oldest, newest, longest, folder-priority "
                        "(the collection's folder order) or latest (the last version written); wins over the rule saved with the collection "
                        "(default: the saved one, else reference-oldest)")
    p.add_argument("--grouping", choices=("components", "principal"), default=None,
                   help="components: every linked document in one group around its most linked document; "
                        "principal: the longest document and those directly similar to it; wins over the grouping "
                        "saved with the collection (default: the saved one, else components)")
    from .folders_threads import add_parsers

    add_parsers(sub, _add_db, _add_selection)

    from .lineage_cmd import add_parser as add_lineage_parser

    add_lineage_parser(sub, _add_db, _add_selection)
    from .compare_cmd import add_parser as add_compare_parser
    from .group_cmd import add_parser as add_group_parser

    add_compare_parser(sub, _add_db)
    add_group_parser(sub, _add_db, _add_selection)

    p = sub.add_parser("check", help="check that a collection file is whole",
                       description="SQLite's integrity check, the schema version and the rows of each table. "
                                   "The file is only read. Exit status 1 when anything is wrong.")
    _add_db(p)

    p = sub.add_parser("repair", help="save what can be read from a damaged collection file into a new one",
                       description="Copy what can be read into a new collection file, table by table, the review "
                                   "decisions and settings first, skipping damaged rows. The damaged file is only "
                                   "read. Then run 'ndd scan' on the new file with the same folders.")
    _add_db(p)
    p.add_argument("--to", required=True, metavar="FILE", help="the new collection file (must not exist)")

    p = sub.add_parser("decisions", help="export or import the review (verdicts, keepers, settings)",
                       description="The review as a file of its own, so it outlives its collection file. Documents "
                                   "are named by folder, path and content hash; an import finds them by content "
                                   "and applies a decision only where the collection has no newer one.")
    p.add_argument("action", choices=("export", "import"))
    p.add_argument("file", metavar="FILE", help="the review file ('-' for standard output when exporting)")
    _add_db(p)
    p.add_argument("--format", choices=("json", "csv"), default=None,
                   help="default: from the file name when exporting (.csv, else json), from the content when importing")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ndd`` with ``argv`` (default: the process arguments); returns the exit status."""
    from ..core.allocator import keep_freed_memory

    keep_freed_memory()  # core.allocator: array work faults in fewer pages
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        if args.command == "scan":  # its workers' server starts before the commands are imported
            from .scan_start import start

            start(args)
        from . import commands

        if getattr(args, "run", None) is not None:  # subcommands of their own modules
            return args.run(args)
        if args.command == "lineage":
            from .lineage_cmd import cmd_lineage

            return cmd_lineage(args)
        return commands.run(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
    except UsageError as exc:
        _error(str(exc))
        return EXIT_USAGE
    except CommandError as exc:
        _error(str(exc))
        return EXIT_FAILURE
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `ndd pairs ... | head`: stop quietly
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_OK


def _error(message: str) -> None:
    sys.stderr.write(f"ndd: error: {' '.join(message.split())}\n")
    sys.stderr.flush()


def run(argv: Sequence[str] | None = None) -> int:
    """The ``ndd`` command as a process runs it: :func:`main`, then the objects it made are
    moved out of the cycle collector's reach before the interpreter exits.

    At exit the interpreter tears the modules down and collects cycles over every object
    that is left: 0.1-0.15 s after a command such as ``ndd methods`` (0.5-0.6 s in all),
    for memory the operating system frees anyway. ``gc.freeze()`` skips that collection;
    objects are still released by their reference counts, and open files flushed and
    closed, as before. :func:`main` itself stays free of it, for the tests that call it
    many times in one process.
    """
    status = main(argv)
    import gc

    gc.freeze()
    return status


if __name__ == "__main__":
    sys.exit(run())
