"""Tests of core.hashing: counts agree with the tokeniser, batches agree with single texts."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core import batch_hashing, hashing
from ndd_desktop.core.normalize import normalize, tokens

MASK = (1 << 64) - 1

# Combining marks (categories Mn, Mc, Me): a Latin accent NFKC leaves alone after most
# letters, Devanagari vowel signs and a virama, Thai vowel and tone marks, an enclosing circle.
MARKS = ["\u0301", "\u093f", "\u0940", "\u094d", "\u0e34", "\u0e48", "\u20dd"]
# Letters, digits, punctuation, white space, a few scripts written without spaces, marks.
ALPHABET = st.sampled_from(list("abcdefghij ABC  .,;-_'0123456789éßǅ日本語のไทยकत𝔘\t\n") + MARKS)
TEXTS = st.text(alphabet=ALPHABET, max_size=80).map(normalize)
hashing.token_hashes("warm up")  # imports what hashing needs once, outside any deadline


def mix64_reference(x: int, seed: int = 0) -> int:
    """SplitMix64's finaliser written out in Python integers."""
    z = (x + seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def test_mix64_matches_splitmix64_finaliser():
    xs = [0, 1, 2, 12345, MASK]
    got = hashing.mix64(np.array(xs, dtype=np.uint64), seed=3)
    assert [int(v) for v in got] == [mix64_reference(x, 3) for x in xs]


@settings(deadline=None)
@given(TEXTS)
def test_token_count_matches_normalize_tokens(text):
    assert hashing.token_hashes(text).shape[0] == len(tokens(text))


@settings(deadline=None)
@given(TEXTS)
def test_equal_tokens_hash_equal(text):
    toks = tokens(text)
    hashes = hashing.token_hashes(text)
    for a in range(len(toks)):
        for b in range(len(toks)):
            assert (hashes[a] == hashes[b]) == (toks[a] == toks[b])


@settings(deadline=None)
@given(TEXTS, st.integers(1, 6))
def test_word_shingle_count(text, w):
    ntok = len(tokens(text))
    expected = ntok - w + 1 if ntok >= w else min(ntok, 1)
    assert hashing.hash_word_shingles(text, w).shape[0] == expected


@settings(deadline=None)
@given(TEXTS, st.integers(1, 8))
def test_char_ngram_count(text, n):
    expected = len(text) - n + 1 if len(text) >= n else min(len(text), 1)
    assert hashing.hash_char_ngrams(text, n).shape[0] == expected


def test_known_counts():
    # 8 words -> 6 word 3-shingles; "rose" 4 characters -> 2 character 3-grams.
    assert hashing.hash_word_shingles("a rose is a rose is a rose", 3).shape[0] == 6
    assert hashing.hash_char_ngrams("rose", 3).shape[0] == 2
    assert hashing.hash_word_shingles("", 3).shape[0] == 0
    assert hashing.hash_word_shingles("one two", 3).shape[0] == 1


def test_word_order_matters():
    a = hashing.hash_word_shingles("alpha beta gamma", 3)
    b = hashing.hash_word_shingles("gamma beta alpha", 3)
    assert a[0] != b[0]
    assert hashing.token_hashes("ab")[0] != hashing.token_hashes("ba")[0]


def test_repeated_shingles_hash_equal():
    h = hashing.hash_word_shingles("a rose is a rose is a rose", 4)
    # (a rose is a), (rose is a rose), (is a rose is), (a rose is a), (rose is a rose)
    assert h[0] == h[3] and h[1] == h[4] and len(set(h.tolist())) == 3


def test_abcabcac_has_four_distinct_character_3_shingles():
    # Source 003, 3.3: "abcabcac" slides to {abc, bca, cab, abc, bca, cac}; without the
    # repeats four shingles remain {abc, bca, cab, cac}.
    h = hashing.hash_char_ngrams("abcabcac", 3)
    assert h.shape[0] == 6
    assert h[0] == h[3] and h[1] == h[4]  # abc, bca again
    assert len(set(h.tolist())) == 4
    # the methods that sketch character n-grams keep exactly those four
    from ndd_desktop.core.methods import get_method

    for name, key in (("bottomk", "n"), ("qgram", "q")):
        m = get_method(name)
        assert m.sketch("abcabcac", m.params({key: 3})).shape[0] == 4, name


@settings(deadline=None)
@given(TEXTS, st.integers(0, 3))
def test_deterministic_and_seeded(text, seed):
    a = hashing.hash_word_shingles(text, 2, seed)
    assert np.array_equal(a, hashing.hash_word_shingles(text, 2, seed))
    if a.shape[0]:
        assert not np.array_equal(a, hashing.hash_word_shingles(text, 2, seed + 7))


@settings(deadline=None)
@given(st.binary(max_size=200), st.integers(1, 70))
def test_bytes_windows_match_polynomial_reference(data, n):
    got = hashing.hash_bytes_windows(data, n)
    assert got.shape[0] == max(len(data) - n + 1, 0)
    base = 0x100000001B3
    for s in range(0, got.shape[0], 17):
        h = 0
        for byte in data[s : s + n]:
            h = (h * base + byte) & MASK
        assert int(got[s]) == mix64_reference(h)


# -- 32-bit shingle values of the MinHash sketch -------------------------------------------------


def _runs(result):
    values, starts, counts = result
    assert values.dtype == np.uint32 and np.all(values & 1)
    return [values[s : s + c] for s, c in zip(starts.tolist(), counts.tolist())]


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXTS, max_size=8), st.integers(1, 4))
def test_word_values_count_and_batch_independence(texts, w):
    runs = _runs(batch_hashing.word_shingle_values(texts, w))
    for text, run in zip(texts, runs):
        ntok = len(tokens(text))
        assert run.shape[0] == (ntok - w + 1 if ntok >= w else min(ntok, 1))
        # alone, and next to a non-ASCII text (the code point path)
        assert np.array_equal(run, _runs(batch_hashing.word_shingle_values([text], w))[0])
        assert np.array_equal(run, _runs(batch_hashing.word_shingle_values(["ü", text], w))[1])
        # next to a text of a script without spaces (which alone takes the code point path)
        assert np.array_equal(run, _runs(batch_hashing.word_shingle_values(["日本語 ü", text, "ไทย"], w))[1])


