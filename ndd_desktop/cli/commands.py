"""The subcommands of ``ndd``; each takes the parsed arguments and returns an exit status."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from contextlib import closing, contextmanager, nullcontext
from typing import Iterator

from ..core.methods import DEFAULT_METHOD, get_method, method_names
from ..core.params import describe_params
from ..store import Root, Store, StoreError
from . import EXIT_INTERRUPTED, EXIT_OK, CommandError, UsageError
from .output import ProgressBar, clean, iso_utc, one_line, write_rows, write_stage_times, write_table
from .tally import write_failures, write_groups

PAIR_COLUMNS = ["a", "b", "score", "containment_ab", "containment_ba", "estimate", "hamming", "verdict",
                "a_root", "b_root", "a_id", "b_id", "pair_id"]
CLUSTER_COLUMNS = ["group", "path", "root", "role", "keeper", "score", "score_to_keeper", "duplicate_of",
                   "duplicate_score", "id", "size", "date"]
#: The columns of ``--format table``: what a reader needs, so they fit a terminal.
TABLE_PAIR_COLUMNS = ["a", "b", "score", "containment_ab", "containment_ba", "verdict"]
TABLE_CLUSTER_COLUMNS = ["group", "path", "role", "keeper", "score", "duplicate_of", "size", "date"]
PAGE = 20_000  # pairs fetched at a time by `ndd pairs` (one query, streamed)
ERROR_COLUMNS = ["path", "root", "status", "reason", "format", "size", "id"]


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    if args.command in ("check", "repair", "decisions"):
        from . import maintenance

        return getattr(maintenance, f"cmd_{args.command}")(args)
    return COMMANDS[args.command](args)


def parse_settings(items: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` to a dict (values stay strings; the method converts them)."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


@contextmanager
def open_store(path: str, *, create: bool = False) -> Iterator[Store]:
    """Open the collection file, turning store failures into one-line errors: at opening
    and while the command reads or writes it (a damaged page met half-way through a
    listing ends the command with exit status 1, after what was already written)."""
    if not create and not os.path.exists(path):
        raise UsageError(f"no collection file at {path}")
    try:
        store = Store.open(path, create=create)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    try:
        yield store
    except StoreError as exc:
        sys.stdout.flush()  # the partial output first, then the error that cut it short
        raise CommandError(str(exc)) from None
    finally:
        store.close()


def _method(name: str):
    try:
        return get_method(name)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None


# -- scan --------------------------------------------------------------------------------
def cmd_scan(args: argparse.Namespace) -> int:
    """``ndd scan``: run the scan job with a progress bar on a terminal."""
    from ..pipeline import CancelToken, ExtractOptions, Limits, ScanCancelled, ScanConfig, ScanError, ScanJob, ScanStopped
    from ..cluster import ClusterError
    from ..pipeline.progress import StageClock

    for path in [*args.paths, *args.reference]:
        if os.path.isfile(path):
            folder = os.path.dirname(os.path.abspath(path))
            raise UsageError(f"{path} is a file; ndd scan takes folders (a collection is one or more folders): "
                             f"scan its folder {folder}")
        if not os.path.isdir(path):
            raise UsageError(f"no such folder: {path}")
    method = _method(args.method or DEFAULT_METHOD)
    settings = parse_settings(args.set)
    if args.ignore is not None:
        settings = _with_ignore(settings, args.ignore)
    try:
        method.params(settings)
    except ValueError as exc:
        raise UsageError(f"{method.name}: {exc}") from None
    floor = args.floor
    if floor is not None and not 0.0 <= floor <= 1.0:
        raise UsageError(f"--floor must be between 0 and 1, got {floor}")
    if args.scheduler and args.engine != "dask":
        raise UsageError("--scheduler needs --engine dask")
    if args.engine == "dask" and args.workers == 0:
        raise UsageError("--workers 0 reads in the ndd process itself; with --engine dask give 1 or more")
    roots = [Root(p, False) for p in args.paths] + [Root(p, True) for p in args.reference]
    config = ScanConfig(roots=roots, method=method.name, params=settings, floor=floor, workers=args.workers,
                        extract_options=ExtractOptions(html=args.html), limits=Limits(ocr=args.ocr == "auto"))
    bar = ProgressBar() if sys.stderr.isatty() else None
    failed: list = []
    token = CancelToken()
    engine = _scan_engine(args, method)  # refused or unreachable: nothing is written
    with closing(engine) if engine else nullcontext(), open_store(args.db, create=True) as store, \
            _cancel_on_sigint(token):
        if store.read_only:
            raise CommandError(f"{store.path} is read-only (read-only media or permissions): a scan writes to "
                               "its collection file; copy it to a writable folder, or scan into a new one")
        if not args.replace:
            _refuse_dropping_folders(store, roots)
        clock = StageClock(bar) if args.verbose else None
        job = ScanJob(store, config, progress=clock or bar, cancel=token, on_error=failed.append, engine=engine)
        try:
            summary = job.run()
        except ScanCancelled:
            if bar:
                bar.close()
            sys.stderr.write("ndd: scan interrupted; finished work is kept, run the same command to resume\n")
            return EXIT_INTERRUPTED
        except ScanError as exc:
            raise UsageError(str(exc)) from None
        except ScanStopped as exc:
            raise CommandError(str(exc)) from None
        except StoreError as exc:
            raise CommandError(str(exc)) from None
        except ClusterError as exc:
            raise CommandError(str(exc)) from None
        finally:
            if bar:
                bar.close()
    if not args.quiet:
        write_failures(failed, sys.stderr, str(args.db))
        # new/changed/moved/removed count every record, the skipped and failed ones too
        sys.stderr.write(
            f"{summary.documents} documents and {summary.errors} skipped or failed "
            f"({summary.new} new, {summary.changed} changed, {summary.moved} moved, {summary.removed} removed), "
            f"{summary.pairs} pairs [{method.name}] in {summary.seconds:.1f} s\n"
        )
        _pairs_at_threshold_note(args.db, method, settings, floor, summary.pairs)
        if summary.reattached:
            sys.stderr.write(f"ndd: note: {summary.reattached} review decision(s) re-attached to documents of the "
                             "same content\n")
        if summary.complete_from is not None:
            from ..pipeline.completeness import incompleteness

            sys.stderr.write(f"ndd: note: {incompleteness(summary.complete_from, method.name)}\n")
    if clock is not None:
        write_stage_times(clock.finish(), sys.stderr)
    return EXIT_OK


def _scan_engine(args: argparse.Namespace, method):
    """None (the local engine) or a ``cluster.DaskEngine`` for ``--engine dask``, connected
    here (after the method is found supported), so that a scheduler that does not answer
    is reported before the scan starts."""
    if args.engine != "dask":
        return None
    from ..cluster import ClusterError, DaskEngine
    from ..pipeline import ScanError

    engine = DaskEngine(scheduler=args.scheduler, workers=args.workers)
    try:
        engine.check(method, None)
    except ScanError as exc:
        raise UsageError(str(exc)) from None
    try:
        return engine.start()
    except ClusterError as exc:
        raise CommandError(str(exc)) from None


def _with_ignore(settings: dict[str, str], value: str) -> dict[str, str]:
    """The method settings with ``--ignore`` (checked: an unknown item names the choices)."""
    from ..core.normalize import ignore_items

    try:
        items = ",".join(ignore_items(value))
    except ValueError as exc:
        raise UsageError(f"--ignore: {exc}") from None
    given = settings.get("ignore")
    if given is not None:
        try:
            same = ",".join(ignore_items(given)) == items
        except ValueError:
            same = False
        if not same:
            raise UsageError(f"--ignore {value} and --set ignore={given} disagree: give one of them")
    return {**settings, "ignore": items}


def _pairs_at_threshold_note(db: str, method, settings: dict, floor: float | None, stored: int) -> None:
    """Say how many of the stored pairs ``ndd pairs`` lists: the scan keeps every pair down
    to the floor, the listing starts at the threshold."""
    from ..app.selection import choose_threshold

    params = method.params(settings)
    pairs_key = method.pairs_key(params)
    with open_store(db) as store:
        threshold, _ = choose_threshold(store, method.name, params, pairs_key)
        shown = store.count_pairs(method.name, pairs_key, threshold)
        pset = store.pair_set(method.name, pairs_key)
    if floor is None:  # --floor not given: the scan used the pair set's stored floor
        floor = pset.floor if pset is not None else 0.0
    if shown != stored:
        sys.stderr.write(f"ndd: note: {shown} of the {stored} pairs score {threshold:g} or more (the threshold "
                         f"'ndd pairs' and 'ndd clusters' use); the others are kept down to the floor {floor:g} "
                         "so the threshold can be lowered without rescanning\n")


def _refuse_dropping_folders(store: Store, roots: list[Root]) -> None:
    """A scan's folders replace the collection's: refuse to drop folders (with their
    documents, pairs and review decisions) unless --replace says so."""
    from ..pipeline import ScanError
    from ..pipeline.job import normalise_roots

    try:
        given = {r.path for r in normalise_roots(roots)}
    except ScanError:  # the job reports bad folders itself
        return
    dropped = [r.path for r in store.roots() if r.path not in given]
    if not dropped:
        return
    listed = ", ".join(one_line(p) for p in dropped)
    raise UsageError(  # one line, as every error of ndd
        f"this collection also holds {'this folder' if len(dropped) == 1 else 'these folders'}: {listed}. "
        "A scan's folders replace the collection's: name them too to keep them, or add "
        "--replace to drop them with their documents, pairs and review decisions (the files "
        "themselves are never touched)"
    )


@contextmanager
def _cancel_on_sigint(token) -> Iterator[None]:
    """Ctrl-C (SIGINT) or SIGTERM cancels the scan cleanly at the next batch, so the
    finished work is kept and the run is recorded as cancelled; a second signal
    interrupts at once."""
    stops = [signal.SIGINT] + ([signal.SIGTERM] if hasattr(signal, "SIGTERM") else [])

    def handler(signum, frame):
        if token.cancelled:
            raise KeyboardInterrupt
        token.cancel()

    try:
        previous = {sig: signal.getsignal(sig) for sig in stops}
        for sig in stops:
            signal.signal(sig, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


# -- selecting a pair set -----------------------------------------------------------------
def _selection_error(exc) -> Exception:
    """The app layer's SelectionError as the CLI's error (usage: exit 2, else 1)."""
    return UsageError(str(exc)) if exc.usage else CommandError(str(exc))


def select_pair_set(store: Store, args: argparse.Namespace, session=None):
    """(method, params object, pairs_key, threshold) from --method/--set/--threshold, by the
    application's one rule (``app.selection.select``), with its notes on stderr; a
    ``session`` given is set to show that pair set."""
    from ..app.selection import SelectionError, select

    settings = parse_settings(getattr(args, "set", []) or [])
    try:
        sel = select(store, args.method, settings, threshold=args.threshold)
    except SelectionError as exc:
        raise _selection_error(exc) from None
    for note in sel.notes():
        sys.stderr.write(f"ndd: note: {note}\n")
    if session is not None:
        session.use(sel)
    return sel.method, sel.params, sel.pairs_key, sel.threshold


def open_session(store: Store, args: argparse.Namespace, *, grouping: bool = True):
    """An ``app.session.Session`` over ``store`` showing what the options ask for: the pair
    set and threshold, and (``grouping``) the keeper rule, grouping and folder priority,
    for this command only (nothing is saved)."""
    from ..app.session import Session

    session = Session(store)
    if grouping:
        session.use_grouping(*grouping_options(store, args))
    select_pair_set(store, args, session)
    return session


def _check_keeper_rule(args: argparse.Namespace) -> None:
    from ..pipeline.grouping import KEEPER_RULES

    if args.keeper_rule is not None and args.keeper_rule not in KEEPER_RULES:
        raise UsageError(f"unknown keeper rule {args.keeper_rule!r} (known: {', '.join(KEEPER_RULES)})")


def grouping_options(store: Store, args: argparse.Namespace) -> tuple[str, str, tuple[str, ...]]:
    """(keeper rule, grouping, folder priority) from --keeper-rule, --grouping and
    --priority by the application's one rule (``app.selection.choose_grouping``); a value
    saved with the collection is named on stderr."""
    from ..app.selection import SelectionError, choose_grouping

    try:
        choice = choose_grouping(store, args.keeper_rule, args.grouping, getattr(args, "priority", None))
    except SelectionError as exc:
        raise _selection_error(exc) from None
    if choice.saved:
        sys.stderr.write(f"ndd: note: {' and '.join(choice.saved)} saved with the collection "
                         "(--keeper-rule and --grouping override them)\n")
    return choice.keeper_rule, choice.grouping, choice.folder_priority


# -- pairs, clusters, errors ----------------------------------------------------------------
def cmd_pairs(args: argparse.Namespace) -> int:
    """``ndd pairs``: one row per pair at or above the threshold, best first."""
    with open_store(args.db) as store:
        session = open_session(store, args, grouping=False)
        rows = _pair_rows(session)
        if args.format == "table":
            write_table(rows, sys.stdout, TABLE_PAIR_COLUMNS, numeric=("score", "containment_ab", "containment_ba"),
                        title=f"pairs at {session.threshold:g} or more [{session.method}]")
        else:
            write_rows(rows, args.format, sys.stdout, PAIR_COLUMNS)
    return EXIT_OK


def _pair_rows(session):
    """Pairs as output rows, streamed from the store so memory stays flat."""
    for p in session.iter_pairs(batch=PAGE):
        yield {
            "a": p.a.relpath, "b": p.b.relpath, "score": round(p.score, 6),
            "containment_ab": _rounded(p.cont_ab), "containment_ba": _rounded(p.cont_ba),
            "estimate": None if p.estimate != p.estimate else round(p.estimate, 6),
            "hamming": None if p.hamming is None or p.hamming != p.hamming else int(p.hamming),
            "verdict": p.verdict, "a_root": p.a.root, "b_root": p.b.root,
            "a_id": p.a.id, "b_id": p.b.id, "pair_id": p.pair_id,
        }


def cmd_clusters(args: argparse.Namespace) -> int:
    """``ndd clusters``: one row per document of each group, keeper marked."""
    _check_keeper_rule(args)
    with open_store(args.db) as store:
        session = open_session(store, args)
        grouping = session.groups()
        method, threshold = session.method, session.threshold
        docs = {d.id: d for d in store.documents([m for g in grouping.groups for m in g.members])}
    if args.format == "json":
        out = [
            {
                "group": g.group_id, "principal": docs[g.principal].relpath, "keeper": docs[g.keeper].relpath,
                "keepers": [docs[k].relpath for k in g.keepers],
                "members": [
                    {"path": docs[m].relpath, "root": docs[m].root, "id": m, "score": _rounded(g.scores[m]),
                     "direct": g.linked(m), "keeper": m in g.keepers, "size": docs[m].size,
                     "score_to_keeper": _rounded(g.to_keeper.get(m)),
                     "duplicate_of": docs[g.covered_by[m][0]].relpath if m in g.covered_by else None,
                     "duplicate_score": _rounded(g.covered_by[m][1]) if m in g.covered_by else None,
                     "date": iso_utc(docs[m].date)}
                    for m in g.members
                ],
            }
            for g in grouping.groups
        ]
        import json

        json.dump(_clean_tree(out), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    rows = []
    for g in grouping.groups:
        for m in g.members:
            d = docs[m]
            rows.append({
                "group": g.group_id, "path": d.relpath, "root": d.root,
                "role": _role(g, m), "keeper": _keeper_mark(g, m),
                "score": _rounded(g.scores[m]), "score_to_keeper": _rounded(g.to_keeper.get(m)),
                "duplicate_of": docs[g.covered_by[m][0]].relpath if m in g.covered_by else "",
                "duplicate_score": _rounded(g.covered_by[m][1]) if m in g.covered_by else None, "id": m, "size": d.size, "date": iso_utc(d.date),
            })
    if args.format == "table":
        write_table(rows, sys.stdout, TABLE_CLUSTER_COLUMNS, numeric=("group", "score", "size"),
                    title=f"{len(grouping.groups)} groups at {threshold:g} or more [{method}]")
    else:
        write_rows(rows, "csv", sys.stdout, CLUSTER_COLUMNS)
    return EXIT_OK


def _keeper_mark(group, member: int) -> str:
    """yes: the group's keeper; extra: kept too, because nothing kept duplicates it."""
    if member == group.keeper:
        return "yes"
    return "extra" if member in group.keepers else ""


