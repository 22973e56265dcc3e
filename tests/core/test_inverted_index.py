"""The inverted-index join against brute force on random collections with planted duplicates."""

import itertools

import numpy as np
import pytest

import ndd_desktop.core.dense_join as dj
import ndd_desktop.core.inverted_index as ii
from ndd_desktop.core import feature_index, posting_pairs
from ndd_desktop.core.feature_index import FeatureIndex, shared_counts
from ndd_desktop.core.inverted_index import overlap_join
from ndd_desktop.core.word_parts import WordParts


def planted_sets(seed, n=150, universe=3000):
    """Random sets of features, a third of them noisy copies of an earlier set."""
    rng = np.random.default_rng(seed)
    sets = []
    for d in range(n):
        if d and rng.random() < 0.35:
            base = sets[int(rng.integers(d))]
            keep = base[rng.random(base.shape[0]) > rng.uniform(0, 0.4)]
            extra = rng.integers(0, universe, int(rng.integers(0, 30)), dtype=np.uint64)
            sets.append(np.unique(np.concatenate([keep, extra]).astype(np.uint64)))
        else:
            size = int(rng.integers(0, 200))
            sets.append(np.unique(rng.integers(0, universe, size, dtype=np.uint64)))
    return sets


def brute(sets, floor, measure):
    out = set()
    for i, j in itertools.combinations(range(len(sets)), 2):
        a, b = set(sets[i].tolist()), set(sets[j].tolist())
        s = len(a & b)
        if s == 0:
            continue
        d = max(len(a), len(b)) if measure == "resemblance" else min(len(a), len(b))
        if s / d >= floor:
            out.add((i, j, s))
    return out


@pytest.mark.parametrize("measure", ["resemblance", "containment"])
@pytest.mark.parametrize("mode", ["count", "dense", "prefix"])
@pytest.mark.parametrize("floor", [0.0, 0.3, 0.7, 1.0])
def test_exact_modes_match_brute_force(measure, mode, floor):
    sets = planted_sets(1)
    res = overlap_join(sets, floor, measure=measure, mode=mode, max_df=1.0)
    got = set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist()))
    assert got == brute(sets, floor, measure)
    assert res.exact and res.mode == mode
    assert np.all(res.i < res.j)


def test_lsh_mode_finds_pairs_above_recall_score():
    sets = planted_sets(2, n=200, universe=20000)
    truth = {(i, j) for i, j, _ in brute(sets, 0.7, "resemblance")}
    res = overlap_join(sets, 0.3, mode="lsh", recall_score=0.7)
    got = set(zip(res.i.tolist(), res.j.tolist()))
    assert len(truth) > 20
    assert len(truth & got) >= 0.99 * len(truth)
    assert not res.exact
    # Everything returned really is above the floor (scores are exact).
    lens = np.array([s.shape[0] for s in sets])
    assert np.all(res.shared / np.maximum(lens[res.i], lens[res.j]) >= 0.3)


def test_small_chunks_and_partitions_give_same_result(monkeypatch):
    sets = planted_sets(3)
    want = overlap_join(sets, 0.3, mode="prefix")
    monkeypatch.setattr(feature_index, "CHUNK_ENTRIES", 500)
    monkeypatch.setattr(posting_pairs, "CHUNK_PAIRS", 97)
    idx = FeatureIndex(sets)
    flat = np.concatenate(sets)
    _, inv, counts = np.unique(flat, return_inverse=True, return_counts=True)
    assert np.array_equal(idx.gid, inv) and np.array_equal(idx.df, counts)
    for mode in ("count", "prefix"):
        got = overlap_join(sets, 0.3, mode=mode, index=idx)
        assert np.array_equal(got.i, want.i) and np.array_equal(got.shared, want.shared)


def test_shared_counts_against_python_sets():
    sets = planted_sets(4, n=60)
    rng = np.random.default_rng(0)
    i = rng.integers(0, 60, 500)
    j = rng.integers(0, 60, 500)
    got = shared_counts(FeatureIndex(sets), i, j)
    want = [len(set(sets[a].tolist()) & set(sets[b].tolist())) for a, b in zip(i, j)]
    assert got.tolist() == want


