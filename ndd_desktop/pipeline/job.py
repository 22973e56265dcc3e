"""``ScanJob``: walk -> extract -> sketch -> candidates -> score -> store, incrementally.

The window's worker thread and ``ndd scan`` both run exactly this. Each stage reports
through a :class:`~ndd_desktop.pipeline.progress.Progress` callback and checks a
:class:`~ndd_desktop.pipeline.cancel.CancelToken` between batches; cancelling (or a
crash) keeps every finished batch, and the next run picks up where this one stopped.
"""

from __future__ import annotations

import math
import os
import time
from typing import Callable

from ..core import gc_pause
from ..core.methods import get_method
from ..core.params import params_dict
from ..ingest.document import ExtractedDocument
from ..ingest.reasons import RETRIED_REASONS
from ..ingest.walked import WalkedFiles
from ..store import DocumentInfo, Root, Store
from ..store.review_copy import COPY_SUFFIX
from .cancel import CancelToken, ScanCancelled
from .config import ScanConfig, ScanError, ScanSummary, default_floor
from .engine import LocalEngine, ScanEngine
from .kernel_preload import modules_for
from .kernel_warmup import KernelWarmup
from .pair_stage import pair_set_current, reporting_unread, reusing, sketch_missing
from .plan import make_plan
from .progress import ProgressCallback, ProgressMeter
from .reading import reading_digest, settle_reading, start_reading
from .scan_lock import LOCK_SUFFIX, scan_lock
from .verify_stage import helped_by
from .worker_sketch import SketchingExtractor


#: Files SQLite keeps beside a collection file (and the scan lock, and the review's copy).
COMPANION_SUFFIXES = ("", "-wal", "-shm", "-journal", LOCK_SUFFIX, COPY_SUFFIX, COPY_SUFFIX + ".part")


def own_files_inside(store_path: str, roots: list[str]) -> set[str]:
    """Real paths of a collection file and its companions (never documents of the scan)
    that lie in one of ``roots``, followed to their real paths: the only ones a walk of the
    roots can meet."""
    if not store_path or store_path == ":memory:":
        return set()
    from ..ingest.walk import path_inside

    base = os.path.realpath(store_path)
    real_roots = [os.path.realpath(r) for r in roots]
    return {base + suffix for suffix in COMPANION_SUFFIXES if any(path_inside(base + suffix, r) for r in real_roots)}


def prestart_workers(store: Store, method: str | None = None) -> bool:
    """Start the extraction workers' server now when ``store`` holds no document yet: its
    next scan reads every file, and the server's imports (about half a second) are then
    done before the scan asks for workers; with ``method``, what its workers need too
    (``pipeline.kernel_preload``). Whether it was asked to start (a server that runs
    already is left as it is)."""
    if store.documents.count(status=None):
        return False
    from ..ingest.pool_server import prestart

    prestart(SketchingExtractor.__module__, modules_for(method))
    return True


def normalise_roots(roots: list[Root], known: list[Root] = ()) -> list[Root]:
    """Absolute root paths; a root listed twice alike is kept once. A root that is a folder
    of ``known`` (the collection's roots) under another path, through a symbolic link or a
    second mount point, takes the collection's path: the same folder, not one dropped and
    another added (which re-read every file and lost a keeper chosen between copies).

    Raises:
        ScanError: a root that is not a folder, one root inside another, or one root
            given both as a folder to scan and as a reference.
    """
    out: dict[str, Root] = {}
    spelled = {os.path.realpath(k.path): k.path for k in known}
    for r in roots:
        path = os.path.abspath(r.path)
        if not os.path.isdir(path):
            raise ScanError(f"not a folder: {r.path}")
        path = spelled.get(os.path.realpath(path), path) if spelled else path
        first = out.setdefault(path, Root(path, bool(r.reference)))
        if first.reference != bool(r.reference):
            raise ScanError(f"{path} is given both as a folder to scan and as a reference folder; "
                            "give it once, as one or the other")
    paths = list(out)
    for p in paths:
        for q in paths:
            if p != q and (q + os.sep).startswith(p.rstrip(os.sep) + os.sep):
                raise ScanError(f"{q} is inside {p}; give each folder once")
    return list(out.values())


