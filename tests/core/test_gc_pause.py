"""The cyclic collector paused for a phase (core.gc_pause), and a scan's plan inside one."""

from __future__ import annotations

import gc

import pytest

from ndd_desktop.core import gc_pause


def test_the_collector_is_paused_inside_and_running_after():
    assert gc.isenabled()
    with gc_pause.paused():
        assert not gc.isenabled()
        with gc_pause.paused():  # nested: the outer pause still holds after the inner one
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_still_resumes_the_collector():
    with pytest.raises(ValueError):
        with gc_pause.paused():
            raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_paused_before_stays_paused():
    gc.disable()
    try:
        with gc_pause.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_scan_plans_with_the_collector_paused_and_leaves_it_running(tmp_path, monkeypatch):
    import ndd_desktop.pipeline.job as job
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.store import Root, Store

    folder = tmp_path / "docs"
    folder.mkdir()
    for k in range(3):
        (folder / f"d{k}.txt").write_text(f"document number {k} with a few words in it", encoding="utf-8")
    seen = []
    real = job.make_plan

    def make_plan(*args, **kwargs):  # the real plan, and whether the collector ran meanwhile
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(job, "make_plan", make_plan)
    store = Store.open(tmp_path / "c.ndd")
    try:
        for _ in range(2):  # a first scan and a rescan
            summary = ScanJob(store, ScanConfig(roots=[Root(str(folder))], method="minhash", workers=0)).run()
            assert summary.documents == 3
    finally:
        store.close()
    assert seen == [False, False]
    assert gc.isenabled()