def test_clipping_is_reported_and_keeps_scores_exact():
    rng = np.random.default_rng(5)
    common = np.arange(10, dtype=np.uint64)  # in every document
    sets = [np.unique(np.concatenate([common, rng.integers(100, 10**6, 5, dtype=np.uint64)])) for _ in range(80)]
    res = overlap_join(sets, 0.5, mode="prefix", max_df=0.5, min_docs_to_clip=50)
    assert not res.exact
    full = overlap_join(sets, 0.5, mode="prefix", max_df=1.0)
    assert full.exact and len(full.i) == 80 * 79 // 2  # 10 of <= 15 shared
    # Clipping only loses pairs; what it returns is scored exactly.
    lookup = dict(zip(zip(full.i.tolist(), full.j.tolist()), full.shared.tolist()))
    assert all(lookup[(a, b)] == s for a, b, s in zip(res.i.tolist(), res.j.tolist(), res.shared.tolist()))


def test_window_drops_far_apart_dates_and_keeps_unknown():
    s = np.arange(50, dtype=np.uint64)
    sets = [s, s.copy(), s.copy(), s.copy()]
    day = 86400.0
    dates = np.array([0.0, 0.5 * day, 3 * day, np.nan])
    res = overlap_join(sets, 0.5, dates=dates, window_seconds=day)
    assert set(zip(res.i.tolist(), res.j.tolist())) == {(0, 1), (0, 3), (1, 3), (2, 3)}


def test_padded_shared_counts_against_python_sets():
    from ndd_desktop.core.pair_overlap import padded_matrix, padded_shared_counts

    rng = np.random.default_rng(5)
    pool = rng.integers(0, 2**64 - 2, 400, dtype=np.uint64)
    sets = [np.unique(rng.choice(pool, int(rng.integers(0, 130)))) for _ in range(60)]
    full, lens = padded_matrix(sets)
    i, j = np.triu_indices(len(sets), 1)
    got = padded_shared_counts(full, i, j, batch=97)
    want = [len(set(sets[a].tolist()) & set(sets[b].tolist())) for a, b in zip(i, j)]
    assert got.tolist() == want
    assert lens.tolist() == [s.shape[0] for s in sets]


def test_small_set_bands_find_near_duplicate_bottom_k_sketches():
    from ndd_desktop.core.set_lsh import lsh_pairs

    rng = np.random.default_rng(9)
    base = [np.sort(rng.integers(0, 2**64 - 2, 128, dtype=np.uint64)) for _ in range(300)]
    sets = list(base)
    for k in range(300):  # near-duplicates sharing 96-128 of 128 values (score >= 0.75)
        keep = rng.choice(128, int(rng.integers(96, 129)), replace=False)
        extra = rng.integers(0, 2**64 - 2, 128 - keep.shape[0], dtype=np.uint64)
        sets.append(np.unique(np.concatenate([base[k][keep], extra])))
    i, j = lsh_pairs(sets, 0.75 / 1.25)
    found = set(zip(i.tolist(), j.tolist()))
    assert sum((k, 300 + k) in found for k in range(300)) >= 297
    assert len(found) < 2000  # unrelated random sketches rarely collide


def test_merge_shared_counts_against_python_sets():
    from ndd_desktop.core.pair_overlap import merge_shared_counts

    rng = np.random.default_rng(11)
    sets = [np.unique(rng.integers(0, 3000, int(rng.integers(0, 400))).astype(np.uint32)) for _ in range(60)]
    i, j = np.triu_indices(60, 1)
    got = merge_shared_counts(sets, i, j, batch_entries=700)
    want = [len(set(sets[a].tolist()) & set(sets[b].tolist())) for a, b in zip(i, j)]
    assert got.tolist() == want


