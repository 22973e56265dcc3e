"""Running a ``ScanJob`` on the generic worker, for the window (one scan at a time)."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..core.methods import get_method
from ..pipeline import CancelToken, ExtractOptions, ScanConfig, ScanJob
from ..pipeline.config import default_floor
from ..store import Root
from .worker import Worker


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
        # One core is left to the window: extraction processes on every core starve the GUI thread.
        workers = max(1, (os.cpu_count() or 2) - 1)
        config = ScanConfig(roots=[Root(p, r) for p, r in roots], method=method, params=dict(params), floor=floor,
                            workers=workers, extract_options=ExtractOptions(html=html))
        worker = Worker(lambda progress, cancel: ScanJob(store, config, progress=progress, cancel=cancel,
                                                         on_error=worker.report_error).run(),
                        cancel=CancelToken(), interval=self.interval, name="scan", parent=self)
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
