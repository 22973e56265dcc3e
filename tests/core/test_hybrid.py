"""Tests of the hybrid method: typo correction, then word 3-shingles and Jaccard."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.batch_hashing import word_spans
from ndd_desktop.core.hashing import hash_word_shingles
from ndd_desktop.core.methods import get_method, hybrid
from ndd_desktop.core.methods.hybrid import HybridMethod
from ndd_desktop.core.normalize import normalize
from ndd_desktop.core.spelling import SpellingCorrector
from ndd_desktop.core.vocabulary import wordfreq_dictionary

METHOD = get_method("hybrid")
PARAMS = METHOD.params()

# Common English words (all in the default dictionary), for synthetic texts.
VOCAB = [w for w in list(wordfreq_dictionary("en", 50000))[:3000] if len(w) >= 2 and w.isalpha()]


def _text(seed: int, n: int = 400) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(VOCAB) for _ in range(n))


def _with_typos(text: str, rate: float, seed: int) -> str:
    """Drop, swap or double one inner letter in about ``rate`` of the words of 4+ letters."""
    rng = random.Random(seed)
    out = []
    for w in text.split():
        if len(w) >= 4 and rng.random() < rate:
            p = rng.randrange(1, len(w) - 1)
            w = [w[:p] + w[p + 1 :], w[:p] + w[p + 1] + w[p] + w[p + 2 :], w[:p] + w[p] + w[p:]][rng.randrange(3)]
        out.append(w)
    return " ".join(out)


def _plain_jaccard(a: str, b: str) -> float:
    sa = np.unique(hash_word_shingles(normalize(a), 3))
    sb = np.unique(hash_word_shingles(normalize(b), 3))
    shared = np.intersect1d(sa, sb).shape[0]
    return shared / (sa.shape[0] + sb.shape[0] - shared)


def _score(a: str, b: str, params=PARAMS) -> float:
    return METHOD.score(METHOD.sketch(normalize(a), params), METHOD.sketch(normalize(b), params), params)


def test_registered_with_its_parameters():
    assert isinstance(METHOD, HybridMethod) and METHOD.name == "hybrid"
    assert METHOD.source == "003_a4fe638b252c665f.txt"
    assert 0 < METHOD.default_threshold < 1
    info = {p.name: p for p in METHOD.param_infos()}
    assert info["w"].default == 3
    assert info["jaro_threshold"].default == 0.8
    assert (info["jaro_threshold"].minimum, info["jaro_threshold"].maximum) == (0.5, 1.0)
    assert "en" in info["language"].choices and info["language"].default == "en"
    assert info["measure"].choices == ("resemblance", "containment")
    assert not info["measure"].affects_sketch and info["dictionary_size"].affects_sketch
    with pytest.raises(ValueError, match="language"):
        METHOD.params({"language": "xx"})
    with pytest.raises(ValueError, match="jaro_threshold"):
        METHOD.params({"jaro_threshold": "0.3"})
    assert METHOD.sketch_key(METHOD.params({"measure": "containment"})) == METHOD.sketch_key(PARAMS)


def test_source_example_through_the_method():
    assert METHOD.corrected_tokens(normalize("Gooood Woorkkk"), PARAMS) == ["good", "work"]


def test_word_3_shingles_of_a_sentence():
    sentence = normalize("The quick brown fox jumps over the lazy dog")
    words = sentence.split()
    assert METHOD.corrected_tokens(sentence, PARAMS) == words  # all known words
    assert METHOD.sketch(sentence, PARAMS).shape[0] == len(words) - 2
    # A rose is a rose is a rose (the source's example, w = 4): 3 distinct shingles.
    rose = METHOD.params({"w": 4})
    assert METHOD.sketch("a rose is a rose is a rose", rose).shape[0] == 3


def test_sketch_is_sorted_unique_and_round_trips():
    s = METHOD.sketch(normalize(_text(1, 100)), PARAMS)
    assert s.dtype == np.uint64 and np.all(np.diff(s.astype(np.float64)) >= 0)
    assert np.unique(s).shape[0] == s.shape[0]
    assert np.array_equal(METHOD.from_bytes(METHOD.to_bytes(s)), s)


def test_numbers_and_codes_are_kept():
    assert METHOD.corrected_tokens("call 5551234 about a4b7 now", PARAMS) == ["call", "5551234", "about", "a4b7", "now"]


def test_typo_copy_scores_clearly_higher_than_plain_shingling():
    gains = []
    for seed in range(3):
        original = _text(seed)
        typed = _with_typos(original, 0.05, seed + 100)
        plain = _plain_jaccard(original, typed)
        hybrid = _score(original, typed)
        assert hybrid > 0.9
        gains.append(hybrid - plain)
    assert min(gains) > 0.1  # measured: about 0.96 against 0.76


def test_unrelated_texts_score_low():
    assert _score(_text(1), _text(2)) < 0.05


def test_containment_measure():
    whole = _text(5, 300)
    part = " ".join(whole.split()[:100])
    cont = METHOD.params({"measure": "containment"})
    a, b = METHOD.sketch(normalize(part), cont), METHOD.sketch(normalize(whole), cont)
    cij, cji = METHOD.containment(a, b, cont)
    assert cij == 1.0 and cji == pytest.approx(a.shape[0] / b.shape[0])
    assert METHOD.score(a, b, cont) == 1.0
    assert METHOD.score(a, b, PARAMS) == pytest.approx(a.shape[0] / b.shape[0])  # Jaccard


def test_find_pairs_and_score_pairs_agree_with_score():
    base = _text(7)
    texts = [base, _with_typos(base, 0.05, 1), _text(8), _with_typos(base, 0.1, 2), ""]
    sketches = METHOD.sketch_many([normalize(t) for t in texts], PARAMS)
    assert all(np.array_equal(s, METHOD.sketch(normalize(t), PARAMS)) for s, t in zip(sketches, texts))
    found = METHOD.find_pairs(sketches, PARAMS, floor=0.3)
    got = {(int(i), int(j)): float(s) for i, j, s in zip(found.i, found.j, found.score)}
    assert set(got) == {(0, 1), (0, 3), (1, 3)}
    for (i, j), s in got.items():
        assert s == pytest.approx(METHOD.score(sketches[i], sketches[j], PARAMS))
    scored = METHOD.score_pairs(sketches, np.array([[0, 1], [0, 2], [0, 4]]), PARAMS)
    for k, (i, j) in enumerate([(0, 1), (0, 2), (0, 4)]):
        assert scored.score[k] == pytest.approx(METHOD.score(sketches[i], sketches[j], PARAMS))
    assert scored.score[2] == 0.0  # an empty document
    cands = METHOD.candidate_pairs(sketches, PARAMS, floor=0.3)
    assert {(0, 1), (0, 3), (1, 3)} <= {tuple(p) for p in cands.tolist()}


words = st.sampled_from(VOCAB[:200] + ["teh", "recieve", "wrok", "hte", "1999", "x"])


@settings(max_examples=60, deadline=None)
@given(st.lists(words, min_size=1, max_size=40), st.lists(words, min_size=1, max_size=40), st.sampled_from(["resemblance", "containment"]))
def test_score_properties(a_words, b_words, measure):
    p = METHOD.params({"measure": measure})
    a = METHOD.sketch(" ".join(a_words), p)
    b = METHOD.sketch(" ".join(b_words), p)
    assert METHOD.score(a, a, p) == 1.0
    ab, ba = METHOD.score(a, b, p), METHOD.score(b, a, p)
    assert ab == ba
    assert 0.0 <= ab <= 1.0
    cij, cji = METHOD.containment(a, b, p)
    assert 0.0 <= cij <= 1.0 and 0.0 <= cji <= 1.0


def test_words_with_combining_marks_stay_whole():
    # Hindi, with the Hindi dictionary: "की किताब पढ़ी है" / "का कुतुब पढ़ा है" differ in
    # every content word's vowel signs. The marks no longer split words, so the 3-shingles
    # (2 per text) share nothing: Jaccard 0 (it was 1.0 when both became "क कत ब पढ ह").
    p = METHOD.params({"language": "hi"})
    a, b = normalize("की किताब पढ़ी है"), normalize("का कुतुब पढ़ा है")
    assert METHOD.corrected_tokens(a, p) == a.split(" ")  # real words: kept as they are
    sa, sb = METHOD.sketch(a, p), METHOD.sketch(b, p)
    assert sa.shape[0] == 2 and sb.shape[0] == 2
    assert METHOD.score(sa, sb, p) == 0.0
    assert METHOD.score(sa, METHOD.sketch(a, p), p) == 1.0
    assert [s.tolist() for s in METHOD.sketch_many([a, b], p)] == [sa.tolist(), sb.tolist()]
    # stored sketches of older versions are recomputed: the key is neither the bare
    # parameter hash of version 1 (c9350b1dd4b2f80a) nor version 2's (750a359b2b31ac66);
    # tests/core/test_sketch_keys.py ties the key to the sketch output
    assert METHOD.sketch_key(p) == "b89a3cbbb05f7b83"  # version 3 was 893cdfb41e8db387 before normalization 2, 364137fd444acb3a before 3


def test_a_long_text_is_sketched_a_piece_at_a_time_with_the_same_shingles(monkeypatch):
    import numpy as np

    import ndd_desktop.core.methods.hybrid as hy
    from ndd_desktop.core.methods import get_method

    method = get_method("hybrid")
    params = method.params()
    rng = np.random.default_rng(3)
    words = ["the", "council", "recieve", "letterr", "archive", "harbour", "brigde", "wintter", "a", "of"]
    text = " ".join(rng.choice(words, 4000))
    whole = method.sketch_many([text], params)[0]
    monkeypatch.setattr(hy, "_PIECE_CHARS", 500)  # ~60 pieces, shingles across every cut
    got = method.sketch_many(["a short text first", text, "two words"], params)
    assert np.array_equal(got[1], whole)
    assert np.array_equal(got[0], method.sketch_many(["a short text first"], params)[0])
    assert np.array_equal(got[2], method.sketch_many(["two words"], params)[0])  # < w words: one shingle
    assert np.array_equal(method.sketch_many(["x" * 2000], params)[0], method.sketch("x" * 2000, params))


def test_the_memory_of_a_long_text_is_that_of_a_piece():
    import tracemalloc

    from ndd_desktop.core.methods import get_method

    method = get_method("hybrid")
    params = method.params()
    method.sketch_many(["warm the corrector up"], params)
    text = " ".join(f"word{k % 5000}" for k in range(400_000))  # ~3.6 MB, 400,000 words
    tracemalloc.start()
    try:
        method.sketch_many([text], params)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # in one go: ~70 bytes per character (about 250 MB here); a 1 MB piece: a few tens of MB
    assert peak < 120e6, f"{peak / 1e6:.0f} MB"


def test_a_batch_sketches_texts_with_and_without_corrections_as_one_by_one():
    """sketch_many hashes a text none of whose words changes as it is; the sketches equal
    those of the corrected words, text by text, for every kind of text."""
    texts = [
        "the council met on monday and agreed the budget for the harbour",  # nothing to correct
        "the councill met on mondday and agreeed the budjet for the harbour",  # typos
        "Gooood moorning, the council's clerk (aged 42) wrote: «réunion» à 10h!",  # repeats, marks, digits
        "naïve café crème, déjà vu; Straße und Größe",  # non-ASCII words
        "東京 の 会議 council",  # a script written without spaces
        "two words",  # fewer words than a shingle
        "",
        "   ...   ",
    ]
    normalised = [normalize(t) for t in texts]
    batch = METHOD.sketch_many(normalised, PARAMS)
    for text, got in zip(normalised, batch):
        want = hybrid._sketch_of_words(METHOD.corrected_tokens(text, PARAMS), PARAMS.w)
        assert np.array_equal(got, want), text
    assert np.array_equal(batch[1], batch[0])  # the typos corrected: the same shingles


def test_a_correction_of_two_tokens_and_words_learnt_as_kept(monkeypatch):
    """A dictionary word that is two tokens ("new-york") replaces one token by two: the batch
    then sketches that text as sketch() does. A word the corrector keeps as it is joins
    the kept hashes, so the next batch does not look at it again."""
    words = {w: 100.0 - k for k, w in enumerate(
        ["the", "council", "met", "in", "new-york", "on", "monday", "and", "agreed", "budget", "for", "harbour"])}
    corrector = SpellingCorrector(words)
    monkeypatch.setattr(hybrid, "corrector_for", lambda params: corrector)
    texts = ["the council met in newyorkk on monday and agreed the budget",
             "the council met in zzqx on monday"]  # zzqx: no word near it, kept as it is
    batch = METHOD.sketch_many(texts, PARAMS)
    for text, got in zip(texts, batch):
        want = hybrid._sketch_of_words(METHOD.corrected_tokens(text, PARAMS), PARAMS.w)
        assert np.array_equal(got, want), text
    assert np.array_equal(batch[0], hybrid._sketch_of_words(
        ["the", "council", "met", "in", "new", "york", "on", "monday", "and", "agreed", "the", "budget"], PARAMS.w))
    kept = hybrid._kept_hashes(corrector)
    assert kept.holds(word_spans(["zzqx newyorkk council"]).keys()).tolist() == [True, False, True]


def test_texts_to_verify_read_as_the_corrected_words():
    """A text with no word to correct is handed on as it is, the others with their words
    corrected; either way the verification reads the corrected words."""
    from ndd_desktop.core.spelling import collapse_repeats
    from ndd_desktop.core.text_share import runs_many
    from ndd_desktop.core.utf8_words import word_tokens

    texts = [normalize(t) for t in (
        "the council met on monday and agreed the budget for the harbour",
        "the councill met on mondday and agreeed the budjet for the harbour",
        "Gooood moorning, the council's clerk (aged 42) wrote: «réunion» à 10h!",
        "東京 の 会議 council", "two words", "")]
    got = METHOD.texts_to_verify(texts, PARAMS)
    corrector = hybrid.corrector_for(PARAMS)
    want = [" ".join(corrector.correct_tokens(word_tokens(collapse_repeats(t)))) for t in texts]
    assert [r.tokens.tolist() for r in runs_many(got)] == [r.tokens.tolist() for r in runs_many(want)]
    assert got[0] == texts[0]  # nothing to correct: the text itself
    assert [r.tokens.tolist() for r in runs_many(got[1:2])] == [r.tokens.tolist() for r in runs_many(got[:1])]