def _role(group, member: int) -> str:
    """principal, member (similar to the principal) or chained (linked through other members)."""
    if member == group.principal:
        return "principal"
    return "member" if group.linked(member) else "chained"


def _rounded(score: float | None) -> float | None:
    return None if score is None else round(score, 6)


def _clean_tree(value):
    if isinstance(value, dict):
        return {k: _clean_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_tree(v) for v in value]
    return clean(value)


def cmd_errors(args: argparse.Namespace) -> int:
    """``ndd errors``: the files skipped or failed, counted by reason; with ``--all`` or
    ``--format`` every file with its reason."""
    if not args.all and args.format is None:
        with open_store(args.db) as store:
            total = write_groups(((d.status, d.reason, d.relpath) for d in store.errors()), sys.stdout)
        sys.stdout.write(f"{total:,} files skipped or failed" + (" (every file: --all)\n" if total else "\n"))
        return EXIT_OK
    with open_store(args.db) as store:
        rows = [
            {"path": d.relpath, "root": d.root, "status": d.status, "reason": d.reason, "format": d.format,
             "size": d.size, "id": d.id}
            for d in store.errors()
        ]
    write_rows(rows, args.format or "csv", sys.stdout, ERROR_COLUMNS)
    return EXIT_OK


# -- methods, export ------------------------------------------------------------------------
def cmd_methods(args: argparse.Namespace) -> int:
    """``ndd methods``: each method, its description and parameters with defaults and ranges."""
    from ..core.text_share import DEFAULT_CONTAINED_SHARE

    methods = []
    for name in method_names():
        try:
            methods.append(get_method(name))
        except ImportError as exc:  # a method whose dependencies are missing is listed as such
            sys.stderr.write(f"ndd: note: method {name} is unavailable ({exc})\n")
    if args.format == "json":
        import json

        out = [
            {
                "name": m.name, "description": m.description, "default": m.name == DEFAULT_METHOD,
                "default_threshold": m.threshold_for(m.params()),
                "default_containment_threshold": DEFAULT_CONTAINED_SHARE,
                "search_designed_for": m.default_threshold,
                "parameters": [
                    {"name": i.name, "type": i.type.__name__, "default": i.default, "minimum": i.minimum,
                     "maximum": i.maximum, "choices": list(i.choices) if i.choices else None,
                     "multiple": i.multiple, "help": i.help, "affects_sketch": i.affects_sketch}
                    for i in describe_params(m.Params)
                ],
            }
            for m in methods
        ]
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    for m in methods:
        mark = " (default)" if m.name == DEFAULT_METHOD else ""
        sys.stdout.write(f"{m.name}{mark}: {m.description}\n  default threshold {m.threshold_for(m.params()):g} "
                         "(share of text in common)")
        if any(i.name == "measure" for i in describe_params(m.Params)):
            sys.stdout.write(f" (with measure=containment: {DEFAULT_CONTAINED_SHARE:g})")
        sys.stdout.write("\n")
        for i in describe_params(m.Params):
            if i.choices and i.multiple:
                rng = "any of " + ", ".join(str(c) for c in i.choices) + ", comma-separated"
            elif i.choices:
                rng = "one of " + ", ".join(str(c) for c in i.choices)
            elif i.minimum is not None or i.maximum is not None:
                rng = f"{'' if i.minimum is None else i.minimum}..{'' if i.maximum is None else i.maximum}"
            else:
                rng = i.type.__name__
            sys.stdout.write(f"  --set {i.name}={i.default}  [{rng}]  {i.help}\n")
        sys.stdout.write("\n")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """``ndd export``: hand the selection to the export package (imported only here)."""
    from ..export import ExportCancelled, ExportError, run_export
    from ..pipeline import CancelToken

    _check_keeper_rule(args)
    with open_store(args.db) as store:
        session = open_session(store, args)
        try:
            options = session.export_options(args.to, mode=args.mode, bagit=args.bagit, reports=args.report,
                                             leave_out_covered_folders=args.leave_out_covered_folders,
                                             emails=args.emails)
        except ExportError as exc:
            raise UsageError(str(exc)) from None
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
    done = result.copied + result.linked + result.skipped
    if result.already_complete:  # a finished bag: nothing to copy, it was validated again
        sys.stderr.write(f"the bag in {result.dest} was already complete ({result.files_planned} files); "
                         f"validated again: {'valid' if result.bag_valid else 'NOT valid'}\n")
    else:
        sys.stderr.write(
            f"exported {done} of {result.files_planned} files to {result.dest} ({result.copied} copied, "
            f"{result.linked} linked, {result.skipped} already there) in {result.seconds:.1f} s\n"
        )
    if not result.ok:
        raise CommandError(f"export incomplete: {len(result.failed)} files failed" +
                           (f"; bag: {result.bag_message}" if result.bag_valid is False else ""))
    return EXIT_OK


COMMANDS = {
    "scan": cmd_scan,
    "pairs": cmd_pairs,
    "clusters": cmd_clusters,
    "errors": cmd_errors,
    "methods": cmd_methods,
    "export": cmd_export,
}
