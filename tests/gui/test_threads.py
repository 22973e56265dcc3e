"""The worker and the thread-leak guard."""

from __future__ import annotations

import threading
import time


from ndd_desktop.gui.worker import Worker, running_threads


def test_worker_reports_progress_errors_and_result(qtbot):
    def job(progress, cancel):
        for k in range(5):
            progress(k)
            time.sleep(0.03)
        return "result"

    w = Worker(job, interval=0.0)
    seen = []
    w.progress.connect(seen.append)
    w.finished.connect(lambda r: seen.append(("done", r)))
    with qtbot.waitSignals([w.finished, w.done], timeout=5000):
        w.start()
    assert seen[-1] == ("done", "result")
    assert 4 in seen  # the last report is always delivered
    assert not running_threads()


def test_every_stage_is_delivered_however_fast_it_passes(qtbot):
    """A small scan ran through its stages between two deliveries: only the last report was
    kept, and the window saw "walk" then "done", never "extract" or "pairs"."""
    from types import SimpleNamespace

    def job(progress, cancel):
        for stage in ("walk", "extract", "extract", "pairs", "verify", "done"):
            progress(SimpleNamespace(stage=stage))
        return None

    w = Worker(job, interval=60.0)  # no delivery until the end
    seen = []
    w.progress.connect(lambda p: seen.append(p.stage))
    with qtbot.waitSignals([w.finished, w.done], timeout=5000):
        w.start()
    assert seen == ["walk", "extract", "pairs", "verify", "done"]


def test_worker_cancel_and_failure(qtbot):
    def slow(progress, cancel):
        while not cancel.cancelled:
            time.sleep(0.01)
        raise RuntimeError("stopped")

    w = Worker(slow)
    with qtbot.waitSignal(w.cancelled, timeout=5000):
        w.start()
        w.cancel()
    bad = Worker(lambda p, c: 1 / 0)
    with qtbot.waitSignal(bad.failed, timeout=5000) as blocker:
        bad.start()
    assert "ZeroDivisionError" in blocker.args[0]
    qtbot.waitUntil(lambda: not bad.is_running())


def test_a_told_failure_carries_its_message_as_it_is(qtbot):
    def advise(progress, cancel):
        raise ValueError("scan fewer folders at once")

    told = Worker(advise, told=(ValueError,))
    with qtbot.waitSignal(told.failed, timeout=5000) as blocker:
        told.start()
    assert blocker.args[0] == "scan fewer folders at once"  # written for the person: no type name
    other = Worker(advise, told=(KeyError,))
    with qtbot.waitSignal(other.failed, timeout=5000) as blocker:
        other.start()
    assert blocker.args[0] == "ValueError: scan fewer folders at once"
    qtbot.waitUntil(lambda: not told.is_running() and not other.is_running())


def test_worker_errors_come_in_batches(qtbot):
    w = Worker(lambda p, c: [w.report_error(f"file{k}") for k in range(200)] and None, interval=0.05)
    got: list = []
    w.errors.connect(got.extend)
    with qtbot.waitSignal(w.done, timeout=5000):
        w.start()
    assert got == [f"file{k}" for k in range(200)]


def test_guard_sees_a_thread_left_running(thread_guard):
    _python_threads, leaked_threads = thread_guard
    before = _python_threads()
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, name="left-behind")
    t.start()
    try:
        assert leaked_threads(before, grace=0.1) == ["thread 'left-behind'"]
    finally:
        stop.set()
        t.join()
    assert leaked_threads(before, grace=0.1) == []


def test_guard_sees_a_worker_thread_left_running(qtbot, thread_guard):
    leaked_threads = thread_guard[1]
    stop = threading.Event()
    w = Worker(lambda p, c: stop.wait(5))
    w.start()
    try:
        assert [n for n in leaked_threads(set(), grace=0.1) if n.startswith("QThread")] == ["QThread 'ndd-worker'"]
    finally:
        stop.set()
        with qtbot.waitSignal(w.done, timeout=5000):
            pass


def test_many_signals_do_not_crash(qtbot):
    """PySide6 6.12 on Python 3.11 aborted after a few thousand emits (hence the pin in pyproject)."""
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal(object)

    e = Emitter()
    got = []
    e.fired.connect(lambda v: got.append(v))
    for _ in range(20000):
        e.fired.emit(None)
    assert len(got) == 20000
