"""Tests of core.u64_set against Python's set."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.u64_set import U64Set

_U64 = st.integers(0, (1 << 64) - 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(_U64, max_size=60), st.lists(_U64, max_size=60), st.lists(_U64, max_size=20))
def test_membership_is_that_of_a_python_set(members, others, added):
    s = U64Set(np.array(members, dtype=np.uint64))
    asked = np.array(members + others + [0, (1 << 64) - 1], dtype=np.uint64)
    assert s.contains(asked).tolist() == [int(v) in set(members) for v in asked.tolist()]
    t = s.union(np.array(added, dtype=np.uint64))
    assert t.contains(asked).tolist() == [int(v) in set(members) | set(added) for v in asked.tolist()]
    assert len(t) == len(set(members) | set(added)) and t.values().tolist() == sorted(set(members) | set(added))


def test_values_that_share_their_top_bits_probe_on():
    """Values with one home slot (the same top bits) fill the slots after it; each is still
    found, and so is a value placed after a run of them, while the table wraps round."""
    top = np.uint64(0xFFFF_0000_0000_0000)
    crowd = top + np.arange(1, 40, dtype=np.uint64)  # all in the last slot: they wrap round
    s = U64Set(np.concatenate((crowd, np.array([5, 0], dtype=np.uint64))))
    assert s.contains(crowd).all()
    assert s.contains(np.array([0, 5, 6, top, top + np.uint64(40)], dtype=np.uint64)).tolist() == [
        True, True, False, False, False]
    empty = U64Set()
    assert len(empty) == 0 and not empty.contains(np.array([0, 1], dtype=np.uint64)).any()


def test_a_large_set_of_hashes():
    rng = np.random.default_rng(3)
    members = rng.integers(0, 1 << 63, 50_000, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    asked = np.concatenate((members[::7], members[::5] + np.uint64(1)))
    got = U64Set(members).contains(asked)
    assert got[: members[::7].shape[0]].all() and not got[members[::7].shape[0] :].any()
