"""The choice between ways of sorting (core.sort_timing), on a clock the ways move."""

import numpy as np
import pytest

from ndd_desktop.core import sort_timing, top_bits_sort, word_sort
from ndd_desktop.core.sort_timing import quickest


class Clock:
    """A perf_counter that only moves when a way says it took time."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def way(self, seconds: list[float]):
        """A way that takes ``seconds[k]`` in its k-th run and records what it was given."""
        runs = []

        def run(words: np.ndarray) -> None:
            runs.append(words)
            self.now += seconds[len(runs) - 1]
        run.runs = runs
        return run


def test_the_way_with_the_least_time_wins(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(sort_timing.time, "perf_counter", clock)
    slow, quick = clock.way([5.0, 4.0]), clock.way([3.0, 4.5])
    assert quickest({"slow": slow, "quick": quick}, np.arange(10, dtype=np.uint64)) == "quick"
    assert quickest({"a": clock.way([1.0, 1.0]), "b": clock.way([2.0, 0.5])}, np.arange(3)) == "b"  # its best run


def test_a_tie_goes_to_the_way_named_first(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(sort_timing.time, "perf_counter", clock)
    assert quickest({"first": clock.way([1.0, 1.0]), "second": clock.way([1.0, 1.0])}, np.arange(3)) == "first"
    assert quickest({"second": clock.way([1.0, 1.0]), "first": clock.way([1.0, 1.0])}, np.arange(3)) == "second"


def test_each_run_sorts_a_fresh_copy_of_the_sample(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(sort_timing.time, "perf_counter", clock)
    sample = np.array([3, 1, 2], dtype=np.uint64)
    way = clock.way([1.0, 1.0, 1.0])
    quickest({"sort": lambda words: (way(words), words.sort())}, sample, rounds=3)
    assert len(way.runs) == 3
    assert all(run is not sample for run in way.runs)
    assert len({id(run) for run in way.runs}) == 3
    assert sample.tolist() == [3, 1, 2]  # the sample itself is never sorted


@pytest.mark.parametrize("module, choose, ways", [
    (top_bits_sort, top_bits_sort.chosen, ("top bits", "numpy")),
    (word_sort, word_sort.part_sorter, ("radix", "numpy")),
])
def test_each_sort_is_timed_once_a_process(monkeypatch, module, choose, ways):
    monkeypatch.setattr(module, "_chosen", None)
    first = choose()
    assert first in ways
    calls = []
    monkeypatch.setattr(sort_timing.time, "perf_counter", lambda: calls.append(1) or 0.0)
    assert choose() == first  # not timed again
    assert calls == []