def test_large_64_bit_sets_are_verified_by_merging_and_counted_exactly():
    """Candidates of large 64-bit sets (hybrid's word shingles) are counted by the merge of
    each pair's two sketches, values above 2^32 and all: the counts of Python's sets."""
    rng = np.random.default_rng(13)
    pool = rng.integers(0, 1 << 63, 3000, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    sets = [np.unique(rng.choice(pool, int(rng.integers(600, 900)))) for _ in range(30)]
    sets.append(np.empty(0, np.uint64))
    i, j = np.triu_indices(len(sets), 1)
    shared, li, lj = ii.candidate_shared_counts(sets, i, j)
    assert shared.tolist() == [len(set(sets[a].tolist()) & set(sets[b].tolist())) for a, b in zip(i, j)]
    assert li.tolist() == [sets[a].shape[0] for a in i] and lj.tolist() == [sets[b].shape[0] for b in j]


@pytest.mark.parametrize("dtype, high", [(np.uint32, 1 << 32), (np.uint64, 1 << 32), (np.uint64, 1 << 64),
                                         (np.uint32, 40)])
def test_unique_inverse_counts_is_numpys_unique(dtype, high):
    """Both ways of sorting (32-bit values packed with their positions, wider ones by an
    argsort) give np.unique's ids, inverse and counts."""
    rng = np.random.default_rng(14)
    values = rng.integers(0, high - 1, 5000, dtype=np.uint64, endpoint=True).astype(dtype)
    values[:50] = values[50:100]  # repeats in any case
    n, inv, counts = feature_index.unique_inverse_counts(values)
    u, want_inv, want_counts = np.unique(values, return_inverse=True, return_counts=True)
    assert n == u.shape[0] and inv.tolist() == want_inv.tolist() and counts.tolist() == want_counts.tolist()
    assert feature_index.unique_inverse_counts(values[:0])[0] == 0


@pytest.mark.parametrize("held", [None, 4096])
def test_large_bands_find_near_duplicate_qgram_sized_sets(held, monkeypatch):
    """In memory, and with each group's band words parted into temporary files (``held``
    words at most in memory: 300 documents of 512 bands, 153,600 words a group, in 64 parts)."""
    from ndd_desktop.core import set_lsh
    from ndd_desktop.core.set_lsh import band_pairs

    made = []
    if held is not None:
        monkeypatch.setattr(set_lsh, "HELD_WORDS", held)
        monkeypatch.setattr(set_lsh, "WordParts", lambda parts: made.append(parts) or WordParts(parts))
    rng = np.random.default_rng(12)
    base = [np.unique(rng.integers(0, 2**32, 1500, dtype=np.uint64).astype(np.uint32)) for _ in range(150)]
    sets = list(base)
    for k in range(150):  # near-duplicates keeping 80-100 % of the values (Jaccard >= 0.67)
        keep = rng.choice(base[k].shape[0], int(base[k].shape[0] * rng.uniform(0.8, 1.0)), replace=False)
        extra = rng.integers(0, 2**32, base[k].shape[0] - keep.shape[0], dtype=np.uint64).astype(np.uint32)
        sets.append(np.unique(np.concatenate([base[k][keep], extra])))
    sets.append(np.empty(0, np.uint32))
    i, j = band_pairs(sets, 0.7 / 1.3)
    found = set(zip(i.tolist(), j.tolist()))
    assert sum((k, 150 + k) in found for k in range(150)) >= 149
    assert len(found) < 200  # unrelated random sets do not collide
    assert np.all(i < j)
    assert made == ([] if held is None else [64] * len(made)) and (held is None or made)


def test_lsh_mode_designs_the_bands_for_the_given_jaccard():
    rng = np.random.default_rng(21)
    sets = [np.unique(rng.integers(0, 2**63, 400, dtype=np.uint64)) for _ in range(200)]
    for k in range(100):  # pairs of Jaccard ~0.35: 210 shared values of ~400 each
        shared = rng.choice(sets[k], 210, replace=False)
        fresh = rng.integers(0, 2**63, sets[k].shape[0] - 210, dtype=np.uint64)
        sets.append(np.unique(np.concatenate([shared, fresh])))
    planted = {(k, 200 + k) for k in range(100)}

    def found(design: float) -> int:
        res = overlap_join(sets, 0.3, mode="lsh", design_jaccard=design)
        return len(planted & set(zip(res.i.tolist(), res.j.tolist())))

    assert found(0.3) >= 99  # designed for Jaccard 0.3: >= 99.5 % each
    assert found(0.9) < 50  # bands for 0.9 rarely catch a pair at 0.35


def overlapping_sets(seed, n=120, common=400, rare=3000):
    """Revisions of one text: each document holds most of a common core plus rare features."""
    rng = np.random.default_rng(seed)
    core = np.arange(common, dtype=np.uint64)
    sets = []
    for _ in range(n):
        kept = core[rng.random(common) < rng.uniform(0.3, 1.0)]
        own = rng.integers(common, common + rare, int(rng.integers(0, 60)), dtype=np.uint64)
        sets.append(np.unique(np.concatenate([kept, own])))
    return sets


def test_auto_mode_joins_heavily_overlapping_collections_by_matrix_product(monkeypatch):
    sets = overlapping_sets(6)
    df = FeatureIndex(sets).df
    monkeypatch.setattr(ii, "COUNT_MODE_BUDGET", int((df * (df - 1) // 2).sum()) - 1)  # count mode too costly
    res = overlap_join(sets, 0.3, max_df=1.0)
    assert res.mode == "dense" and res.exact
    got = set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist()))
    assert got == brute(sets, 0.3, "resemblance")


@pytest.mark.parametrize("dense_affordable", [True, False])
def test_sampled_estimate_sends_large_overlapping_collections_to_dense_mode(monkeypatch, dense_affordable):
    sets = overlapping_sets(8, n=200)
    monkeypatch.setattr(ii, "SAMPLE_DOCS", 60)  # decide on a sample, before any full index
    monkeypatch.setattr(ii, "COUNT_MODE_BUDGET", 1000)
    monkeypatch.setattr(ii, "PREFIX_MODE_BUDGET", 1000)
    if not dense_affordable:
        monkeypatch.setattr(dj, "DENSE_MAX_SECONDS", 1e-9)
    res = overlap_join(sets, 0.3, recall_score=0.9)
    assert res.mode == ("dense" if dense_affordable else "lsh")
    if dense_affordable:
        assert set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist())) == brute(sets, 0.3, "resemblance")


