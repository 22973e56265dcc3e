"""Progress reports and cancel tokens."""

from __future__ import annotations

import pytest

from ndd_desktop.pipeline import CancelToken, ProgressMeter, ScanCancelled


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_meter_throttles_and_computes_rate_and_eta():
    clock, seen = FakeClock(), []
    meter = ProgressMeter(seen.append, interval=0.5, clock=clock)
    meter.stage("extract", 100)
    assert seen[-1].stage == "extract" and seen[-1].done == 0 and seen[-1].total == 100
    clock.t = 0.1
    meter.update(10, current="a.txt")
    assert len(seen) == 1  # within the interval: not reported
    clock.t = 1.0
    meter.update(advance=40, current="b.txt")
    p = seen[-1]
    assert (p.done, p.current, p.rate, p.eta_s) == (50, "b.txt", 50.0, 1.0)
    meter.finish()
    assert seen[-1].done == 100
    # no estimate from the first items, whose time is mostly the stage's start-up
    meter.stage("extract", 205)
    clock.t = 2.0
    meter.update(1)
    assert (seen[-1].done, seen[-1].eta_s) == (1, None)
    clock.t = 3.0
    meter.update(6)
    assert seen[-1].eta_s == pytest.approx(199 / (6 / 2.0))  # 6 done in the 2 s since the stage began
    meter.stage("walk")
    assert seen[-1].total is None and seen[-1].eta_s is None


def test_meter_without_callback_is_silent():
    meter = ProgressMeter(None)
    meter.stage("walk")
    meter.update(5)
    assert meter.done == 5


def test_cancel_token():
    token = CancelToken()
    assert not token.cancelled
    token.raise_if_cancelled()
    token.cancel()
    assert token.cancelled
    with pytest.raises(ScanCancelled):
        token.raise_if_cancelled()


def test_a_cancel_during_the_pair_search_stops_it_at_its_next_checkpoint(store, tmp_path, monkeypatch):
    from ndd_desktop.core.checkpoint import checkpoint
    from ndd_desktop.core.methods import get_method

    from pipehelp import make_corpus, scan

    make_corpus(tmp_path / "docs", n=12)
    method = get_method("qgram")
    token = CancelToken()
    finished = []

    def find_pairs(sketches, params, floor, dates=None):
        token.cancel()  # the cancel button, pressed while the search runs
        checkpoint()  # the search's next step: must not return from here
        finished.append(True)

    monkeypatch.setattr(method, "find_pairs", find_pairs)
    with pytest.raises(ScanCancelled):
        scan(store, [tmp_path / "docs"], cancel=token)
    assert finished == []


def test_extraction_says_its_workers_are_starting_before_the_first_file(store, tmp_path):
    from pipehelp import make_corpus, scan

    make_corpus(tmp_path / "docs", n=6)
    seen = []
    scan(store, [tmp_path / "docs"], progress=seen.append)
    extract = [p for p in seen if p.stage == "extract"]
    named = [p for p in extract if p.current]  # the stage's own start carries no text
    assert named[0].done == 0 and named[0].current == "starting the extraction workers"
    assert extract[-1].done == extract[-1].total == 6
