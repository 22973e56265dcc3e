"""``ndd scan``: the scan job on the command line, with a progress bar on a terminal, Ctrl-C
as a cancel that keeps the finished work, and notes on what the scan left out."""

from __future__ import annotations

import argparse
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
        try:
            summary = job.run()
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
        if summary.complete_from is not None and threshold < summary.complete_from:
            from ..pipeline.completeness import incompleteness

            sys.stderr.write(f"ndd: note: {incompleteness(summary.complete_from, method.name)}\n")
        if short_runs:
            sys.stderr.write(f"ndd: note: {short_runs}\n")
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
    from ..pipeline.scan_lock import scan_running

    if scan_running(args.db):  # refused before a cluster is started for it (seconds of two cores)
        raise UsageError("another scan of this collection is running; wait for it to finish or cancel it")
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
        given = {r.path for r in normalise_roots(roots)}
    except ScanError:  # the job reports bad folders itself
        return
    dropped = [r.path for r in store.documents.roots() if r.path not in given]
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

