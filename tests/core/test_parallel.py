"""Pieces of work on threads (core.parallel): results in order, stops and errors kept."""

import threading

import pytest

from ndd_desktop.core.checkpoint import checkpoints
from ndd_desktop.core.parallel import run_threads


@pytest.mark.parametrize("threads", [1, 2, 5])
def test_results_come_in_the_order_of_the_items(threads):
    assert run_threads(lambda x: x * x, range(40), threads) == [x * x for x in range(40)]
    assert run_threads(lambda x: x, [], threads) == []


def test_pieces_run_on_other_threads_and_checkpoints_on_the_caller():
    seen, calls = set(), []
    with checkpoints(lambda: calls.append(threading.current_thread())):
        run_threads(lambda x: seen.add(threading.current_thread()), range(20), 2)
    assert threading.current_thread() not in seen
    assert len(calls) >= 1 and set(calls) == {threading.current_thread()}


class Stop(Exception):
    pass


@pytest.mark.parametrize("threads", [1, 2])
def test_a_checkpoint_that_raises_stops_the_rest(threads):
    done = []

    def stop_after_three():
        if len(done) >= 3:
            raise Stop

    with checkpoints(stop_after_three), pytest.raises(Stop):
        run_threads(done.append, range(1000), threads)
    assert len(done) < 1000


def test_a_piece_that_raises_propagates():
    def piece(x):
        if x == 7:
            raise ValueError(x)
        return x

    with pytest.raises(ValueError):
        run_threads(piece, range(30), 2)
