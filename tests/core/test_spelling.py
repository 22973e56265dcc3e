"""Tests of core.spelling: repeat collapsing, Jaro correction, its exact filters."""

from __future__ import annotations

import jellyfish
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.spelling import (
    SpellingCorrector,
    collapse_repeats,
    collapse_repeats_many,
    get_corrector,
    is_correctable,
    jaro_formula,
    jaro_length_bounds,
    jaro_similarity,
)


def test_collapse_repeats_source_example():
    assert collapse_repeats("Gooood Woorkkk") == "Good Woorkk"


def test_collapse_repeats_lower_case_and_edges():
    assert collapse_repeats("gooood woorkkk") == "good woorkk"
    assert collapse_repeats("aaa bb c") == "aa bb c"
    assert collapse_repeats("zzzzzzzz!") == "zz!"
    assert collapse_repeats("1111 ___") == "1111 ___"  # only letters collapse
    assert collapse_repeats("ooOO") == "ooOO"  # case-sensitive, as in the source example


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("aAbé\u00e9\u0301ß漢 _1.\x00"), max_size=12), max_size=8))
def test_collapse_repeats_many_is_collapse_repeats_of_each(texts):
    """The batch finds exactly the texts that need the expression: a run of three across
    two texts (a text ending in "aa", the next starting with "a") is none."""
    assert collapse_repeats_many(texts) == [collapse_repeats(t) for t in texts]


def test_collapse_repeats_many_examples():
    assert collapse_repeats_many(["saaa", "aab", "x", "", "ééé ok", "ĳĳĳĳ"]) == ["saa", "aab", "x", "", "éé ok", "ĳĳ"]
    assert collapse_repeats_many([]) == []


def test_civl_to_civil_source_example():
    # |S1| = 4, |S2| = 5, m = 4, t = 0 (the source's numbers), from the formula itself.
    expected = (4 / 4 + 4 / 5 + (4 - 0) / 4) / 3
    assert expected == pytest.approx(0.9333, abs=1e-4)
    assert jaro_formula(4, 5, 4, 0) == pytest.approx(expected)
    assert jellyfish.jaro_similarity("civl", "civil") == pytest.approx(expected)
    small = SpellingCorrector({"civil": 10.0, "civic": 5.0, "evil": 20.0})
    assert small.best_match("civl") == ("civil", pytest.approx(expected))
    english = get_corrector("en", 50000, 0.8, 3)
    word, sim = english.best_match("civl")
    assert word == "civil" and sim == pytest.approx(expected)
    assert english.correct_word("civl") == "civil"


def test_tie_broken_by_frequency():
    # "cat" vs "cart" and vs "cast": m = 3, t = 0, lengths 3 and 4 -> the same Jaro.
    sim = (3 / 3 + 3 / 4 + 1) / 3
    assert jellyfish.jaro_similarity("cat", "cart") == pytest.approx(sim)
    assert jellyfish.jaro_similarity("cat", "cast") == pytest.approx(sim)
    assert SpellingCorrector({"cart": 1.0, "cast": 2.0}).best_match("cat") == ("cast", pytest.approx(sim))
    assert SpellingCorrector({"cart": 2.0, "cast": 1.0}).best_match("cat") == ("cart", pytest.approx(sim))


def test_higher_similarity_beats_frequency():
    c = SpellingCorrector({"house": 1.0, "horse": 1000.0})
    assert c.correct_word("housse") == "house"


def test_what_is_never_corrected():
    c = SpellingCorrector({"cast": 1.0, "cart": 2.0, "abcd": 1.0}, min_length=3)
    assert c.correct_word("cast") == "cast"  # known
    assert c.correct_word("ca") == "ca"  # too short
    assert c.correct_word("1234") == "1234"  # a number
    assert c.correct_word("ab1d") == "ab1d"  # not letters only
    assert c.correct_word("zzzz") == "zzzz"  # nothing close enough
    assert not is_correctable("ca", 3) and is_correctable("café", 3) and not is_correctable("x2y", 1)
    c4 = SpellingCorrector({"cart": 1.0}, min_length=5)
    assert c4.correct_word("crat") == "crat"


def test_threshold_controls_correction():
    sim = jellyfish.jaro_similarity("crate", "trace")  # 0.733...
    assert SpellingCorrector({"trace": 1.0}, threshold=0.8).correct_word("crate") == "crate"
    assert SpellingCorrector({"trace": 1.0}, threshold=0.7).best_match("crate") == ("trace", pytest.approx(sim))


