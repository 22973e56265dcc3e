"""Normalisation, the q-gram paper's Tw, and tokens with the no-space fallback."""

from ndd_desktop.core.hashing import token_hashes
from ndd_desktop.core.normalize import normalize, strip_to_letters, tokens


def test_normalize_folds_case_width_and_space():
    assert normalize("  The\tQuick\n\nBROWN  fox ") == "the quick brown fox"
    assert normalize("ﬁne Ｆｕｌｌ") == "fine full"  # NFKC: ligature and full-width letters
    assert normalize("Straße") == "strasse"  # case folding, not lower()


def test_strip_to_letters_is_the_papers_tw():
    assert strip_to_letters("A rose is a flower") == "Aroseisaflower"
    assert strip_to_letters("e-mail: a_b, 2024!") == "emailab2024"
    assert strip_to_letters("   ...   ") == ""


def test_tokens_split_on_non_word_characters():
    assert tokens("hello, world! it's 2024") == ["hello", "world", "it", "s", "2024"]


def test_cjk_and_thai_fall_back_to_characters():
    assert tokens("東京都に住む") == ["東", "京", "都", "に", "住", "む"]
    assert tokens("abc漢字def") == ["abc", "漢", "字", "def"]
    assert tokens("ภาษาไทย") == list("ภาษาไทย")
    assert tokens("한국어 text") == ["한", "국", "어", "text"]


def test_token_hashes_agree_with_tokens():
    for text in ("hello, world", "東京都に住む abc", "a b a", ""):
        assert len(token_hashes(text)) == len(tokens(text))
    h = token_hashes("a b a")
    assert h[0] == h[2] and h[0] != h[1]
