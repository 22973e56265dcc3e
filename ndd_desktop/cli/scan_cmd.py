"""``ndd scan``: the scan job on the command line, with a progress bar on a terminal, Ctrl-C
as a cancel that keeps the finished work, and notes on what the scan left out."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from contextlib import closing, contextmanager, nullcontext
from typing import Iterator

from ..core.methods import DEFAULT_METHOD
from ..store import Root, Store, StoreError
from . import EXIT_INTERRUPTED, EXIT_OK, CommandError, UsageError, scan_start
from .opening import open_store
from .output import ProgressBar, one_line, write_stage_times
from .selection import _method, parse_settings
from .tally import write_failures


def cmd_scan(args: argparse.Namespace) -> int:
    """``ndd scan``: run the scan job with a progress bar on a terminal."""
    scan_start.start(args)  # ``ndd`` (cli.main) ran it already: the checks repeat, a running server stays
    from ..cluster import ClusterError
    from ..pipeline import (
        CancelToken,
        ExtractOptions,
        Limits,
        ScanCancelled,
        ScanConfig,
        ScanError,
        ScanJob,
        ScanStopped,
    )
    from ..pipeline.job import normalise_roots
    from ..pipeline.progress import StageClock

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
    try:  # a folder given twice or inside another: refused before the collection file is made
        normalise_roots(roots)
    except ScanError as exc:
        raise UsageError(str(exc)) from None
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
        from ..app.scan_changes import after_scan, before_scan

        try:
            before = before_scan(store)
            summary = job.run()
            changes = after_scan(store, before, summary, job.written)  # what the counts do not tell
            listed = _listed_pairs(store, method, settings, floor)  # with the file still open
            from ..pipeline.completeness import short_run_note

            short_runs = short_run_note(store, method.name)  # a collection of tables: which method
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
        from ..app.elapsed import elapsed

        write_failures(failed, sys.stderr, str(args.db))
        _write_in_part(changes.in_part, str(args.db))
        # new/changed/moved/removed count every record, the skipped and failed ones too
        sys.stderr.write(
            f"{summary.documents} document{'' if summary.documents == 1 else 's'} and {summary.errors} skipped or failed "
            f"({summary.new} new, {summary.changed} changed, {summary.moved} moved, {summary.removed} removed), "
            f"{summary.pairs} pairs [{method.name}] in {elapsed(summary.seconds)}\n"
        )
        threshold = _pairs_at_threshold_note(listed, summary.pairs)
        if summary.reattached:
            sys.stderr.write(f"ndd: note: {summary.reattached} review decision(s) re-attached to documents of the "
                             "same content\n")
        if changes.lapsed:
            sys.stderr.write(f"ndd: note: {changes.lapsed_note()}\n")
        if summary.complete_from is not None and threshold < summary.complete_from:
            from ..pipeline.completeness import incompleteness

            sys.stderr.write(f"ndd: note: {incompleteness(summary.complete_from, method.name)}\n")
        if short_runs:
            sys.stderr.write(f"ndd: note: {short_runs}\n")
    for warning in changes.emptied_warnings():  # even with -q: every document of a folder went
        sys.stderr.write(f"ndd: warning: {warning}\n")
    if clock is not None:
        from ..core import native

        write_stage_times(clock.finish(), sys.stderr)
        sys.stderr.write(f"  {'loops':<8} {native.describe()}\n")
    return EXIT_OK


def _write_in_part(docs: list, db: str) -> None:
    """The documents this scan read only in part, named as its failures are (one line each
    when few, else counted by reason): the rest of their content was never compared."""
    if not docs:
        return
    from .tally import LIST_UP_TO, write_groups

    err = sys.stderr
    if len(docs) <= LIST_UP_TO:
        for doc in docs:
            err.write(f"partial: {one_line(doc.relpath)}: {one_line(doc.reason)}\n")
    else:
        err.write(f"{len(docs):,} documents read only in part in this scan, by reason:\n")
        write_groups((("partial", d.reason, d.relpath) for d in docs), err)
        err.write(f"full list: ndd errors --db {one_line(db)} --all\n")
    one = len(docs) == 1
    err.write(f"ndd: note: {len(docs):,} document{'' if one else 's'} read only in part: the rest of "
              f"{'its' if one else 'their'} content was not compared, so a duplicate of it cannot have been found\n")


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
    from ..pipeline.scan_lock import scan_running

    if scan_running(args.db):  # refused before a cluster is started for it (seconds of two cores)
        raise UsageError("another scan of this collection is running; wait for it to finish or cancel it")
    try:
        if args.scheduler is None and not args.quiet:  # its workers take seconds to start, nothing on the screen
            from ..cluster.connect import require_distributed

            require_distributed()  # (a missing extra is its one-line error, with nothing announced)
            sys.stderr.write(f"starting a local Dask cluster of {args.workers or 'as many'} worker"
                             f"{'' if args.workers == 1 else 's'}"
                             f"{'' if args.workers else ' as this machine has cores'}...\n")
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


def _listed_pairs(store: Store, method, settings: dict, floor: float | None) -> tuple[float, int, float]:
    """(threshold, pairs at or above it, floor) of the scan's pair set: the threshold
    ``ndd pairs`` lists from (the scan keeps every pair down to the floor)."""
    from ..app.selection import choose_threshold

    params = method.params(settings)
    pairs_key = method.pairs_key(params)
    threshold, _ = choose_threshold(store.settings, method.name, params, pairs_key)
    shown = store.pairs.count(method.name, pairs_key, threshold)
    if floor is None:  # --floor not given: the scan used the pair set's stored floor
        pset = store.pairs.find_set(method.name, pairs_key)
        floor = pset.floor if pset is not None else 0.0
    return threshold, shown, floor


def _pairs_at_threshold_note(listed: tuple[float, int, float], stored: int) -> float:
    """Say how many of the stored pairs ``ndd pairs`` lists (``listed``: see
    :func:`_listed_pairs`); the threshold."""
    threshold, shown, floor = listed
    if shown != stored:
        sys.stderr.write(f"ndd: note: {shown} of the {stored} pairs score {threshold:g} or more (the threshold "
                         f"'ndd pairs' and 'ndd clusters' use); the others are kept down to the floor {floor:g} "
                         "so the threshold can be lowered without rescanning\n")
    return threshold


def _refuse_dropping_folders(store: Store, roots: list[Root]) -> None:
    """A scan's folders replace the collection's: refuse to drop folders (with their
    documents, pairs and review decisions) unless --replace says so."""
    from ..pipeline import ScanError
    from ..pipeline.job import normalise_roots

    try:
        given = {r.path for r in normalise_roots(roots, store.documents.roots())}
    except ScanError:  # the job reports bad folders itself
        return
    dropped = [r.path for r in store.documents.roots() if r.path not in given]
    if not dropped:
        return
    parts = []
    inside = {d: _holding(d, given) for d in dropped}  # widening a collection from A/sub to A
    holding = {d: [g for g in given if _inside(g, d)] for d in dropped}  # narrowing it from A to A/sub
    other = [d for d in dropped if not inside[d] and not holding[d]]
    if other:
        listed = ", ".join(one_line(p) for p in other)
        parts.append(
            f"this collection also holds {'this folder' if len(other) == 1 else 'these folders'}: {listed}. "
            "A scan's folders replace the collection's: name them too to keep them, or add "
            "--replace to drop them with their documents, pairs and review decisions (the files "
            "themselves are never touched)")
    for d in dropped:
        if inside[d]:
            parts.append(
                f"this collection holds {one_line(d)}, which lies inside {one_line(inside[d])} given here (naming "
                "both is refused: one folder inside another). Leave it out and add --replace: the documents "
                f"still in it are kept, read again as part of {one_line(inside[d])}, and their review decisions "
                "follow their content (the files themselves are never touched)")
        elif holding[d]:
            names = ", ".join(one_line(g) for g in holding[d])
            parts.append(
                f"this collection holds {one_line(d)}, which holds {names} given here (naming both is refused: one "
                f"folder inside another). Scan {one_line(d)} to keep all of it, or add --replace to keep only "
                f"{names}: its documents are read again and their review decisions follow their content; the "
                f"rest of {one_line(d)} is dropped with its documents, pairs and review decisions (the files "
                "themselves are never touched)")
    raise UsageError("; ".join(parts))  # one line, as every error of ndd


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` lies inside ``folder`` (both absolute, as the collection holds them)."""
    return path != folder and path.startswith(folder.rstrip(os.sep) + os.sep)


def _holding(path: str, folders) -> str | None:
    """The folder of ``folders`` that ``path`` lies inside, if any."""
    return next((f for f in folders if _inside(path, f)), None)


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