def test_a_batch_with_some_texts_without_spaces_keeps_each_texts_tokens():
    texts = ["the cat sat", "日本語のテキスト", "", "déjà vu déjà", "abc 中文 def", "z"]
    keys, first, count = batch_hashing.word_token_keys(texts)
    assert count.tolist() == [len(tokens(t)) for t in texts] == [3, 8, 0, 3, 4, 1]
    assert first.tolist() == [0, 3, 11, 11, 14, 18]
    for k, text in enumerate(texts):
        alone, _, _ = batch_hashing.word_token_keys([text])
        assert np.array_equal(keys[first[k] : first[k] + count[k]], alone)
    # the same token has the same key in either path
    assert keys[0] == batch_hashing.word_token_keys(["the 日"])[0][0]


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXTS, max_size=8), st.integers(1, 10))
def test_char_values_count_and_batch_independence(texts, q):
    runs = _runs(batch_hashing.char_gram_values(texts, q))
    for text, run in zip(texts, runs):
        assert run.shape[0] == (len(text) - q + 1 if len(text) >= q else min(len(text), 1))
        assert np.array_equal(run, _runs(batch_hashing.char_gram_values([text], q))[0])
        assert np.array_equal(run, _runs(batch_hashing.char_gram_values(["日", text], q))[1])


@settings(deadline=None)
@given(TEXTS)
def test_equal_shingles_get_equal_values(text):
    toks = tokens(text)
    (run,) = _runs(batch_hashing.word_shingle_values([text], 1))
    for a in range(len(toks)):
        for b in range(len(toks)):
            if toks[a] == toks[b]:
                assert run[a] == run[b]
    grams = [text[i : i + 3] for i in range(len(text) - 2)]
    (run,) = _runs(batch_hashing.char_gram_values([text], 3))
    for a in range(len(grams)):
        for b in range(len(grams)):
            if grams[a] == grams[b]:
                assert run[a] == run[b]


def test_long_tokens_and_word_order():
    long_a = "abcdefghijklmnopqrstuvwxyz0123456789"
    long_b = long_a[:-1] + "x"
    (run,) = _runs(batch_hashing.word_shingle_values([f"{long_a} {long_b} {long_a}"], 1))
    assert run[0] == run[2] != run[1]
    (ab,) = _runs(batch_hashing.word_shingle_values(["alpha beta gamma"], 3))
    (ba,) = _runs(batch_hashing.word_shingle_values(["gamma beta alpha"], 3))
    assert ab[0] != ba[0]
    # a short text's one value differs from the shingle of the same tokens at full length
    (short,) = _runs(batch_hashing.word_shingle_values(["alpha beta"], 3))
    (full,) = _runs(batch_hashing.word_shingle_values(["alpha beta"], 2))
    assert short[0] != full[0]


def test_qgram_keys_of_wide_characters_are_their_polynomial_hash():
    # grams holding a code point >= 256 are hashed; the others are their packed code points
    cps = np.array([97, 8217, 98, 99, 100, 101, 20013, 102], dtype=np.uint32)
    keys = batch_hashing._gram_keys(cps, 3)
    wide = cps.astype(np.uint64)
    for k in range(cps.shape[0] - 2):
        window = wide[k : k + 3]
        if window.max() < 256:
            assert keys[k] == window[0] | window[1] << np.uint64(8) | window[2] << np.uint64(16)
        else:
            with np.errstate(over="ignore"):
                h = (window[0] * hashing.POLY_BASE + window[1]) * hashing.POLY_BASE + window[2] + np.uint64(3)
            assert keys[k] == batch_hashing._mix_inplace(np.array([h]))[0]


def test_whole_tokens_are_the_texts_that_are_one_token_and_nothing_else():
    """A text that is exactly one token gets that token's key (the key the same token has
    inside any other text); a text of two tokens, of one token with other characters
    around it, or of none gets no key."""
    word_spans, word_token_keys = batch_hashing.word_spans, batch_hashing.word_token_keys
    texts = ["council", "new-york", "", "naïve", " x", "b2b", "東京", "harbour."]
    whole, keys = word_spans(texts).whole_tokens()
    assert whole.tolist() == [True, False, False, True, False, True, False, False]
    inside = word_token_keys(["the council of naïve b2b"])[0]
    assert keys[[0, 3, 5]].tolist() == inside[[1, 3, 4]].tolist() and not keys[~whole].any()
    assert word_spans([]).whole_tokens()[0].shape == (0,)


def test_a_token_key_is_the_little_endian_word_where_the_token_starts():
    """Keys are read at token starts from the aligned words they straddle; the expected
    words come from Python's int.from_bytes on the same bytes, zero past the end."""
    raw = bytes(range(1, 20))  # 19 bytes: every start, aligned or not, up to the end
    words = batch_hashing._aligned_words(raw)
    pos = np.arange(len(raw), dtype=np.int64)
    got = batch_hashing._u64_at(words, pos)
    assert got.tolist() == [int.from_bytes(raw[p : p + 8].ljust(8, b"\0"), "little") for p in range(len(raw))]
