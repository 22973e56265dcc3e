"""The cyclic collector paused for a phase and what is alive frozen for one (core.gc_pause), and a
scan's plan made inside the first and its stages run inside the second."""

from __future__ import annotations

import gc

import pytest

import ndd_desktop.pipeline.job as job
from ndd_desktop.core import gc_pause
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.store import Root, Store


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


def test_what_is_alive_is_frozen_inside_and_handed_back_after():
    gc.unfreeze()
    before = object.__new__(type("Alive", (), {}))  # tracked by the collector
    with gc_pause.frozen():
        assert gc.get_freeze_count() > 0
        assert before not in gc.get_objects()  # out of the collector's walks
        made_inside = [before]
        assert any(o is made_inside for o in gc.get_objects())  # what the block makes is not
    assert gc.get_freeze_count() == 0
    assert before in gc.get_objects()


def test_an_error_inside_still_hands_them_back():
    gc.unfreeze()
    with pytest.raises(ValueError):
        with gc_pause.frozen():
            raise ValueError("boom")
    assert gc.get_freeze_count() == 0


def test_what_was_frozen_before_stays_frozen_for_whoever_froze_it():
    gc.freeze()  # as the window's gui.heap does for a large collection
    try:
        frozen_before = gc.get_freeze_count()
        with gc_pause.frozen():
            pass
        assert gc.get_freeze_count() >= frozen_before > 0
    finally:
        gc.unfreeze()


def test_a_scan_plans_with_the_collector_paused_then_freezes_the_plan_and_hands_it_back(tmp_path, monkeypatch):
    gc.unfreeze()
    folder = tmp_path / "docs"
    folder.mkdir()
    for k in range(3):
        (folder / f"d{k}.txt").write_text(f"document number {k} with a few words in it", encoding="utf-8")
    planned, staged = [], []
    real_plan, real_check = job.make_plan, job.pair_set_current

    def make_plan(*args, **kwargs):  # the real plan, and whether the collector ran meanwhile
        planned.append(gc.isenabled())
        return real_plan(*args, **kwargs)

    def pair_set_current(*args, **kwargs):  # the real check, the first step after the plan
        staged.append(gc.get_freeze_count() > 0)
        return real_check(*args, **kwargs)

    monkeypatch.setattr(job, "make_plan", make_plan)
    monkeypatch.setattr(job, "pair_set_current", pair_set_current)
    store = Store.open(tmp_path / "c.ndd")
    try:
        for _ in range(2):  # a first scan and a rescan (which reads nothing: no check of the pair set)
            summary = ScanJob(store, ScanConfig(roots=[Root(str(folder))], method="minhash", workers=0)).run()
            assert summary.documents == 3
            assert gc.get_freeze_count() == 0
    finally:
        store.close()
    assert planned == [False, False]
    assert staged == [True]
    assert gc.isenabled()