class ScanJob:
    """One scan of a store's roots with one method (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        config: ScanConfig,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        on_error: Callable[[DocumentInfo], None] | None = None,
        engine: ScanEngine | None = None,
    ) -> None:
        self.store = store
        self.engine = engine if engine is not None else LocalEngine()
        self.config = config
        self.cancel = cancel if cancel is not None else CancelToken()
        self.on_error = on_error
        #: the ids of the documents the last run wrote (read, or read again)
        self.written: set[int] = set()
        self.meter = ProgressMeter(progress)

    def _validate(self):
        try:
            method = get_method(self.config.method)
        except KeyError as exc:
            raise ScanError(str(exc.args[0])) from None
        try:
            params = method.params(self.config.params)
        except ValueError as exc:
            raise ScanError(f"{method.name}: {exc}") from None
        floor = (default_floor(method.threshold_for(params)) if self.config.floor is None
                 else float(self.config.floor))
        if not (0.0 <= floor <= 1.0) or math.isnan(floor):
            raise ScanError(f"floor must be between 0 and 1, got {self.config.floor}")
        self.engine.check(method, params)
        return method, params, floor

    def run(self) -> ScanSummary:
        """Run the scan to the end.

        Raises:
            ScanError: bad configuration, or another scan of this collection is running
                (nothing is changed in the store).
            ScanCancelled: the token was cancelled; finished batches are kept.
        """
        method, params, floor = self._validate()
        with scan_lock(self.store.path):
            return self._run(method, params, floor)

    def _run(self, method, params, floor: float) -> ScanSummary:
        started = time.monotonic()
        roots = normalise_roots(self.config.roots, self.store.documents.roots())
        pdict = params_dict(params)
        sketch_key, pairs_key = method.sketch_key(params), method.pairs_key(params)
        dropped = self.store.documents.set_roots(roots)
        run_id = self.store.scans.begin_run(method.name, pdict, pairs_key, floor)
        counts: dict[str, int] = {}
        stage = None
        warmup = None
        try:
            if self.config.workers != 0 and isinstance(self.engine, LocalEngine):
                # a first scan reads every file: the workers' server loads the readers
                # while this process walks
                prestart_workers(self.store, method.name)
            # one entry per file and one record per known file: no cycles for the
            # collector to find while they are made (core.gc_pause)
            with gc_pause.paused():
                walked, walk_errors = self._walk([r.path for r in roots])
                options = self.config.extract_options
                # None: the documents were read with these options; else the files to read again
                reread = start_reading(self.store, options)
                plan = make_plan(self.store.scans, walked, walk_errors, reread=reread)
            # what is alive now (the walk's columns, a rescan's records, the window's objects)
            # lives to the end of the scan: the full collections from here on walk only what
            # the scan makes
            with gc_pause.frozen():
                # a pair set that is current now keeps the scores of the documents this scan
                # does not write (pair_stage.reusing)
                current = bool(plan.to_extract or plan.missing_file_ids) and pair_set_current(
                    self.store, method, params, floor, reading_digest(options))
                self.store.scans.touch_files(plan.touched)
                if plan.to_extract and isinstance(self.engine, LocalEngine):
                    # the pair search's compiled kernels load while the files are read
                    warmup = KernelWarmup(method.pair_search_warmup(len(walked)), later=True)
                stage = self.engine.extract_stage(self.store, method, params, sketch_key, plan, self.meter, self.cancel,
                                                  self.on_error)
                if warmup is not None:  # once the workers have their first files
                    stage.on_reading = warmup.start
                stage.param_overrides = dict(self.config.params)
                stage.reuses_scores = current
                done = stage.run(self.config.limits, self.config.workers, options)
                self.written = done.written
                if reread is not None:  # every document is now read with the options
                    settle_reading(self.store.settings, options)
                removed = self.store.scans.remove_files(plan.missing_file_ids) + dropped + done.removed
                # decisions whose documents left (a folder removed, a file deleted) or now hold
                # other content (files renamed into each other) follow their content to the
                # documents that hold it now
                reattached = self.store.review.reattach() if done.new or done.changed else 0
                # a text kept as its file that the file no longer gives (unreadable, or changed
                # with its size and time kept) is reported as the extraction's failures are
                with reporting_unread(self.on_error):
                    sketch_missing(self.store, method, params, sketch_key, self.meter, self.cancel)
                    # candidates are verified by the helpers the extract stage started, if any
                    with helped_by(stage.helpers or None), reusing(set(done.written) if current else None):
                        n_pairs = self.engine.compute_pairs(self.store, method, params, pdict, floor, self.meter,
                                                            self.cancel, reading=reading_digest(options))
                if plan.listing is not None and not plan.as_recorded:  # (see plan.make_plan)
                    self.store.scans.keep_listing(plan.listing, RETRIED_REASONS)
                total = self.store.documents.count(status=None)
                errors = total - self.store.documents.count("ok")
                counts = {
                    "documents": total - errors,
                    "new": done.new,
                    "changed": done.changed,
                    "removed": removed,
                    "errors": errors,
                    "pairs": n_pairs,
                }
                counts["unchanged"] = max(total - done.new - done.changed - done.moved, 0)
                pset = self.store.pairs.find_set(method.name, method.pairs_key(params))
                summary = ScanSummary(
                    documents=counts["documents"], new=done.new, changed=done.changed, unchanged=counts["unchanged"],
                    removed=removed, errors=errors, pairs=n_pairs, seconds=time.monotonic() - started, moved=done.moved,
                    complete_from=pset.complete_from if pset is not None else None, reattached=reattached,
                )
        except ScanCancelled:
            self._end(run_id, "cancelled", counts, "cancelled")
            raise
        except BaseException as exc:
            self._end(run_id, "failed", counts, f"{type(exc).__name__}: {exc}")
            raise
        finally:  # the verification helpers stop whatever happened
            if stage is not None:
                stage.close()
            if warmup is not None:
                warmup.wait()
        self.store.scans.end_run(run_id, "finished", counts)
        self.meter.stage("done", 1)
        self.meter.finish()
        return summary

    def _end(self, run_id: int, status: str, counts: dict, message: str) -> None:
        try:
            self.store.scans.end_run(run_id, status, counts, message)
        except Exception:  # the store itself may be what failed; the original error matters
            pass

    def _walk(self, roots: list[str]) -> tuple[WalkedFiles, list[ExtractedDocument]]:
        from ..ingest.walk import walk_files

        self.meter.stage("walk", None)
        errors: list[ExtractedDocument] = []

        def folder_done(walked: WalkedFiles) -> None:
            self.cancel.raise_if_cancelled()
            self.meter.update(len(walked), current=walked.relpaths[-1] if walked.relpaths else "")

        walked = walk_files(roots, on_error=errors.append, on_folder=folder_done)
        # the collection file itself, kept inside a scanned folder, is no document; every
        # file the walk gives lies in a root's real path, so only a collection inside one
        # needs the check (by the name first: a realpath per file would cost ~1.4 s per
        # 100,000 files)
        own = own_files_inside(self.store.path, roots)
        if own:
            own_names = {os.path.basename(p) for p in own}
            walked = walked.without({k for k, rel in enumerate(walked.relpaths)
                                     if rel.rpartition("/")[2] in own_names and os.path.realpath(walked.path(k)) in own})
        self.cancel.raise_if_cancelled()
        self.meter.set_total(len(walked))
        self.meter.finish()
        return walked, errors
