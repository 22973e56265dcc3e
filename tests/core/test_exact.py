"""The exact method: xxh3-128 of the normalised text, group-by candidates."""

import itertools

import numpy as np
import xxhash
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.methods.exact import pairs_within_groups
from ndd_desktop.core.normalize import normalize

M = get_method("exact")
P = M.params()


def test_sketch_is_xxh3_128_as_two_words():
    text = normalize("Hello,   World")
    h = xxhash.xxh3_128(text.encode("utf-8")).hexdigest()
    s = M.sketch(text, P)
    assert s.dtype == np.uint64 and s.shape == (2,)
    assert f"{int(s[0]):016x}{int(s[1]):016x}" == h


def test_normalisation_makes_case_and_spacing_irrelevant():
    a = M.sketch(normalize("The  Cat\nsat"), P)
    b = M.sketch(normalize("the cat sat"), P)
    c = M.sketch(normalize("the cat sat."), P)
    assert M.score(a, b, P) == 1.0
    assert M.score(a, c, P) == 0.0


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=50), st.text(min_size=1, max_size=50))
def test_score_properties(a, b):
    sa, sb = M.sketch(normalize(a), P), M.sketch(normalize(b), P)
    if sa.shape[0]:
        assert M.score(sa, sa, P) == 1.0
    assert M.score(sa, sb, P) == M.score(sb, sa, P)
    assert M.score(sa, sb, P) == (1.0 if normalize(a) == normalize(b) and normalize(a) else 0.0)


def test_find_pairs_is_every_equal_pair():
    rng = np.random.default_rng(3)
    pool = [f"document number {k}" for k in range(30)]
    texts = [pool[int(rng.integers(30))] for _ in range(200)] + ["", ""]
    sk = M.sketch_many([normalize(t) for t in texts], P)
    want = {(i, j) for i, j in itertools.combinations(range(len(texts)), 2) if texts[i] == texts[j] and texts[i]}
    got = M.find_pairs(sk, P, 0.5)
    assert set(zip(got.i.tolist(), got.j.tolist())) == want
    assert np.all(got.score == 1.0) and np.all(np.isnan(got.cont_ij))
    assert len(M.find_pairs(sk[:1], P, 0.5)) == 0


def test_pairs_within_groups():
    labels = np.array([3, 1, 3, 2, 1, 3])
    got = {tuple(p) for p in pairs_within_groups(labels).tolist()}
    assert got == {(0, 2), (0, 5), (2, 5), (1, 4)}
    assert pairs_within_groups(np.array([1, 2, 3])).shape == (0, 2)


def test_score_pairs_matches_score_and_never_pairs_empty_texts():
    from ndd_desktop.core.methods import get_method

    m = get_method("exact")
    p = m.params()
    texts = ["same text", "same text", "", "", "other", "same text"]
    sketches = [m.sketch(t, p) for t in texts]
    pairs = np.array([(a, b) for a in range(len(texts)) for b in range(a + 1, len(texts))], dtype=np.int64)
    got = m.score_pairs(sketches, pairs, p)
    assert got.score.tolist() == [m.score(sketches[a], sketches[b], p) for a, b in pairs]
    assert got.score[(pairs[:, 0] == 2) & (pairs[:, 1] == 3)].tolist() == [0.0]  # two empty texts
    assert int(got.score.sum()) == 3  # 0-1, 0-5, 1-5


def test_version_one_methods_changed_their_sketch_keys_with_the_normalization():
    # Stores written before sketch versions existed found their sketches under the bare
    # parameter hash until normalization 2, whose sketches differ, made them sketch again.
    from ndd_desktop.core.params import params_hash

    m = get_method("exact")
    p = m.params()
    # until normalization 2 (which sketches every store again) the key was the bare hash
    assert params_hash(p, sketch_only=True) == "bf21a9e8fbc5a384" != m.sketch_key(p) == "81fad3d96604731e"
