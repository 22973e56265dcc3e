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
