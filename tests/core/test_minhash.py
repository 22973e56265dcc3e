"""Tests of the minhash method against Broder's paper (004) and against exact computation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.hashing import hash_word_shingles
from ndd_desktop.core.lsh import (
    acceptance_probability,
    bucket_pairs,
    choose_filter,
    sort_based_clusters,
    sort_based_pairs,
)
from ndd_desktop.core.methods import get_method
from ndd_desktop.core.minhash_sketch import minhash_matrix, permutation_multipliers
from ndd_desktop.core.normalize import normalize

METHOD = get_method("minhash")
WORDS = [f"w{i}" for i in range(400)]


def params(**kw):
    return METHOD.params(kw)


def random_text(rng, n_words):
    return " ".join(rng.choice(WORDS, n_words))


def exact_jaccard(a: str, b: str, w: int = 3) -> float:
    sa = set(hash_word_shingles(a, w).tolist())
    sb = set(hash_word_shingles(b, w).tolist())
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


# -- the paper's worked examples -------------------------------------------------------


def test_rose_4_shingling_has_three_distinct_shingles():
    text = "a rose is a rose is a rose"
    assert len(set(hash_word_shingles(text, 4).tolist())) == 3
    sketch = METHOD.sketch(text, params(w=4))
    assert sketch[-1] == 3  # the trailing distinct-shingle count


def test_p_6_14_2_is_one_half_at_0_909():
    # Section 4: "P_{6,14,2}(x) = 1/2 for x = 0.909..."
    p = params(candidates="features", k=6, s=14, r=2)
    assert METHOD.acceptance_curve(p, np.array([0.909]))[0] == pytest.approx(0.5, abs=0.01)
    assert acceptance_probability(0.905, 6, 14, 2) < 0.5 < acceptance_probability(0.915, 6, 14, 2)


def test_p_6_14_2_error_bounds_from_the_introduction():
    # "resemblance > 97.5% do not share at least two features: less than 0.01" (the exact
    # value at 0.975 is 0.0107; the paper rounds, and it is below 0.01 from 0.976 on)
    assert 1 - acceptance_probability(0.975, 6, 14, 2) == pytest.approx(0.01, abs=0.001)
    assert 1 - acceptance_probability(0.976, 6, 14, 2) < 0.01
    # "resemblance > 99% ... less than 0.00022"
    assert 1 - acceptance_probability(0.99, 6, 14, 2) < 0.00022
    # "resemblance < 77% do share two or more features: less than 0.01"
    assert acceptance_probability(0.77, 6, 14, 2) < 0.01
    # "resemblance < 50% share two or more features: less than 0.6e-7"
    assert acceptance_probability(0.5, 6, 14, 2) < 0.6e-7


def test_acceptance_curve_formulas():
    x = np.linspace(0, 1, 11)
    # r = 1 is the banding curve 1 - (1 - x^rows)^bands.
    assert np.allclose(acceptance_probability(x, 20, 5, 1), 1 - (1 - x**5) ** 20)
    # The binomial sum written out for k = 3, r = 2: 3 p^2 (1 - p) + p^3.
    p = x**2
    assert np.allclose(acceptance_probability(x, 3, 2, 2), 3 * p**2 * (1 - p) + p**3)
    assert acceptance_probability(1.0, 6, 14, 2) == pytest.approx(1.0)
    assert acceptance_probability(0.0, 6, 14, 2) == pytest.approx(0.0)


@pytest.mark.parametrize("floor", [0.1, 0.3, 0.5, 0.8, 0.95])
def test_auto_filter_finds_pairs_at_the_floor(floor):
    k, s, r = choose_filter(floor, 128)
    assert k * s <= 128 and r == 1
    assert acceptance_probability(floor, k, s, r) >= 0.99
    assert METHOD.acceptance_curve(params(), np.array([floor]), floor=floor)[0] >= 0.99


def test_default_filter_at_default_floor():
    # 64 bands of 2 rows: 1 - (1 - 0.3^2)^64 at the contract's floor 0.3.
    assert METHOD.filter_for(params(), 0.3) == (64, 2, 1)
    assert METHOD.acceptance_curve(params(), np.array([0.3]))[0] == pytest.approx(1 - 0.91**64)


def test_features_need_room_in_the_sketch():
    # Refused when the parameters are read, not after a scan has sketched everything:
    # 20 features of 8 minima need 160 of the 128 minima.
    with pytest.raises(ValueError, match=r"k \* s = 20 \* 8 = 160 exceeds t = 128"):
        params(candidates="features", k=20, s=8)
    with pytest.raises(ValueError, match=r"k \* s = 64 \* 2 = 128 exceeds t = 64"):
        params(candidates="features", t=64)  # the default 64 features of 2 minima
    # A pair cannot share 3 of 2 features: such a filter would find nothing.
    with pytest.raises(ValueError, match="r = 3 exceeds k = 2"):
        params(candidates="features", k=2, r=3)
    # The limits themselves are fine, and with candidates = auto k, s, r are not used.
    assert params(candidates="features", k=16, s=8, r=16).k == 16
    assert METHOD.filter_for(params(candidates="features", k=32, s=2, t=64), 0.3) == (32, 2, 1)
    assert METHOD.filter_for(params(t=64, r=3, k=2), 0.3) == choose_filter(0.3, 64)


# -- sort-based clustering (section 2) ------------------------------------------------------


def test_sort_based_pairs_counts_shared_shingles():
    sets = [np.array([1, 2, 3, 4]), np.array([3, 4, 5]), np.array([9]), np.array([4, 4, 9])]
    pairs, shared, res = sort_based_pairs(sets)
    got = {(int(i), int(j)): (int(c), float(r)) for (i, j), c, r in zip(pairs, shared, res)}
    # {1,2,3,4} n {3,4,5} = {3,4}: 2 of 5; {1,2,3,4} n {4,9} = {4}: 1 of 5; {3,4,5} n {4,9}: 1 of 4
    assert got == {(0, 1): (2, 0.4), (0, 3): (1, 0.2), (1, 3): (1, 0.25), (2, 3): (1, 0.5)}


def test_sort_based_clusters_union_find():
    sets = [np.array([1, 2, 3]), np.array([1, 2, 3, 4]), np.array([7, 8]), np.array([3, 4, 5, 6]), np.array([7, 8, 9])]
    # 0-1: 3/4, 1-3: 2/6, 2-4: 2/3; at 0.5: {0,1}, {2,4}, {3}
    assert sort_based_clusters(sets, 0.5).tolist() == [0, 0, 2, 3, 2]


# -- sketches and scores ----------------------------------------------------------------------


TEXT = st.lists(st.sampled_from(WORDS[:30]), max_size=60).map(" ".join)


@settings(deadline=None, max_examples=50)
@given(TEXT, TEXT)
def test_score_properties(a, b):
    p = params()
    sa, sb = METHOD.sketch(a, p), METHOD.sketch(b, p)
    assert METHOD.score(sa, sa, p) == (1.0 if a else 0.0)  # an empty text matches nothing
    assert METHOD.score(sa, sb, p) == METHOD.score(sb, sa, p)
    assert 0.0 <= METHOD.score(sa, sb, p) <= 1.0
    pc = params(measure="containment")
    assert 0.0 <= METHOD.score(sa, sb, pc) <= 1.0
    assert METHOD.score(sa, sb, pc) == METHOD.score(sb, sa, pc)
    cab, cba = METHOD.containment(sa, sb, p)
    assert 0.0 <= cab <= 1.0 and 0.0 <= cba <= 1.0


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10_000), st.integers(20, 400), st.floats(0.0, 1.0))
def test_estimate_within_error_bound(seed, n_words, keep):
    rng = np.random.default_rng(seed)
    a = rng.choice(WORDS, n_words)
    b = a.copy()
    changed = rng.random(n_words) > keep
    b[changed] = rng.choice(WORDS, int(changed.sum()))
    ta, tb = " ".join(a), " ".join(b)
    j = exact_jaccard(ta, tb)
    p = params()
    est = METHOD.score(METHOD.sketch(ta, p), METHOD.sketch(tb, p), p)
    sigma = math.sqrt(j * (1 - j) / 128)
    assert abs(est - j) <= 4.5 * sigma + 2 / 128


def test_estimator_is_unbiased_with_binomial_variance():
    # 400 pairs of random sets with known resemblance 1/3: the mean error is ~0 and the
    # spread matches sqrt(J (1 - J) / t), which needs nearly independent permutations.
    rng = np.random.default_rng(7)
    t, n, inter = 128, 200, 100
    mult = permutation_multipliers(t)
    values, offsets = [], [0]
    for _ in range(400):
        u = rng.integers(0, 2**32, 2 * n - inter, dtype=np.uint64).astype(np.uint32) | np.uint32(1)
        values += [u[:n], u[n - inter :]]
        offsets += [offsets[-1] + n, offsets[-1] + 2 * n]
    sk = minhash_matrix(np.concatenate(values), np.array(offsets), mult)
    est = (sk[0::2] == sk[1::2]).mean(axis=1)
    j = inter / (2 * n - inter)
    assert abs(est.mean() - j) < 0.006
    assert 0.8 < est.std() / math.sqrt(j * (1 - j) / t) < 1.2
    # Groups of s = 2 minima agree with probability J^2 (what the banding curve assumes).
    both = (sk[0::2, 0::2] == sk[1::2, 0::2]) & (sk[0::2, 1::2] == sk[1::2, 1::2])
    assert abs(both.mean() - j * j) < 0.01


def test_containment_of_a_part():
    rng = np.random.default_rng(3)
    big = random_text(rng, 600)
    part = " ".join(big.split()[:200])
    p = params()
    s_part, s_big = METHOD.sketch(part, p), METHOD.sketch(big, p)
    c_part, c_big = METHOD.containment(s_part, s_big, p)
    assert c_part == pytest.approx(1.0, abs=0.15)
    assert c_big == pytest.approx(198 / 598, abs=0.12)
    assert METHOD.score(s_part, s_big, params(measure="containment")) == pytest.approx(c_part)


def test_empty_and_tiny_texts():
    p = params()
    empty, one = METHOD.sketch("", p), METHOD.sketch("word", p)
    assert empty[-1] == 0 and one[-1] == 1
    # The resemblance of two empty shingle sets is undefined (0 / 0): a document without
    # text matches nothing, not even another one (as qgram, hybrid and exact).
    assert METHOD.score(empty, empty, p) == 0.0
    assert METHOD.score(empty, empty, params(measure="containment")) == 0.0
    assert METHOD.containment(empty, empty, p) == (0.0, 0.0)
    assert METHOD.score(empty, one, p) == 0.0
    assert METHOD.containment(empty, one, p)[1] == 0.0
    assert METHOD.score(one, METHOD.sketch("word", p), p) == 1.0  # identical non-empty texts


def test_words_with_combining_marks_are_whole_shingles():
    # "(he) read the book" / "(she) read the qutub": every word differs (the vowel signs
    # ी/ा and ि/ु are combining marks), so no 3-shingle is shared: resemblance 0. When
    # the marks split words, both reduced to "क कत ब पढ ह" and scored 1.0.
    a, b = normalize("की किताब पढ़ी है"), normalize("का कुतुब पढ़ा है")
    p = params()
    sa, sb = METHOD.sketch(a, p), METHOD.sketch(b, p)
    assert sa[-1] == 2 and sb[-1] == 2  # 4 words: 2 shingles each
    assert METHOD.score(sa, sb, p) == 0.0
    assert METHOD.score(sa, METHOD.sketch(a, p), p) == 1.0
    # Thai: "กิน" (eat) and "กัน" (together) differ only by a vowel mark above ก.
    one = params(w=1)
    assert METHOD.score(METHOD.sketch("กิน", one), METHOD.sketch("กัน", one), one) < 1.0
    # the marks changed the sketches: stored ones of version 2 are not reused (the key of
    # the defaults is pinned with the sketch output in tests/core/test_sketch_keys.py)
    assert METHOD.sketch_key(p) == "46193a0c406f07e2"  # 7cdcbcd1f9984dbf before normalization 2, 4eda016bba5de6a1 before 3


def test_containment_search_reports_no_score_complete():
    # The filter selects on resemblance; a short text inside a long one has containment 1
    # at any resemblance, so no containment score is guaranteed to be searched for.
    rng = np.random.default_rng(4)
    texts = [random_text(rng, 100) for _ in range(6)]
    texts.append(texts[0] + " " + texts[1])
    sketches = METHOD.sketch_many(texts, params())
    assert METHOD.find_pairs(sketches, params(measure="containment"), 0.5).complete_from == 1.0
    assert METHOD.find_pairs(sketches, params(), 0.3).complete_from is None


@pytest.mark.parametrize("unit", ["words", "chars"])
def test_texts_without_shingles_match_nothing(unit):
    # Punctuation and emoji have no word character: no word shingle, so no pair (with
    # unit = chars only the empty text has no shingle).
    texts = ["!!! ... ---", "?? ,, ;;", "😀😀😀 🎉", "🎉🎉"] if unit == "words" else ["", "", ""]
    texts = [normalize(t) for t in texts] * 500  # 2,000 (or 1,500) empty documents
    pair_text = "the same words in both documents here"
    texts += [pair_text, pair_text]
    p = params(unit=unit)
    sketches = METHOD.sketch_many(texts, p)
    assert all(sk[-1] == 0 for sk in sketches[:-2])
    n = len(texts)
    # no candidate at all among the empty ones (not n^2 / 2 of them)
    assert METHOD.candidate_pairs(sketches, p, 0.3).tolist() == [[n - 2, n - 1]]
    found = METHOD.find_pairs(sketches, p, 0.3)
    assert list(zip(found.i.tolist(), found.j.tolist())) == [(n - 2, n - 1)]
    assert found.score.tolist() == [1.0]
    pairs = np.array([[0, 1], [0, 4], [2, 3], [0, n - 1]])
    scored = METHOD.score_pairs(sketches, pairs, p)
    assert scored.score.tolist() == [0.0] * 4
    assert scored.cont_ij.tolist() == [0.0] * 4 and scored.cont_ji.tolist() == [0.0] * 4


def test_batch_equals_single_and_bytes_round_trip():
    rng = np.random.default_rng(5)
    texts = [random_text(rng, int(n)) for n in rng.integers(0, 300, 40)] + ["", "x"]
    for p in (params(), params(unit="chars", q=5), params(t=64, w=1)):
        many = METHOD.sketch_many(texts, p)
        for text, sk in zip(texts, many):
            assert np.array_equal(sk, METHOD.sketch(text, p))
            assert np.array_equal(METHOD.from_bytes(METHOD.to_bytes(sk)), sk)
        assert many[0].shape == (p.t + 1,)


def test_params_validation_and_keys():
    with pytest.raises(ValueError):
        params(w=11)
    with pytest.raises(ValueError):
        params(unit="lines")
    assert METHOD.sketch_key(params(measure="containment", k=10)) == METHOD.sketch_key(params())
    assert METHOD.sketch_key(params(w=4)) != METHOD.sketch_key(params())


# -- candidates ---------------------------------------------------------------------------------


def planted_collection(seed, n_base=150, n_copies=150):
    """Random texts plus copies edited at rates spread so resemblances cover (0, 1]."""
    rng = np.random.default_rng(seed)
    texts = [random_text(rng, int(rng.integers(60, 250))) for _ in range(n_base)]
    for c in range(n_copies):
        src = texts[int(rng.integers(len(texts)))].split()
        rate = rng.uniform(0.0, 0.3)
        for pos in np.flatnonzero(rng.random(len(src)) < rate):
            src[pos] = str(rng.choice(WORDS))
        texts.append(" ".join(src))
    return texts


@pytest.mark.parametrize("seed,floor", [(1, 0.3), (2, 0.3), (3, 0.5), (4, 0.2)])
def test_candidates_recall_against_brute_force(seed, floor):
    texts = planted_collection(seed)
    p = params()
    sketches = METHOD.sketch_many(texts, p)
    n = len(texts)
    i, j = np.triu_indices(n, 1)
    everything = METHOD.score_pairs(sketches, np.stack((i, j), axis=1), p)
    wanted = {(a, b) for a, b, s in zip(everything.i, everything.j, everything.score) if s >= floor}
    assert len(wanted) > 50  # the planted copies
    got = {tuple(x) for x in METHOD.candidate_pairs(sketches, p, floor).tolist()}
    assert len(wanted & got) >= 0.99 * len(wanted)
    found = METHOD.find_pairs(sketches, p, floor)
    assert np.all(found.score >= floor) and np.all(found.i < found.j)


def test_bucket_pairs_counts_shared_features():
    keys = np.array([[1, 10, 100], [1, 10, 200], [1, 30, 300], [2, 30, 300]], dtype=np.uint64)
    assert {tuple(x) for x in bucket_pairs(keys, 1).tolist()} == {(0, 1), (0, 2), (1, 2), (2, 3)}
    assert {tuple(x) for x in bucket_pairs(keys, 2).tolist()} == {(0, 1), (2, 3)}
    assert bucket_pairs(keys, 3).shape == (0, 2)


def test_oversized_buckets_are_windowed_but_connected():
    n, cap = 600, 50
    keys = np.zeros((n, 3), dtype=np.uint64)
    keys[:, 1], keys[:, 2] = 1, 2
    pairs = bucket_pairs(keys, 1, max_bucket=cap)
    assert len(pairs) < n * (n - 1) // 2
    assert len(pairs) <= 3 * n * (cap - 1)
    # One union-find pass: every document ends in one component.
    parent = list(range(n))

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for a, b in pairs.tolist():
        parent[find(a)] = find(b)
    assert len({find(a) for a in range(n)}) == 1


# -- the batched sketch path ---------------------------------------------------------------------


def test_sketch_key_carries_the_sketch_version():
    from ndd_desktop.core.params import params_hash

    p = params()
    # the bare parameter hash is version 1's key; version 3's is a different literal
    assert params_hash(p, sketch_only=True) == "4369ed3ff3d157ed"
    assert METHOD.sketch_key(p) == "46193a0c406f07e2"  # 7cdcbcd1f9984dbf before normalization 2, 4eda016bba5de6a1 before 3


def test_sketch_does_not_depend_on_the_batch():
    # ASCII / Latin-1 batches take the byte path, others the code point path: a text's
    # sketch must be the same in either company, and in chunks of any size.
    rng = np.random.default_rng(11)
    plain = [random_text(rng, int(n)) for n in rng.integers(1, 120, 30)] + ["a", "ab", ""]
    wide = ["日本語のテキスト wörter ünd straße", "naïve café x"]
    for p in (params(), params(w=1), params(w=5), params(unit="chars", q=5), params(unit="chars", q=3), params(unit="chars", q=12)):
        alone = METHOD.sketch_many(plain, p)
        mixed = METHOD.sketch_many(plain + wide, p)
        for a, b in zip(alone, mixed):
            assert np.array_equal(a, b)
        for text, sk in zip(plain + wide, mixed):
            assert np.array_equal(sk, METHOD.sketch(text, p))


def test_distinct_counts_match_the_shingle_sets():
    from ndd_desktop.core.hashing import hash_char_ngrams

    rng = np.random.default_rng(12)
    texts = [random_text(rng, int(n)) for n in rng.integers(0, 700, 60)]
    texts += ["a rose is a rose is a rose", "é" * 3, "ab"]
    words = METHOD.sketch_many(texts, params())
    chars = METHOD.sketch_many(texts, params(unit="chars", q=4))
    for text, sw, sc in zip(texts, words, chars):
        assert sw[-1] == len(set(hash_word_shingles(text, 3).tolist()))
        assert sc[-1] == len(set(hash_char_ngrams(text, 4).tolist()))


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 10_000), st.integers(30, 300), st.floats(0.0, 1.0))
def test_char_estimate_within_error_bound(seed, n_words, keep):
    from ndd_desktop.core.hashing import hash_char_ngrams

    rng = np.random.default_rng(seed)
    a = rng.choice(WORDS, n_words)
    b = a.copy()
    changed = rng.random(n_words) > keep
    b[changed] = rng.choice(WORDS, int(changed.sum()))
    ta, tb = " ".join(a), " ".join(b)
    sa, sb = set(hash_char_ngrams(ta, 5).tolist()), set(hash_char_ngrams(tb, 5).tolist())
    j = len(sa & sb) / len(sa | sb)
    p = params(unit="chars", q=5)
    est = METHOD.score(METHOD.sketch(ta, p), METHOD.sketch(tb, p), p)
    lo, hi = _binomial_range(128, j, 1e-7)
    assert lo <= round(est * 128) <= hi, (est, j)


def _binomial_range(t: int, j: float, tail: float) -> tuple[int, int]:
    """The agreements of t independent permutations outside which each tail of
    Binomial(t, j) holds less than ``tail``: exact, where the normal approximation (the
    bound 4.5 sigma used before) is too tight for small j, whose binomial is skewed (seed
    5376 with 30 words, none kept: J 0.015, 11 agreements of 128, probability 1e-5)."""
    pmf = [math.comb(t, m) * j**m * (1 - j) ** (t - m) for m in range(t + 1)]
    lo = next(m for m in range(t + 1) if sum(pmf[: m + 1]) > tail)
    hi = next(m for m in range(t, -1, -1) if sum(pmf[m:]) > tail)
    return lo, hi


def test_long_documents_are_split_into_runs(monkeypatch):
    from ndd_desktop.core import minhash_sketch

    rng = np.random.default_rng(13)
    values = rng.integers(0, 2**32, 5000, dtype=np.uint64).astype(np.uint32) | np.uint32(1)
    offsets = np.array([0, 10, 10, 3000, 3001, 5000])
    mult = permutation_multipliers(16)
    whole = minhash_matrix(values, offsets, mult)
    monkeypatch.setattr(minhash_sketch, "_RUN", 256)
    assert np.array_equal(minhash_matrix(values, offsets, mult), whole)
    expected = np.array([[(int(a) * values[lo:hi].astype(np.uint64) % 2**32).min() for a in mult] if hi > lo else [2**32 - 1] * 16
                         for lo, hi in zip(offsets[:-1], offsets[1:])])
    assert np.array_equal(whole, expected)


def test_the_shingle_size_a_unit_does_not_use_changes_no_key():
    m = get_method("minhash")
    words, chars = m.params(), m.params({"unit": "chars"})
    assert m.sketch_key(m.params({"q": 7})) == m.sketch_key(words)  # q is for characters
    assert m.pairs_key(m.params({"q": 7})) == m.pairs_key(words)
    assert m.sketch_key(m.params({"unit": "chars", "w": 9})) == m.sketch_key(chars)
    assert m.sketch_key(m.params({"w": 4})) != m.sketch_key(words)  # w is used: new sketches
    assert m.sketch_key(m.params({"unit": "chars", "q": 6})) != m.sketch_key(chars)


def test_stored_sketches_decode_together_into_the_rows_they_were():
    m = get_method("minhash")
    p = m.params({})
    texts = ["the quick brown fox jumps over the lazy dog", "", "a b c d e f g", "one two three four five six"]
    sketches = m.sketch_many([normalize(t) for t in texts], p)
    blobs = [m.to_bytes(s) for s in sketches]
    matrix = m.from_bytes_many(blobs)
    assert matrix.shape == (4, p.t + 1) and matrix.flags.writeable
    for row, blob in zip(matrix, blobs):
        assert row.tobytes() == blob
    assert m.from_bytes_many([]).shape[0] == 0
    # bytes of unequal lengths (never written so) still come back row by row, as they were
    short = np.arange(3, dtype=np.uint32).tobytes()
    odd = m.from_bytes_many([short, short + short])
    assert [r.tolist() for r in odd] == [[0, 1, 2], [0, 1, 2, 0, 1, 2]]
