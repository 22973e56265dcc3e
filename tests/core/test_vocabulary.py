"""Tests of core.vocabulary: wordfreq's words as the corrector's dictionary, kept in the
cache folder between runs."""

from __future__ import annotations

import numpy as np
import pytest

from ndd_desktop.core import disk_cache, vocabulary
from ndd_desktop.core.spelling import SpellingCorrector
from ndd_desktop.core.vocabulary import (
    Vocabulary,
    wordfreq_dictionary,
    wordfreq_vocabulary,
)


def test_wordfreq_dictionary():
    d = wordfreq_dictionary("en", 50000)
    assert "civil" in d and "the" in d
    assert "don" in d  # from "don't", split as core.normalize splits text
    assert all(" " not in w for w in d)
    assert d["the"] > d["civil"]
    with pytest.raises(ValueError, match="language"):
        wordfreq_dictionary("xx", 1000)


def test_wordfreq_dictionary_keeps_words_with_combining_marks():
    # Hindi words carry vowel signs and viramas (combining marks). The most frequent words
    # of wordfreq's own list are whole dictionary entries, not fragments split at the marks
    # ("में" was "म", "नहीं" was "नह").
    import wordfreq

    d = wordfreq_dictionary("hi", 50000)
    top = [w for w in wordfreq.top_n_list("hi", 100) if w.isalnum() or "\u0900" <= w[0] <= "\u097f"]
    assert len(top) >= 80
    assert all(w in d for w in top), [w for w in top if w not in d]
    assert "में" in d and "नहीं" in d and "किताब" in d and "हिन्दी" in d
    assert sum(len(w) == 1 for w in d) < 0.01 * len(d)  # wordfreq's own 1-character entries


def test_the_vocabulary_is_kept_in_the_cache_folder_and_read_back_the_same(tmp_path, monkeypatch):
    """The first corrector of a language builds its vocabulary from wordfreq and saves it;
    the next one reads it back: the same words, frequencies and letter profiles, so the
    same corrections (source 003's example among them)."""
    monkeypatch.setenv(disk_cache.ENV_VAR, str(tmp_path))
    built = Vocabulary.build(wordfreq_dictionary("en", 50000))
    first = wordfreq_vocabulary("en", 50000)
    assert list(tmp_path.glob("vocabulary-en-50000.npz"))
    again = wordfreq_vocabulary("en", 50000)
    for v in (first, again):
        assert v.words == built.words
        for name in ("freqs", "once", "twice", "excess"):
            assert np.array_equal(getattr(v, name), getattr(built, name)), name
    words = ["civl", "hosue", "recieve", "zzqxv", "teh"]
    assert SpellingCorrector(again).correct_words(words) == SpellingCorrector(wordfreq_dictionary("en", 50000)).correct_words(words)
    assert SpellingCorrector(again).correct_word("civl") == "civil"


def test_a_damaged_or_foreign_cache_file_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv(disk_cache.ENV_VAR, str(tmp_path))
    path = tmp_path / "vocabulary-en-2000.npz"
    path.write_bytes(b"PK\x03\x04 not a zip file at all")
    v = wordfreq_vocabulary("en", 2000)
    assert len(v.words) > 1500 and "civil" in v.words
    assert disk_cache.load("vocabulary-en-2000", vocabulary._vocabulary_stamp("en", 2000)) is not None  # replaced
    # a file saved from another wordfreq list or another version of the code is not used
    disk_cache.save("vocabulary-en-2000", "another stamp", {"words": np.frombuffer(b"a\nb", np.uint8)})
    assert wordfreq_vocabulary("en", 2000).words == v.words
    # arrays that do not fit together are refused
    assert Vocabulary.from_arrays({"words": np.frombuffer(b"a\nb", np.uint8), "freqs": np.ones(3),
                                   "once": np.ones(2, np.uint32), "twice": np.ones(2, np.uint32),
                                   "excess": np.ones(2, np.uint8)}) is None


def test_a_cache_folder_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv(disk_cache.ENV_VAR, str(blocked / "cache"))
    assert disk_cache.save("x", "stamp", {"a": np.arange(3)}) is False
    assert disk_cache.load("x", "stamp") is None
    assert wordfreq_vocabulary("en", 2000).words == Vocabulary.build(wordfreq_dictionary("en", 2000)).words
    assert not list(tmp_path.glob("**/*.npz")) and not list(tmp_path.glob("**/.x.*"))
