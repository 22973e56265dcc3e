"""Words and letters found in UTF-8 bytes are those of core.normalize (the reference)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core import utf8_words
from ndd_desktop.core.normalize import strip_to_letters, tokens


@pytest.mark.parametrize("text", [
    "café ünïcode ’quoted’ – dash", "e\u0301 and a\u0308 combining marks", "emoji \U0001F600here",
    "lone \ud800 surrogate", "жж пп_1 ॐ हि", "ﬁ ǅ ² ½", "",
])
def test_utf8_word_spans_are_the_tokens(text):
    raw = text.encode("utf-8", "surrogatepass")
    starts, lengths = utf8_words.utf8_word_spans(raw)
    got = [raw[s : s + n].decode("utf-8", "surrogatepass") for s, n in zip(starts.tolist(), lengths.tolist())]
    assert got == tokens(text)


def _spans(text: str) -> list[str]:
    raw = text.encode("utf-8", "surrogatepass")
    starts, lengths = utf8_words.utf8_word_spans(raw)
    return [raw[s : s + n].decode("utf-8", "surrogatepass") for s, n in zip(starts.tolist(), lengths.tolist())]


def test_scripts_without_spaces_are_cut_into_characters_in_the_bytes():
    # each character of such a script is a token; a combining mark stays with its letter
    assert _spans("漢字 text") == ["漢", "字", "text"]
    assert _spans("abc漢字def") == ["abc", "漢", "字", "def"]
    assert _spans("ภาษาไทย") == ["ภ", "า", "ษ", "า", "ไ", "ท", "ย"]
    assert _spans("กิ่ง") == ["กิ่", "ง"]  # Thai vowel and tone marks stay with their consonant
    # the character after a mark is judged by the mark, as core.normalize.tokens does
    assert _spans("日\u0301x") == ["日\u0301x"]
    assert _spans("日.本 語") == ["日", "本", "語"]


# letters, digits, punctuation, space, accents, marks (some of them in scripts without
# spaces), scripts without spaces, a letter outside the BMP, a lone surrogate
_ALPHABET = st.sampled_from(list("ab _.1éß日本のไทยक\u0301\u0e34\u0e48\u093f\u20dd𝔘\ud800"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_utf8_word_spans_are_the_tokens_of_any_mix(text):
    assert _spans(text) == tokens(text)


@pytest.mark.parametrize("text", [
    "café ünïcode ’quoted’ – dash_x", "e\u0301 and a\u0308 marks", "漢字 ภาษาไทย mixed", "lone \ud800 surrogate",
    "emoji \U0001F600 ﬁ ² ½", "plain ascii, with_under-scores!", "",
])
def test_letters_only_is_strip_to_letters(text):
    assert utf8_words.letters_only(text) == strip_to_letters(text)


@pytest.mark.parametrize("text", ["café ’x’ e\u0301 ﬁ ²", "漢字 and ภาษา", "plain words_here 42", "", "  ", "\ud800a b"])
def test_word_tokens_are_the_tokens(text):
    assert utf8_words.word_tokens(text) == tokens(text)
