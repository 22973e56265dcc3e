"""One generic worker: run a callable on a QThread and turn its callbacks into signals.

The callable takes ``(progress, cancel)``: ``progress(obj)`` reports how far it got (any
object, typically a pipeline ``Progress``) and ``cancel`` has a ``cancelled`` property the
callable checks. Per-item errors go through :meth:`Worker.report_error`.

Every public signal is emitted on the GUI thread, and only after the thread has stopped
for the final ones (``finished``, ``failed``, ``cancelled``, ``done``), so a slot may
touch widgets and a test that waits for ``done`` leaves no thread behind. Progress and
errors are throttled: the worker thread stores the latest (of each stage in turn, so that
every stage a scan passes through is shown once however fast it went) and pokes the GUI thread at most
every ``interval`` seconds, so a flood of callbacks cannot freeze the window.

``failed`` carries ``"TypeName: message"``, except for the exceptions given as ``told``:
those whose message is written for the person using the window (a scan stopped with
advice, a collection file that cannot be opened), which it carries as they are.
"""

from __future__ import annotations

import threading
import time
import traceback
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Qt, Signal, Slot

from ..pipeline.cancel import CancelToken

_live: set["_Runner"] = set()


def running_threads() -> list[QThread]:
    """QThreads started by workers that have not stopped yet (for the thread-leak guard)."""
    return [t for t in list(_live) if t.isRunning()]


class _Runner(QThread):
    """The thread: calls the function and keeps its outcome for the GUI thread."""

    def __init__(self, fn: Callable[[], Any], name: str):
        super().__init__()
        self._fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.trace = ""
        self.setObjectName(name or "ndd-worker")

    def run(self) -> None:  # noqa: D102 - runs on the worker thread
        try:
            self.result = self._fn()
        except BaseException as exc:  # handed to the GUI thread, never lost
            self.error = exc
            self.trace = traceback.format_exc()


class Worker(QObject):
    """Runs ``fn(progress, cancel)`` on its own thread; see the module docstring."""

    progress = Signal(object)
    errors = Signal(list)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()
    _pulse = Signal()

    def __init__(
        self,
        fn: Callable[[Callable[[Any], None], Any], Any],
        *,
        cancel: Any = None,
        interval: float = 0.1,
        name: str = "",
        told: tuple[type[BaseException], ...] = (),
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self._fn = fn
        self._told = told
        self.cancel_token = cancel if cancel is not None else CancelToken()
        self._interval = interval
        self._name = name
        self._lock = threading.Lock()
        # the progress not yet delivered: the latest report of each stage in turn (a report
        # replaces the one before it of the same stage, so every stage is seen at least once
        # however fast a small scan runs through it)
        self._latest: list[Any] = []
        self._pending_errors: list[Any] = []
        self._last_pulse = 0.0
        self._runner: _Runner | None = None
        self._started = False
        self.result: Any = None
        self.error_text = ""
        self._pulse.connect(self._flush, Qt.ConnectionType.QueuedConnection)

    # -- GUI thread ------------------------------------------------------------------------
    def start(self) -> None:
        """Start the thread (once)."""
        if self._started:
            raise RuntimeError("a Worker runs once")
        self._started = True
        runner = _Runner(lambda: self._fn(self._report_progress, self.cancel_token), self._name)
        runner.finished.connect(self._on_thread_finished, Qt.ConnectionType.QueuedConnection)
        self._runner = runner
        _live.add(runner)
        runner.start()

    def cancel(self) -> None:
        """Ask the job to stop; ``cancelled`` follows once it has."""
        self.cancel_token.cancel()

    def is_running(self) -> bool:
        """True from :meth:`start` until the final signal."""
        return self._runner is not None

    def wait(self, ms: int = 30000) -> bool:
        """Block until the thread stops (for shutdown only; the signals still follow)."""
        runner = self._runner
        return True if runner is None else runner.wait(ms)

    @Slot()
    def _flush(self) -> None:
        with self._lock:
            latest, self._latest = self._latest, []
            errors, self._pending_errors = self._pending_errors, []
        if errors:
            self.errors.emit(errors)
        for value in latest:
            self.progress.emit(value)

    @Slot()
    def _on_thread_finished(self) -> None:
        runner = self._runner
        if runner is None:
            return
        runner.wait()
        _live.discard(runner)
        self._runner = None
        self._flush()
        if runner.error is not None:
            if getattr(self.cancel_token, "cancelled", False):
                self.cancelled.emit()
            else:
                error = runner.error
                self.error_text = str(error) if isinstance(error, self._told) else f"{type(error).__name__}: {error}"
                self.failed.emit(self.error_text)
        else:
            self.result = runner.result
            self.finished.emit(runner.result)
        self.done.emit()
        runner.deleteLater()

    # -- worker thread ---------------------------------------------------------------------
    def _report_progress(self, value: Any) -> None:
        with self._lock:
            stage = getattr(value, "stage", None)
            if self._latest and stage is not None and getattr(self._latest[-1], "stage", None) == stage:
                self._latest[-1] = value
            elif stage is None:
                self._latest = [value]
            else:
                self._latest.append(value)
        self._maybe_pulse()

    def report_error(self, item: Any) -> None:
        """Report one failed item from the worker thread (delivered in batches)."""
        with self._lock:
            self._pending_errors.append(item)
        self._maybe_pulse()

    def _maybe_pulse(self) -> None:
        now = time.monotonic()
        if now - self._last_pulse >= self._interval:
            self._last_pulse = now
            self._pulse.emit()
