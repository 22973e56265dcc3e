"""Long pair searches stop at their checkpoints when the caller's function raises."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ndd_desktop.core.checkpoint import checkpoint, checkpoints
from ndd_desktop.core.methods import get_method


class Stop(Exception):
    pass


def _texts():
    rng = np.random.default_rng(0)
    words = [f"w{k}" for k in range(3000)]
    texts = [" ".join(rng.choice(words, 300)) for _ in range(60)]
    return texts + [t + " and a few words more" for t in texts[:20]]


@pytest.mark.parametrize("name", ["qgram", "bottomk", "fingerprint", "hybrid", "minhash"])
def test_a_pair_search_stops_at_a_checkpoint_and_runs_whole_without_one(name):
    method = get_method(name)
    params = method.params()
    sketches = method.sketch_many(_texts(), params)
    whole = method.find_pairs(sketches, params, 0.3)
    assert len(whole) >= 20  # the planted pairs: the search has work to do

    def stop():
        raise Stop

    with pytest.raises(Stop), checkpoints(stop):
        method.find_pairs(sketches, params, 0.3)
    with checkpoints(lambda: None):  # a checkpoint that lets the work go on changes nothing
        again = method.find_pairs(sketches, params, 0.3)
    assert set(zip(again.i.tolist(), again.j.tolist())) == set(zip(whole.i.tolist(), whole.j.tolist()))


def test_checkpoints_belong_to_their_thread_and_nest():
    seen = []
    with checkpoints(lambda: seen.append("outer")):
        with checkpoints(lambda: seen.append("inner")):
            checkpoint()
        checkpoint()
        t = threading.Thread(target=checkpoint)  # another thread has none installed
        t.start()
        t.join()
    checkpoint()  # none installed: nothing happens
    assert seen == ["inner", "outer"]


@pytest.mark.parametrize("name", ["qgram", "hybrid"])
def test_the_banded_search_stops_at_a_checkpoint(name, banded_search):
    method = get_method(name)
    params = method.params()
    sketches = method.sketch_many(_texts(), params)
    whole = method.find_pairs(sketches, params, 0.3)
    assert whole.complete_from is not None or name == "hybrid"  # banded indeed (qgram says so)
    stops = []

    def stop():
        stops.append(1)
        raise Stop

    with pytest.raises(Stop), checkpoints(stop):
        method.find_pairs(sketches, params, 0.3)
    assert stops == [1]
