"""The bottom-k method (NDDSig, source 001): the tweet pairs, properties, candidates."""

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.methods.bottomk import bottom_k
from ndd_desktop.core.normalize import normalize

M = get_method("bottomk")
P = M.params()

# The source's two pairs of tweets (from the LingPipe blog).
NEAR = (
    "Vet, 77, Busted For Obama Death Threat | The Smoking Gun http://t.co/MrTUwxv via @",
    "Vet, 77, Busted For Obama Death Threat http://tinyurl.com/25zyxgp #tcot #tlot #sgp",
)
LOOKALIKE = (
    "Playing a show in Chicago, IL at 9:00 PM today at LE PASSAGE http://artistdata.com/a/32on",
    "Playing a show in Cape Girardeau, MO at 9:00 PM today at The Venue http://artistdata.com/a/32ow",
)


def pair_score(pair, params=P, prep=lambda t: t):
    a, b = (M.sketch(normalize(prep(t)), params) for t in pair)
    return M.score(a, b, params)


def ngram_set(text, n):
    return {text[k : k + n] for k in range(len(text) - n + 1)}


def test_tweets_score_as_plain_ngram_sets():
    # A tweet has fewer than K = 128 distinct 5-grams, so the sketch is the whole set and
    # the score is shared / larger set, computed here with Python sets.
    for pair in (NEAR, LOOKALIKE):
        ga, gb = (ngram_set(normalize(t), 5) for t in pair)
        assert max(len(ga), len(gb)) < P.k
        assert pair_score(pair) == pytest.approx(len(ga & gb) / max(len(ga), len(gb)))


def java_string_hash(s: str) -> int:
    """Java's String.hashCode (s[0]*31^(n-1) + ... + s[n-1], signed 32-bit): the source's hash."""
    h = 0
    for ch in s:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def source_signature(text: str, n: int = 4, k: int = 10) -> np.ndarray:
    # The source's example runs on the raw tweet, n = 4, K = 10, with Java's hash; signed
    # values are shifted by 2^31 so that unsigned order equals Java's signed order.
    grams = [text[i : i + n] for i in range(len(text) - n + 1)]
    return bottom_k(np.array([java_string_hash(g) + (1 << 31) for g in grams], dtype=np.uint64), k)


def test_source_example_with_the_source_settings_gives_0_7_and_0_5():
    # With the source's own settings (N = 4, K = 10, Java String.hashCode on the raw text)
    # our bottom-k + shared/K reproduces the numbers the source prints: 70 % and 50 %.
    a, b = (source_signature(t) for t in NEAR)
    c, d = (source_signature(t) for t in LOOKALIKE)
    assert len(a) == len(b) == len(c) == len(d) == 10
    assert len(np.intersect1d(a, b)) / 10 == pytest.approx(0.7)
    assert len(np.intersect1d(c, d)) / 10 == pytest.approx(0.5)


def test_our_defaults_do_not_order_the_tweets_like_the_source():
    # K = 10 values is a small sample: with any other hash the two pairs can swap. Over the
    # full n-gram sets (our K = 128 exceeds a tweet's n-grams) the look-alike pair shares
    # more (the long common URL prefix): documented in docs/methods/bottomk.md.
    ga, gb = (ngram_set(normalize(t), P.n) for t in NEAR)
    gc, gd = (ngram_set(normalize(t), P.n) for t in LOOKALIKE)
    assert pair_score(NEAR) < pair_score(LOOKALIKE)
    assert len(ga & gb) / max(len(ga), len(gb)) < len(gc & gd) / max(len(gc), len(gd))


def test_ordering_holds_once_urls_are_removed():
    # With the URLs removed (a step the source does not describe) the near-duplicate pair
    # does score clearly above the look-alike pair.
    no_url = lambda t: re.sub(r"http\S+", "", t)  # noqa: E731
    near, look = pair_score(NEAR, prep=no_url), pair_score(LOOKALIKE, prep=no_url)
    assert near > look + 0.05
    # Worked by hand: without URLs the near pair is 62 and 55 characters (58 and 51
    # 5-grams, none repeated); they share the 39-character opening "vet, 77, busted for
    # obama death threat " and nothing else, 39 - 4 = 35 5-grams: 35 / 58. The look-alike
    # pair has 56 and 62 5-grams, 32 shared (counted with Python sets): 32 / 62.
    a, b = (normalize(no_url(t)) for t in NEAR)
    assert (len(a), len(b)) == (62, 55) and a[:39] == b[:39] == "vet, 77, busted for obama death threat "
    assert near == pytest.approx(35 / 58)
    c, d = (ngram_set(normalize(no_url(t)), 5) for t in LOOKALIKE)
    assert (len(c), len(d), len(c & d)) == (56, 62, 32)
    assert look == pytest.approx(32 / 62)


def test_bottom_k_keeps_the_k_smallest_distinct_values():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 2**63, 5000, dtype=np.uint64)
    values = np.concatenate([values, values[:1000]])  # repeats
    got = bottom_k(values, 64)
    assert got.tolist() == sorted(set(values.tolist()))[:64]
    few = np.array([5, 3, 3, 9], dtype=np.uint64)
    assert bottom_k(few, 64).tolist() == [3, 5, 9]
    heavy = np.array([7] * 1000 + [1, 2], dtype=np.uint64)  # fewer than k distinct among the smallest
    assert bottom_k(heavy, 8).tolist() == [1, 2, 7]