def test_correct_tokens_and_text():
    c = SpellingCorrector({"good": 5.0, "work": 5.0, "the": 9.0})
    assert c.correct_text("gooood woorkkk, the 42") == ["good", "work", "the", "42"]
    assert c.correct_tokens(["wrok", "wrok", "the"]) == ["work", "work", "the"]
    assert c.correct_words(["wrok", "xx"]) == {"wrok": "work", "xx": "xx"}


def test_length_bounds_from_the_formula():
    # t = 0.8: short/long >= 3t - 2 = 0.4.
    assert jaro_length_bounds(4, 0.8) == (2, 10)
    assert jaro_length_bounds(10, 0.8) == (4, 25)
    assert jaro_length_bounds(5, 0.6) == (1, 1 << 30)  # below 2/3 any length can qualify
    assert jaro_length_bounds(5, 1.0) == (5, 5)


letters = st.text(alphabet="abcde", min_size=1, max_size=14)


@settings(max_examples=300, deadline=None)
@given(letters, letters, st.floats(0.5, 1.0))
def test_length_bound_never_excludes_a_qualifying_word(s1, s2, t):
    if jellyfish.jaro_similarity(s1, s2) >= t:
        lo, hi = jaro_length_bounds(len(s1), t)
        assert lo <= len(s2) <= hi


def test_jaro_worked_examples():
    # MARTHA / MARHTA: m = 6, the crossed T H count as t = 2 / 2 = 1:
    # (6/6 + 6/6 + (6 - 1)/6) / 3 = 17/18 = 0.9444...
    assert jaro_similarity("MARTHA", "MARHTA") == pytest.approx(17 / 18)
    # DIXON / DICKSONX: window max(5, 8)/2 - 1 = 3; D I O N match, X does not (its X sits
    # 7 away), t = 0: (4/5 + 4/8 + 4/4) / 3 = 0.7667
    assert jaro_similarity("DIXON", "DICKSONX") == pytest.approx((4 / 5 + 4 / 8 + 1) / 3)
    assert round(jaro_similarity("DIXON", "DICKSONX"), 3) == 0.767
    # source 003: civl / civil, m = 4, t = 0 -> 0.9333
    assert jaro_similarity("civl", "civil") == pytest.approx(jaro_formula(4, 5, 4, 0))
    for a, b in (("MARTHA", "MARHTA"), ("DIXON", "DICKSONX"), ("civl", "civil"), ("abc", "xyz")):
        assert jaro_similarity(a, b) == pytest.approx(jellyfish.jaro_similarity(a, b), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcdé", min_size=1, max_size=20), st.text(alphabet="abcdé", min_size=1, max_size=20))
def test_jaro_equals_jellyfish(s1, s2):
    # jellyfish is an independent implementation of the same definition
    assert jaro_similarity(s1, s2) == pytest.approx(jellyfish.jaro_similarity(s1, s2), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text(alphabet="abcdeéz", min_size=1, max_size=10), st.integers(1, 5), min_size=1, max_size=40),
    st.lists(st.text(alphabet="abcdeéz", min_size=3, max_size=10), min_size=1, max_size=10),
    st.sampled_from([0.5, 0.7, 0.8, 0.9]),
)
def test_filters_are_exact_against_a_full_scan(words, queries, t):
    c = SpellingCorrector({w: float(f) for w, f in words.items()}, threshold=t)
    got = c.best_matches(queries)
    for q in set(queries):
        scored = [(jellyfish.jaro_similarity(q, w), f, w) for w, f in words.items()]
        ok = [s for s in scored if s[0] >= t - 1e-9]
        if not ok:
            assert q not in got
            continue
        best = min(ok, key=lambda s: (-round(s[0], 12), -s[1], len(s[2]), s[2]))
        assert got[q][0] == best[2]
        assert got[q][1] == pytest.approx(best[0])


def test_rare_characters_are_matched_exactly():
    # More distinct characters than the bitmap table has columns: rare ones share one.
    words = {chr(0x400 + k) * 3 + "ab": float(k + 1) for k in range(80)}
    words["xyzw"] = 1.0
    c = SpellingCorrector(words, threshold=0.8)
    q = chr(0x400 + 79) * 2 + "ab"
    assert c.best_match(q) == (chr(0x400 + 79) * 3 + "ab", pytest.approx(jellyfish.jaro_similarity(q, chr(0x400 + 79) * 3 + "ab")))
