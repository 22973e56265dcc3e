"""Words and letters found in UTF-8 bytes are those of core.normalize (the reference)."""

from __future__ import annotations

import pytest

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


def test_utf8_word_spans_leave_scripts_without_spaces_to_the_code_point_path():
    assert utf8_words.utf8_word_spans("漢字 text".encode()) is None
    assert utf8_words.utf8_word_spans("ภาษาไทย".encode()) is None


@pytest.mark.parametrize("text", [
    "café ünïcode ’quoted’ – dash_x", "e\u0301 and a\u0308 marks", "漢字 ภาษาไทย mixed", "lone \ud800 surrogate",
    "emoji \U0001F600 ﬁ ² ½", "plain ascii, with_under-scores!", "",
])
def test_letters_only_is_strip_to_letters(text):
    assert utf8_words.letters_only(text) == strip_to_letters(text)


@pytest.mark.parametrize("text", ["café ’x’ e\u0301 ﬁ ²", "漢字 and ภาษา", "plain words_here 42", "", "  ", "\ud800a b"])
def test_word_tokens_are_the_tokens(text):
    assert utf8_words.word_tokens(text) == tokens(text)
