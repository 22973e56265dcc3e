"""Progress reports of a scan: what stage, how far, how fast, how long to go.

The job calls :meth:`ProgressMeter.update` as often as it likes; the callback is called
at most every ``interval`` seconds (and always at the start and end of a stage), so a
flood of tiny files cannot flood the window with signals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

STAGES = ("walk", "extract", "sketch", "pairs", "verify", "store", "done")


@dataclass(frozen=True)
class Progress:
    """One progress report.

    ``total`` is None while unknown (the walk); ``rate`` is items per second since the
    stage began; ``eta_s`` the estimated seconds left in this stage (None if unknown).
    """

    stage: str
    done: int
    total: int | None
    current: str
    rate: float
    eta_s: float | None


ProgressCallback = Callable[[Progress], None]


#: Items a stage must have done before its time left is estimated (and 2 % of its total).
EARLIEST_ESTIMATE = 5


class ProgressMeter:
    """Turns counts into throttled :class:`Progress` reports for one callback."""

    def __init__(self, callback: ProgressCallback | None, interval: float = 0.1, clock=time.monotonic) -> None:
        self._callback = callback
        self._interval = interval
        self._clock = clock
        self._stage = ""
        self._total: int | None = None
        self._start = clock()
        self._last = float("-inf")
        self.done = 0

    def stage(self, name: str, total: int | None = None) -> None:
        """Begin a stage (reported at once)."""
        self._stage, self._total, self.done = name, total, 0
        self._start = self._clock()
        self._emit("", force=True)

    def set_total(self, total: int | None) -> None:
        """Change the total of the current stage."""
        self._total = total

    def update(self, done: int | None = None, *, advance: int = 0, current: str = "", force: bool = False) -> None:
        """Set (``done``) or advance the count; report if the interval has passed."""
        self.done = self.done + advance if done is None else done
        self._emit(current, force=force)

    def finish(self, current: str = "") -> None:
        """Report the current stage as complete."""
        if self._total is not None:
            self.done = self._total
        self._emit(current, force=True)

    def _emit(self, current: str, force: bool) -> None:
        if self._callback is None:
            return
        now = self._clock()
        if not force and now - self._last < self._interval:
            return
        self._last = now
        elapsed = now - self._start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = None
        # no estimate from the first few items: the first file of a stage carries its
        # start-up ("1 of 205 · 1/s · 3 min 07 s left" for a scan of two seconds)
        if self._total is not None and rate > 0 and self.done >= max(EARLIEST_ESTIMATE, 0.02 * self._total):
            eta = max(self._total - self.done, 0) / rate
        self._callback(Progress(self._stage, self.done, self._total, current, rate, eta))


class StageClock:
    """Times the stages of a scan from its progress reports: wrap the progress callback,
    then read :attr:`stages` (name, seconds, items done) in the order they ran.

    A stage's time runs from its first report to the first report of the next stage, so
    the sum is the scan's time less its set-up before the first report. Items are the
    largest ``done`` the stage reported (documents for extract and sketch, pairs for
    verify and store; nothing for the walk and the candidate search, which count none).
    """

    def __init__(self, forward: ProgressCallback | None = None, clock: Callable[[], float] = time.monotonic):
        self.forward, self._clock = forward, clock
        self.stages: list[tuple[str, float, int]] = []
        self._current: tuple[str, float, int] | None = None

    def __call__(self, p: Progress) -> None:
        now = self._clock()
        if self._current is None or self._current[0] != p.stage:
            self._close(now)
            self._current = (p.stage, now, 0)
        name, start, done = self._current
        self._current = (name, start, max(done, int(p.done or 0)))
        if self.forward is not None:
            self.forward(p)

    def finish(self) -> list[tuple[str, float, int]]:
        """Close the running stage; the stages as (name, seconds, items)."""
        self._close(self._clock())
        self._current = None
        return self.stages

    def _close(self, now: float) -> None:
        if self._current is not None:
            name, start, done = self._current
            self.stages.append((name, now - start, done))
