"""A few documents against a whole collection on the screening signatures alone
(core.screen_join): the pairs of the fresh documents at the design similarity, and nothing
of two documents that are not fresh."""

from __future__ import annotations

import numpy as np

from ndd_desktop.core.oph import oph_signatures
from ndd_desktop.core.screen_join import SCREEN_BINS, fresh_candidates


def _collection(seed: int, n: int = 400, size: int = 2500):
    """``n`` sets of ``size`` random 32-bit values sharing nothing, and planted pairs:
    (fresh, other) whose sets share 75 % of their values (Jaccard 0.6), and two sets
    that are not fresh sharing as much."""
    rng = np.random.default_rng(seed)
    values = rng.choice(1 << 32, size=(n + 5) * size, replace=False).astype(np.uint32)
    sets = [np.sort(values[k * size : (k + 1) * size]) for k in range(n)]
    spare = iter(np.split(values[n * size :], 5))
    planted = [(3, 50), (10, 390), (200, 17), (120, 121)]  # (a fresh one, its partner)
    for a, b in planted + [(60, 61)]:
        keep = sets[b][: int(size * 0.75)]
        sets[a] = np.sort(np.concatenate([keep, next(spare)[: size - keep.shape[0]]]))
    fresh = np.array([3, 10, 200, 120, 121, 300], dtype=np.int64)
    return sets, fresh, planted


def _signatures(sets):
    sizes = np.array([s.shape[0] for s in sets], dtype=np.int64)
    return oph_signatures(sets, np.arange(len(sets)), sizes, SCREEN_BINS), sizes


def test_the_pairs_of_fresh_documents_at_the_design_similarity_are_found():
    sets, fresh, planted = _collection(1)
    sig, sizes = _signatures(sets)
    i, j = fresh_candidates(sig, sizes, fresh, 0.538)
    found = set(zip(i.tolist(), j.tolist()))
    assert found == {(min(a, b), max(a, b)) for a, b in planted}


def test_two_documents_that_are_not_fresh_are_never_paired():
    sets, fresh, _ = _collection(2)
    sig, sizes = _signatures(sets)
    i, j = fresh_candidates(sig, sizes, fresh, 0.538)
    assert (60, 61) not in set(zip(i.tolist(), j.tolist()))  # alike, but neither is fresh
    i, j = fresh_candidates(sig, sizes, np.array([300]), 0.538)
    assert i.shape[0] == 0  # a fresh document alike none


def test_a_document_without_values_is_never_paired():
    sets, _, _ = _collection(3)
    sets[7] = np.empty(0, np.uint32)
    sets[8] = np.empty(0, np.uint32)
    sig, sizes = _signatures(sets)
    i, _ = fresh_candidates(sig, sizes, np.array([7]), 0.538)
    assert i.shape[0] == 0  # (two empty rows are equal in every bin)


def test_recall_at_the_design_similarity_is_what_the_bands_promise():
    # 200 pairs at Jaccard 0.55 (shared 71 %): 42 bands of 3 bins find each with
    # probability 1 - (1 - 0.55^3)^42 = 0.9995, the screen keeps them; at most one may go
    rng = np.random.default_rng(4)
    size, pairs = 1200, 200
    values = rng.choice(1 << 32, size=pairs * 3 * size, replace=False).astype(np.uint32)
    sets, fresh = [], []
    shared = round(size * 2 * 0.55 / 1.55)
    for k in range(pairs):
        base = values[k * 3 * size : (k + 1) * 3 * size]
        common = base[:shared]
        sets.append(np.sort(np.concatenate([common, base[size : 2 * size - shared]])))
        sets.append(np.sort(np.concatenate([common, base[2 * size : 3 * size - shared]])))
        fresh.append(2 * k)
    sig, sizes = _signatures(sets)
    i, j = fresh_candidates(sig, sizes, np.array(fresh), 0.538)
    found = {(a, b) for a, b in zip(i.tolist(), j.tolist()) if b == a + 1 and a % 2 == 0}
    assert len(found) >= pairs - 1
    assert len(i) == len(found)  # and no chance pair of unrelated sets