def test_dense_blocks_and_read_steps_do_not_change_counts(monkeypatch):
    sets = overlapping_sets(7, n=90)
    want = brute(sets, 0.2, "containment")
    monkeypatch.setattr(dj, "_BLOCK_CELLS", 90 * 7)  # blocks of 256 columns (the minimum)
    monkeypatch.setattr(dj, "_READ_CELLS", 90 * 4)  # four rows per read step
    res = overlap_join(sets, 0.2, measure="containment", mode="dense")
    assert set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist())) == want


def test_dense_plan_splits_features_at_a_document_frequency():
    df = np.array([1, 2, 2, 3, 50, 80, 80, 100])
    plan = dj.plan(df, 1000, max_len=500)
    # The features with df 50..100 cost far more pair by pair than as matrix columns.
    assert plan.dense.tolist() == [False, False, False, False, True, True, True, True]
    assert plan.sparse_pairs == 1 + 1 + 3
    assert plan.madds == 4 * 1000 * 1000 / 2
    # Too many documents for an n x n matrix, or a sketch too long for exact float32 counts.
    assert dj.plan(df, dj.DENSE_MAX_DOCS + 1, max_len=500) is None
    assert dj.plan(df, 100, max_len=1 << 24) is None


@pytest.mark.parametrize("n", [40, 300, 2000])
def test_dense_plan_gives_each_feature_its_cheaper_counter(n):
    # The costs add up feature by feature, so the best split sends each feature (df >= 2)
    # where it is cheaper: pair by pair (df (df - 1) / 2 increments) or as a matrix column.
    df = np.random.default_rng(n).integers(1, n + 1, 500) // np.random.default_rng(1).integers(1, 40, 500) + 1
    plan = dj.plan(df, n, max_len=10)
    column = n * n / 2 * dj.SECONDS_PER_MADD
    pairwise = df * (df - 1) / 2 * dj.SECONDS_PER_PAIR
    clear = ~np.isclose(pairwise, column)  # at a tie either counter is right
    assert plan.dense[clear].tolist() == ((df >= 2) & (pairwise > column))[clear].tolist()
    assert plan.dense.any() and not plan.dense.all()
    assert plan.seconds == pytest.approx(np.where(df >= 2, np.minimum(pairwise, column), 0).sum())


