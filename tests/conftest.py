"""Shared test set-up: Qt runs offscreen, and no test may leave a thread running."""

from __future__ import annotations

import os

# Before anything imports Qt: tests never need a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Derived arrays (core.disk_cache) go to a folder of the test run, not the user's cache;
# set before the xdist workers and the scans' processes start, so they all share it.
if "NDD_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile

    _cache = tempfile.mkdtemp(prefix="ndd-test-cache-")
    os.environ["NDD_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)

import threading  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

#: Seconds a thread may take to wind down after its test before it counts as leaked.
GRACE_S = 2.0


def _python_threads() -> set[threading.Thread]:
    """Live Python threads other than the main one (foreign "dummy" threads excluded)."""
    return {
        t
        for t in threading.enumerate()
        if t is not threading.main_thread() and not isinstance(t, threading._DummyThread) and t.is_alive()
    }


def _qt_threads() -> list:
    """Running QThreads started by the GUI's workers (only if the GUI was imported)."""
    import sys

    worker = sys.modules.get("ndd_desktop.gui.worker")
    return worker.running_threads() if worker is not None else []


def leaked_threads(before: set[threading.Thread], grace: float = GRACE_S) -> list[str]:
    """Names of threads started since ``before`` that are still running after ``grace`` s."""
    deadline = time.monotonic() + grace
    while True:
        extra = [t for t in _python_threads() - before if t.is_alive()]
        qt = _qt_threads()
        if not extra and not qt:
            return []
        if time.monotonic() >= deadline:
            names = [f"thread {t.name!r}" for t in extra]
            names += [f"QThread {t.objectName()!r}" for t in qt]
            return names
        for t in extra:
            t.join(0.05)
        time.sleep(0.02)


@pytest.fixture
def thread_guard():
    """The guard's own functions, so a test can check that the guard can fail."""
    return _python_threads, leaked_threads


@pytest.fixture(autouse=True)
def _no_thread_left_running():
    """Fail the test when it leaves a Python thread or a worker QThread running."""
    before = _python_threads()
    yield
    leaked = leaked_threads(before)
    if leaked:
        pytest.fail("test left threads running: " + ", ".join(leaked), pytrace=False)


@pytest.fixture
def banded_search(monkeypatch):
    """Make the set-based joins behave as on a large collection: count, dense and prefix
    mode over budget, so candidates come from the banded search (core.set_lsh)."""
    import ndd_desktop.core.dense_join as dj
    import ndd_desktop.core.inverted_index as ii

    monkeypatch.setattr(ii, "COUNT_MODE_BUDGET", -1)
    monkeypatch.setattr(ii, "PREFIX_MODE_BUDGET", -1)
    monkeypatch.setattr(dj, "DENSE_MAX_SECONDS", -1.0)
