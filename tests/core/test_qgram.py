"""The q-gram method (DDD, source 000): the paper's examples, properties, candidates."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.methods.qgram import QGramMethod, positional_qgrams
from ndd_desktop.core.normalize import normalize, strip_to_letters

M = get_method("qgram")
P = M.params()
texts = st.text(alphabet="abcdefgh ,.xyzé", min_size=0, max_size=80).filter(lambda t: strip_to_letters(normalize(t)))


def test_positional_2grams_of_tom_smith():
    # Section 3.2: |tom smith| - 2 + 1 = 8 positional q-grams.
    assert positional_qgrams("tom smith", 2) == [
        (1, "to"), (2, "om"), (3, "m "), (4, " s"), (5, "sm"), (6, "mi"), (7, "it"), (8, "th"),
    ]
    assert positional_qgrams("ab", 3) == []  # no partial q-grams


def test_rose_3grams():
    tw = strip_to_letters("A rose is a flower")
    assert tw == "Aroseisaflower"
    grams = [g for _, g in positional_qgrams(tw, 3)]
    assert grams == ["Aro", "ros", "ose", "sei", "eis", "isa", "saf", "afl", "flo", "low", "owe", "wer"]
    # The sketch is the set of those 12 q-grams (after case folding: same count here).
    assert M.sketch(normalize("A rose is a flower"), M.params({"q": 3})).shape == (12,)


def test_doc_q_against_plain_python_sets():
    a = normalize("The president met the press on Monday morning.")
    b = normalize("On Monday morning the president met the press!")
    q = 4

    def grams(t):
        s = strip_to_letters(t)
        return {s[k : k + q] for k in range(len(s) - q + 1)}

    ga, gb = grams(a), grams(b)
    want = len(ga & gb) / max(len(ga), len(gb))
    sa, sb = M.sketch(a, P), M.sketch(b, P)
    assert M.score(sa, sb, P) == pytest.approx(want)
    cij, cji = M.containment(sa, sb, P)
    assert (cij, cji) == pytest.approx((len(ga & gb) / len(ga), len(ga & gb) / len(gb)))
    cont = M.params({"measure": "containment"})
    assert M.score(sa, sb, cont) == pytest.approx(max(cij, cji))


def test_white_space_and_punctuation_do_not_matter():
    a = M.sketch(normalize("a rose, is a flower!"), P)
    b = M.sketch(normalize("arose is-a flower"), P)
    assert M.score(a, b, P) == 1.0  # the paper's exact-duplicate flag


def test_containment_of_a_part():
    whole = normalize("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima")
    part = normalize("alpha bravo charlie delta echo foxtrot")
    a, b = M.sketch(whole, P), M.sketch(part, P)
    assert M.score(a, b, P) < 0.6
    assert M.score(a, b, M.params({"measure": "containment"})) == 1.0


@settings(max_examples=60, deadline=None)
@given(texts, texts)
def test_score_properties(a, b):
    sa, sb = M.sketch(normalize(a), P), M.sketch(normalize(b), P)
    assert M.score(sa, sa, P) == 1.0
    s = M.score(sa, sb, P)
    assert 0.0 <= s <= 1.0
    assert s == M.score(sb, sa, P)
    c = M.params({"measure": "containment"})
    assert s <= M.score(sa, sb, c) <= 1.0


def test_empty_sketch_matches_nothing():
    e = M.sketch("", P)
    assert e.shape == (0,)
    assert M.score(e, e, P) == 0.0
    assert M.score(e, M.sketch("abcdef", P), P) == 0.0


def planted_collection(seed, n=120):
    rng = np.random.default_rng(seed)
    words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), rng.integers(2, 9))) for _ in range(400)]
    docs = []
    for d in range(n):
        if d and rng.random() < 0.3:
            w = docs[int(rng.integers(d))].split()
            for _ in range(int(rng.integers(0, 8))):
                w[int(rng.integers(len(w)))] = str(rng.choice(words))
            docs.append(" ".join(w))
        else:
            docs.append(" ".join(rng.choice(words, int(rng.integers(5, 120)))))
    return docs


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("measure", ["resemblance", "containment"])
def test_find_pairs_equals_brute_force(seed, measure):
    docs = planted_collection(seed)
    params = M.params({"measure": measure, "max_df": 1.0})
    sk = M.sketch_many([normalize(d) for d in docs], params)
    floor = 0.4
    want = {}
    for i, j in itertools.combinations(range(len(sk)), 2):
        s = M.score(sk[i], sk[j], params)
        if s >= floor:
            want[(i, j)] = s
    assert len(want) > 10
    got = M.find_pairs(sk, params, floor)
    assert set(zip(got.i.tolist(), got.j.tolist())) == set(want)  # 100 %: nothing clipped
    for i, j, s in zip(got.i.tolist(), got.j.tolist(), got.score.tolist()):
        assert s == pytest.approx(want[(i, j)])
    rescored = M.score_pairs(sk, np.stack([got.i, got.j], axis=1), params)
    assert np.allclose(rescored.score, got.score)
    assert np.allclose(rescored.cont_ij, got.cont_ij) and np.allclose(rescored.cont_ji, got.cont_ji)
    cand = M.candidate_pairs(sk, params, floor)
    assert cand.shape == (len(got), 2)


def test_time_window_excludes_far_apart_dates():
    text = normalize("breaking news: the river rose two metres overnight in the old town")
    sk = [M.sketch(text, P) for _ in range(4)]
    hour = 3600.0
    dates = np.array([0.0, 23 * hour, 49 * hour, np.nan])
    windowed = M.params({"window_hours": 24})
    got = M.find_pairs(sk, windowed, 0.5, dates)
    assert set(zip(got.i.tolist(), got.j.tolist())) == {(0, 1), (0, 3), (1, 3), (2, 3)}
    everything = M.find_pairs(sk, P, 0.5, dates)
    assert len(everything) == 6


def test_window_does_not_change_the_sketch_key():
    assert M.sketch_key(P) == M.sketch_key(M.params({"window_hours": 24, "measure": "containment"}))
    assert M.sketch_key(P) != M.sketch_key(M.params({"q": 5}))
    assert M.pairs_key(P) != M.pairs_key(M.params({"window_hours": 24}))


def test_bytes_round_trip():
    s = M.sketch(normalize("round trip of a sketch"), P)
    assert np.array_equal(M.from_bytes(M.to_bytes(s)), s)


def test_sketch_is_uint32_and_versioned():
    m = QGramMethod()
    p = m.params()
    s = m.sketch("a rose is a flower, a rose is a rose", p)
    assert s.dtype == np.uint32 and np.all(s[1:] > s[:-1])
    assert m.sketch_many(["a rose is a flower, a rose is a rose"], p)[0].tolist() == s.tolist()
    assert m.from_bytes(m.to_bytes(s)).tolist() == s.tolist()
    # the sketch key carries the version, so 64-bit sketches of version 1 are not reused
    from ndd_desktop.core.params import params_hash

    assert params_hash(p, sketch_only=True) == "35f506f952b38250"  # version 1's key
    assert m.sketch_key(p) == "e0b36c692a7246d4"  # version 4 (sketches made from the texts), normalization 3


def test_combining_marks_are_letters():
    # किताब ("book") and कुतुब differ in their vowel signs (combining marks): Tw keeps them,
    # so the 4-grams are {किता, िताब} and {कुतु, ुतुब}: none shared, doc_q = 0. Without the
    # marks both were कतब (one value of a text shorter than q) and scored 1.0.
    a, b = M.sketch(normalize("किताब"), P), M.sketch(normalize("कुतुब"), P)
    assert a.shape[0] == 2 and b.shape[0] == 2
    assert M.score(a, b, P) == 0.0
    assert M.score(a, M.sketch(normalize("किताब"), P), P) == 1.0
    # Thai กิน ("eat") and กัน ("together"): 3 characters each, shorter than q, one value each.
    assert M.score(M.sketch("กิน", P), M.sketch("กัน", P), P) == 0.0


def test_pairs_say_from_which_score_the_search_was_complete(request):
    docs = [normalize(f"the harbour works budget was discussed by the council on day {k} of the session")
            for k in range(12)]
    sketches = M.sketch_many(docs, P)
    exact = M.find_pairs(sketches, P, 0.3)
    assert exact.complete_from is None and len(exact) > 0  # an exact join: complete to the floor
    request.getfixturevalue("banded_search")  # from here on, as on a large collection
    banded = M.find_pairs(sketches, P, 0.3)
    assert banded.complete_from == M.default_threshold  # bands designed for the default threshold
    assert banded.select(banded.score >= 0.9).complete_from == M.default_threshold  # kept by select
    assert M.find_pairs(sketches, P, 0.8).complete_from is None  # floor above the design: complete
    contained = M.find_pairs(sketches, M.params({"measure": "containment"}), 0.3)
    assert contained.complete_from == 1.0  # bands follow resemblance, not containment
    hybrid = get_method("hybrid")
    assert hybrid.find_pairs(hybrid.sketch_many(docs, hybrid.params()), hybrid.params(), 0.3).complete_from is None


def test_a_batch_with_texts_beyond_latin1_sketches_each_text_as_alone():
    # texts of code points below 256 are hashed apart from the others in a batch
    m = QGramMethod()
    p = m.params()
    texts = ["café crème brûlée", "a rose is a rose", "naïve 漢字 text", "", "ÆØÅ æøå", "😂 emoji and words"]
    alone = [m.sketch(t, p).tolist() for t in texts]
    assert [s.tolist() for s in m.sketch_many(texts, p)] == alone
    assert len(alone[2]) > 0 and alone[3] == []


def test_the_texts_a_scan_sketches_give_the_sketches_of_the_normalised_texts():
    """qgram's workers fold an ASCII text only (its runs of white space kept): the q-gram
    sets and the word search's sketches are those of the normalised texts."""
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.core.normalize import normalize
    from ndd_desktop.pipeline.completion import rows_of_normalised

    texts = ["Tabs\tand\nnew\r\nlines   and  runs     of spaces\x0bvertical\x0cfeed " + " " * 40 + "END",
             "a docu-\nment broken at the line's end, Anglo-\nSaxon and 1990-\n1995 kept",
             "UPPER lower  MiXeD", "  ", "", "one", "café  crème\t\tbrûlée", "x" * 30 + "   y"]
    m = get_method("qgram")
    params = m.params({})
    folded = m.texts_to_sketch(texts)
    assert folded[0] != normalize(texts[0])  # the runs are kept: the collapse was skipped
    normalised = [normalize(t) for t in texts]
    for a, b in zip(m.sketch_many(folded, params), m.sketch_many(normalised, params)):
        assert np.array_equal(a, b)
    assert np.array_equal(rows_of_normalised(folded), rows_of_normalised(normalised))
    assert m.texts_to_sketch(texts, "numbers") == [normalize(t, "numbers") for t in texts]