def test_dense_mode_keeps_the_time_window():
    s = np.arange(50, dtype=np.uint64)
    sets = [s, s.copy(), s.copy(), s.copy()]
    day = 86400.0
    dates = np.array([0.0, 0.5 * day, 3 * day, np.nan])
    res = overlap_join(sets, 0.5, dates=dates, window_seconds=day, mode="dense")
    assert set(zip(res.i.tolist(), res.j.tolist())) == {(0, 1), (0, 3), (1, 3), (2, 3)}


@pytest.mark.parametrize("overrun, mode", [(1.2, "prefix"), (2.0, "lsh")])
def test_prefix_mode_is_kept_a_little_over_budget_once_its_index_is_built(monkeypatch, overrun, mode):
    sets = planted_sets(9)
    index = FeatureIndex(sets)
    units = ii._prefix_cost(index, 0.3) * float(index.lengths.mean())
    monkeypatch.setattr(ii, "COUNT_MODE_BUDGET", -1)
    monkeypatch.setattr(dj, "DENSE_MAX_SECONDS", -1.0)
    monkeypatch.setattr(ii, "PREFIX_MODE_BUDGET", units / overrun)  # over budget by `overrun`
    res = overlap_join(sets, 0.3, recall_score=0.3)
    assert res.mode == mode
    if mode == "prefix":
        assert set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist())) == brute(sets, 0.3, "resemblance")


def _pair_with_jaccard(rng, size, jaccard):
    """Two sets of ``size`` random uint32 values with Jaccard similarity ``jaccard``."""
    shared = int(round(2 * size * jaccard / (1 + jaccard)))
    values = np.unique(rng.integers(0, 2**32, 3 * size, dtype=np.uint64).astype(np.uint32))
    values = rng.permutation(values)
    common, rest = values[:shared], values[shared:]
    a = np.sort(np.concatenate([common, rest[: size - shared]]))
    b = np.sort(np.concatenate([common, rest[size - shared : 2 * (size - shared)]]))
    return a, b


