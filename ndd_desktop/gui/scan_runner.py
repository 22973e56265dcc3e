"""Running a ``ScanJob`` on the generic worker, for the window (one scan at a time)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from ..app.scan_changes import ScanChanges, after_scan, before_scan
from ..core.methods import get_method
from ..pipeline import CancelToken, ExtractOptions, Limits, ScanConfig, ScanError, ScanJob, ScanStopped
from ..pipeline.config import default_floor
from ..store import Root, StoreError
from .worker import Worker


#: How far below the window its scan's processes run (``Limits.worker_niceness``).
WINDOW_NICENESS = 10
#: A scan's failures whose message is the advice, shown as it is (``Worker(told=...)``).
TOLD = (ScanError, ScanStopped, StoreError)


def window_scan_config(roots: list[tuple[str, bool]], method: str, params: dict, floor: float,
                       html: str = "main") -> ScanConfig:
    """The configuration of a scan started from the window: its files are read on every core,
    by processes that run :data:`WINDOW_NICENESS` steps below the window, so that the window
    still answers at once (the system gives it the CPU whenever it asks). On 20,000 files of
    the 2-core build machine this took a minhash scan from 3.2-3.4 to 2.2-2.5 s and a qgram
    scan from 6.0-6.3 to 4.3-4.5 s against one worker, which left a core to the window, with
    the same pauses of its event loop (docs/performance.md, *The window's scan*)."""
    return ScanConfig(roots=[Root(p, r) for p, r in roots], method=method, params=dict(params), floor=floor,
                      workers=None, limits=Limits(worker_niceness=WINDOW_NICENESS),
                      extract_options=ExtractOptions(html=html))


class ScanRunner(QObject):
    """Starts scans and relays their signals; ``done`` follows every outcome."""

    started = Signal()
    progress = Signal(object)  # pipeline Progress
    errors = Signal(list)  # failed documents, in batches, as they happen
    finished = Signal(object)  # ScanSummary
    cancelled = Signal()
    failed = Signal(str)
    done = Signal()

    def __init__(self, parent: QObject | None = None, interval: float = 0.1):
        super().__init__(parent)
        self.worker: Worker | None = None
        self.interval = interval
        self.method = ""
        self.params: dict = {}
        self.pairs_key = ""
        self.floor: float | None = None
        self.outcome = ""  # "finished", "cancelled" or "failed: <message>" of the last scan
        #: what the last finished scan changed beyond its counts (``app.scan_changes``)
        self.changes: ScanChanges | None = None
        self.finished.connect(lambda _: setattr(self, "outcome", "finished"))
        self.cancelled.connect(lambda: setattr(self, "outcome", "cancelled"))
        self.failed.connect(lambda m: setattr(self, "outcome", f"failed: {m}"))

    def running(self) -> bool:
        """True while a scan runs."""
        return self.worker is not None

    def start(self, store: Any, roots: list[tuple[str, bool]], method: str, params: dict,
              floor: float | None = None, html: str = "main") -> bool:
        """Save the roots and start scanning them with ``method``, reading web pages as
        ``html`` says ("main" or "all"); False if one is running."""
        if self.worker is not None:
            return False
        m = get_method(method)
        parsed = m.params(params)
        floor = default_floor(m.threshold_for(parsed)) if floor is None else floor
        self.method, self.params, self.floor = method, dict(params), floor
        self.pairs_key = m.pairs_key(parsed)
        config = window_scan_config(roots, method, params, floor, html)
        self.changes = None

        def run(progress, cancel):  # on the worker thread; what the counts do not tell, as ndd scan says it
            before = before_scan(store)
            job = ScanJob(store, config, progress=progress, cancel=cancel, on_error=worker.report_error)
            summary = job.run()
            self.changes = after_scan(store, before, summary, job.written)
            return summary

        worker = Worker(run, cancel=CancelToken(), interval=self.interval, name="scan", told=TOLD, parent=self)
        worker.progress.connect(self.progress)
        worker.errors.connect(self.errors)
        worker.finished.connect(self.finished)
        worker.cancelled.connect(self.cancelled)
        worker.failed.connect(self.failed)
        worker.done.connect(self._done)
        self.worker = worker
        self.outcome = ""
        worker.start()
        self.started.emit()
        return True

    def cancel(self) -> None:
        """Ask the scan to stop; ``cancelled`` follows (finished work is kept)."""
        if self.worker is not None:
            self.worker.cancel()

    def wait(self) -> None:
        """Block until the thread has stopped (window closing)."""
        if self.worker is not None:
            self.worker.wait()

    def _done(self) -> None:
        self.worker = None
        self.done.emit()