@pytest.mark.parametrize("case", ["uniform", "repeated below the limit", "not uniform", "a few values"])
def test_bottom_k_is_exact_whichever_way_it_finds_them(case):
    """The values below the limit (hashes: uniform), the partition when they hold fewer
    than k distinct ones, and all values: each gives the k smallest distinct."""
    rng = np.random.default_rng(7)
    values = rng.integers(0, 2**64 - 1, 4000, dtype=np.uint64, endpoint=True)
    if case == "repeated below the limit":  # the smallest 40 values repeated: few distinct below the limit
        small = np.sort(values)[:40]
        values = np.concatenate([np.repeat(small, 60), values[:1500]])
    elif case == "not uniform":  # small integers: nothing of the range's top
        values = rng.integers(0, 3000, 4000).astype(np.uint64)
    elif case == "a few values":
        values = values[:300]
    rng.shuffle(values)
    assert bottom_k(values, 128).tolist() == sorted(set(values.tolist()))[:128]


def test_long_documents_have_k_values_and_score_shared_over_k():
    rng = np.random.default_rng(1)
    words = ["".join(rng.choice(list("abcdefghij"), 6)) for _ in range(3000)]
    a = normalize(" ".join(words[:2000]))
    b = normalize(" ".join(words[500:2500]))
    sa, sb = M.sketch(a, P), M.sketch(b, P)
    assert sa.shape == sb.shape == (P.k,)
    shared = len(set(sa.tolist()) & set(sb.tolist()))
    assert M.score(sa, sb, P) == pytest.approx(shared / P.k)
    # The estimate is close to the share of n-grams in common (1500 of 2000 words).
    ga, gb = ngram_set(a, 5), ngram_set(b, 5)
    assert abs(M.score(sa, sb, P) - len(ga & gb) / max(len(ga), len(gb))) < 0.15


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefg ,.", min_size=1, max_size=200), st.text(alphabet="abcdefg ,.", min_size=1, max_size=200))
def test_score_properties(a, b):
    sa, sb = M.sketch(normalize(a), P), M.sketch(normalize(b), P)
    if sa.shape[0]:
        assert M.score(sa, sa, P) == 1.0
    s = M.score(sa, sb, P)
    assert 0.0 <= s <= 1.0 and s == M.score(sb, sa, P)


def test_find_pairs_recall_against_brute_force():
    rng = np.random.default_rng(7)
    words = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), rng.integers(2, 9))) for _ in range(2000)]
    docs = []
    for d in range(300):
        if d and rng.random() < 0.3:
            w = docs[int(rng.integers(d))].split()
            for _ in range(int(rng.integers(0, 15))):
                w[int(rng.integers(len(w)))] = str(rng.choice(words))
            docs.append(" ".join(w))
        else:
            docs.append(" ".join(rng.choice(words, int(rng.integers(20, 400)))))
    sk = M.sketch_many([normalize(d) for d in docs], P)
    threshold = M.default_threshold
    want = {
        (i, j) for i, j in itertools.combinations(range(len(sk)), 2) if M.score(sk[i], sk[j], P) >= threshold
    }
    assert len(want) > 20
    got = M.find_pairs(sk, P, 0.3)
    found = set(zip(got.i.tolist(), got.j.tolist()))
    assert len(want & found) >= 0.99 * len(want)
    assert np.all(got.score >= 0.3)
    for i, j, s in zip(got.i[:50].tolist(), got.j[:50].tolist(), got.score[:50].tolist()):
        assert s == pytest.approx(M.score(sk[i], sk[j], P))


def test_containment_is_share_of_each_sketch_found_in_the_other():
    text = " ".join(f"word{k} line{k % 7}" for k in range(400))
    part = " ".join(f"word{k} line{k % 7}" for k in range(12))  # fewer than K n-grams
    a, b = M.sketch(normalize(text), P), M.sketch(normalize(part), P)
    assert a.shape[0] == P.k and b.shape[0] < P.k
    shared = len(set(a.tolist()) & set(b.tolist()))
    cij, cji = M.containment(a, b, P)
    assert (cij, cji) == pytest.approx((shared / a.shape[0], shared / b.shape[0]))
    cont = M.params({"measure": "containment"})
    assert M.score(a, b, cont) == pytest.approx(max(cij, cji))
    assert M.score(a, b, P) == pytest.approx(shared / P.k)


def test_with_containment_a_pair_set_is_never_said_to_be_complete():
    # a short text wholly inside a long one: the long text's sketch holds only its smallest
    # hashes, so most of the short one's values can never match, whichever join runs (here
    # the exact one); the scan stored an empty set as complete and said nothing
    long_text = " ".join(f"word{k} line{k % 7} part{k % 11}" for k in range(700))
    short = " ".join(f"word{k} line{k % 7} part{k % 11}" for k in range(300, 340))
    sk = [M.sketch(normalize(t), P) for t in (long_text, short)]
    cont = M.params({"measure": "containment"})
    got = M.find_pairs(sk, cont, 0.2)
    assert got.complete_from == 1.0
    assert M.find_pairs(sk, P, 0.3).complete_from is None  # resemblance: the exact join is complete