def test_screening_keeps_pairs_at_the_design_and_drops_chance_candidates():
    from ndd_desktop.core.set_lsh import screen_candidates

    rng = np.random.default_rng(31)
    sets, kinds = [], []
    for k in range(300):
        jac, size = (0.54, 2500) if k % 3 == 0 else (0.14, 2500) if k % 3 == 1 else (0.54, 12)
        sets.extend(_pair_with_jaccard(rng, size, jac))
        kinds.append((jac, size))
    i = np.arange(0, 600, 2)
    j = i + 1
    got_i, _ = screen_candidates(sets, i, j, 0.7 / 1.3)
    kept = set((got_i // 2).tolist())
    design = [k for k, (jac, size) in enumerate(kinds) if jac == 0.54]
    chance = [k for k, (jac, _) in enumerate(kinds) if jac == 0.14]
    assert all(k in kept for k in design)  # incl. 12-value sets, whose estimate is coarse
    assert sum(k in kept for k in chance) <= 2  # ~5 standard deviations below the design


def test_screening_keeps_what_the_estimate_on_the_signatures_says():
    from ndd_desktop.core.oph import oph_signatures
    from ndd_desktop.core.set_lsh import SCREEN_BINS, SCREEN_SIGMAS, screen_candidates

    rng = np.random.default_rng(32)
    sets = []
    for _ in range(60):
        a, b = _pair_with_jaccard(rng, int(rng.choice([5, 100, 2500])), float(rng.uniform(0.1, 0.9)))
        sets.extend([a, b])
    sets.append(np.empty(0, np.uint32))
    n = len(sets)
    i = rng.integers(0, n - 1, 400)
    j = np.minimum(i + rng.integers(1, 3, 400), n - 1)  # a document in many candidates
    lens = np.array([s.shape[0] for s in sets])
    sig = oph_signatures(sets, np.arange(n), lens, SCREEN_BINS)
    agree = (sig[i] == sig[j]).sum(axis=1)
    eff = np.minimum(np.minimum(lens[i], lens[j]), SCREEN_BINS).astype(np.float64)
    jac = 0.7 / 1.3
    keep = agree / SCREEN_BINS >= jac - SCREEN_SIGMAS * np.sqrt(jac * (1 - jac) / np.maximum(eff, 1.0))
    got_i, got_j = screen_candidates(sets, i, j, jac)
    assert got_i.tolist() == i[keep].tolist() and got_j.tolist() == j[keep].tolist()
    assert 0 < keep.sum() < 400


def test_a_collection_far_over_budget_is_sent_to_the_bands_on_a_small_sample(monkeypatch):
    """Beyond dense mode's reach, 150 documents decide when their estimate lies 100 times
    over the budget (4,200 sets of 300 drawn from 1,000 values: every prefix is common); a sparse
    collection, far under it, is still estimated on the full sample, and both decisions are
    the full sample's."""
    samples = []
    real = ii._sampled_prefix_work

    def spy(sketches, floor, sample):
        samples.append(sample)
        return real(sketches, floor, sample)

    monkeypatch.setattr(ii, "_sampled_prefix_work", spy)
    rng = np.random.default_rng(15)
    n = dj.DENSE_MAX_DOCS + 104
    dense = [np.unique(rng.integers(0, 1000, 300)).astype(np.uint64) for _ in range(n)]
    assert ii._exact_joins_too_costly(dense, 0.3) and samples == [ii.QUICK_SAMPLE_DOCS]
    assert real(dense, 0.3, ii.SAMPLE_DOCS)[0] > ii.PREFIX_MODE_BUDGET
    samples.clear()
    sparse = [np.arange(60, dtype=np.uint64) + np.uint64(60 * k) for k in range(n)]
    assert not ii._exact_joins_too_costly(sparse, 0.3) and samples == [ii.QUICK_SAMPLE_DOCS, ii.SAMPLE_DOCS]


@pytest.mark.parametrize("jaccard", [0.3, 0.5384615384615384, 0.8])
def test_every_band_design_finds_the_design_similarity_with_the_fewest_groups(jaccard):
    from ndd_desktop.core.set_lsh import band_designs

    designs = band_designs(jaccard, 16, 512)
    assert designs and [r for _, r in designs] == sorted({r for _, r in designs})
    for groups, r in designs:
        assert groups * r <= 16
        assert 1.0 - (1.0 - jaccard**r) ** (groups * 512) >= 0.995
        assert groups == 1 or 1.0 - (1.0 - jaccard**r) ** ((groups - 1) * 512) < 0.995
    if jaccard == 0.5384615384615384:  # qgram's design: 7 values in one group, or 8 in two
        assert designs[-2:] == [(1, 7), (2, 8)]


def test_the_band_design_weighs_rounds_against_chance_candidates():
    """Unrelated random sets (no chance similarity) take the banding of one value less a
    band in one group (7 rounds instead of 16); sets whose unrelated pairs share a third of
    their values keep the most selective banding, whose chance candidates are fewer."""
    from ndd_desktop.core.set_lsh import band_design

    rng = np.random.default_rng(16)
    design_j = ii.least_jaccard(0.7)
    unrelated = [np.unique(rng.integers(0, 2**32, 600, dtype=np.uint64).astype(np.uint32)) for _ in range(3000)]
    lens = np.array([s.shape[0] for s in unrelated])
    assert band_design(unrelated, lens, np.arange(3000), design_j, 16, 512) == (1, 7)
    alike = [np.unique(rng.choice(1200, 600, replace=False)).astype(np.uint32) for _ in range(3000)]
    lens = np.array([s.shape[0] for s in alike])
    assert band_design(alike, lens, np.arange(3000), design_j, 16, 512) == (2, 8)


def test_a_group_whose_parts_find_no_room_is_held_in_memory(monkeypatch):
    """Writing the parts fails (the temporary folder is full): the group is held in memory
    and the search finds the same pairs."""
    from ndd_desktop.core import set_lsh

    rng = np.random.default_rng(15)
    base = [np.unique(rng.integers(0, 2**32, 1200, dtype=np.uint64).astype(np.uint32)) for _ in range(40)]
    sets = base + [np.unique(np.concatenate([b[: int(b.shape[0] * 0.9)], b[:10] + np.uint32(1)])) for b in base]
    want = set_lsh.band_pairs(sets, 0.5)
    monkeypatch.setattr(set_lsh, "HELD_WORDS", 4096)

    def full(self, words):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(WordParts, "add", full)
    got = set_lsh.band_pairs(sets, 0.5)
    assert [x.tolist() for x in got] == [x.tolist() for x in want] and want[0].shape[0] >= 40
