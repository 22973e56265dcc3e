"""Normalisation, the q-gram paper's Tw, and tokens with the no-space fallback."""

import pytest

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


# Combining marks (Unicode M*): Devanagari vowel signs (ि ी ु ा), virama (्), nukta (़, which
# NFKC splits off ढ़); Thai vowel and tone marks (ิ ั ้). Python's \\w does not match them.
HINDI = "हिन्दी भाषा का परीक्षण"  # "Hindi language test": four words


def test_combining_marks_stay_in_their_words():
    # Hindi separates words by spaces: a word with marks is one token.
    assert tokens(normalize(HINDI)) == HINDI.split(" ")
    read = normalize("पढ़ी")
    assert len(read) == 4 and tokens(read) == [read]  # प ढ ़ ी after NFKC: still one word
    # Tw keeps the marks: different words stay different ("book" and "qutub" were both कतब).
    assert strip_to_letters(normalize("किताब, कुतुब!")) == "किताबकुतुब"
    assert strip_to_letters("किताब") != strip_to_letters("कुतुब")
    assert tokens("किताब") != tokens("कुतुब")
    assert tokens("cafe\u0301 x") == ["cafe\u0301", "x"]  # a decomposed accent, not composed here


def test_thai_marks_stay_with_their_letter():
    # Thai is split into characters; a mark belongs to the character before it.
    assert tokens("กิน") == ["กิ", "น"]  # ก + SARA I, น
    assert tokens("กินข้าว") == ["กิ", "น", "ข้", "า", "ว"]  # ข + MAI THO; SARA AA is a letter
    assert tokens("กิน") != tokens("กัน")  # "eat" and "together"
    assert tokens("xกิy") == ["x", "กิ", "y"]


def test_token_hashes_agree_with_tokens_on_marks():
    for text in (normalize(HINDI), "กินข้าว", "ab\u0301c กิ", "\u0301 a"):
        toks = tokens(text)
        h = token_hashes(text)
        assert len(h) == len(toks)
        for a in range(len(toks)):
            for b in range(len(toks)):
                assert (h[a] == h[b]) == (toks[a] == toks[b])


@pytest.mark.parametrize("text", ["snake_case and CamelCase, 42!", "__init__ ... a-b_c", "", "   ", "x_1 y__2"])
def test_ascii_fast_paths_agree_with_the_mark_aware_patterns(text):
    from ndd_desktop.core.normalize import _patterns

    word, non_word = _patterns()
    assert strip_to_letters(text) == non_word.sub("", text.replace("_", " "))
    assert tokens(text) == word.findall(text)


def test_strip_to_letters_of_every_latin1_character():
    # the byte table of the fast path keeps exactly letters and digits (no "_", no space)
    from ndd_desktop.core.normalize import strip_to_letters

    kept = strip_to_letters("".join(chr(c) for c in range(256)))
    assert kept == "".join(chr(c) for c in range(256) if chr(c).isalnum())
    assert strip_to_letters("a_b c-d\u00a0e") == "abcde"
    assert strip_to_letters("नमस्ते, world_") == "नमस्तेworld"  # marks stay (the other path)


def test_ascii_white_space_is_collapsed_as_str_split_does():
    import random

    # every ASCII white space character (with \x1c-\x1f, which str.split counts and
    # bytes.split does not), runs of them, at either end, and none at all
    rng = random.Random(5)
    alphabet = "ab Z.\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        assert normalize(text) == " ".join(text.casefold().split()), repr(text)
    assert normalize("a\x1cb \x1f c\t\n") == "a b c"
    assert normalize("\x1e") == ""


def _defined(text: str, ignore: str = "") -> str:
    """normalize written out with str methods and decompositions: NFKC, casefold, soft
    hyphens out, the folded marks out of the canonical decomposition, composed again, the
    ignored items replaced, white space collapsed."""
    import unicodedata

    import re

    from ndd_desktop.core.normalize import FOLDED_MARKS, LETTER_FOLDS, remove_ignored

    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?<=\w)[-\u2010]\r?\n[ \t]*(?=(\w))", lambda m: "" if m[1].islower() else m[0], text)
    text = text.casefold().replace("\u00ad", "")
    for letter, folded in LETTER_FOLDS.items():
        text = text.replace(letter, folded)
    text = unicodedata.normalize("NFC", FOLDED_MARKS.sub("", unicodedata.normalize("NFD", text)))
    return " ".join(remove_ignored(text, ignore).split())


def test_ascii_path_equals_the_definition_on_random_text():
    import random

    # NFKC, casefold, the ignored items replaced, white space collapsed: written out here
    # with str methods only, against the byte path every ASCII text takes
    rng = random.Random(11)
    pieces = ["Word", "UPPER", "x", "42", "3.14", "http://Example.ORG/A?b=1", "a@B.com", "www.x.io",
              " ", "  ", "\t", "\n\n", "\x1c", " " * 37, ".", "_", "é", "-\n", "-\r\n  ", "-"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        for ignore in ("", "urls,emails,numbers", "numbers"):
            assert normalize(text, ignore) == _defined(text, ignore), (text, ignore)
    assert normalize(" " * 1000 + "A" + " " * 513 + "b" + "\t" * 9) == "a b"


def test_non_ascii_path_equals_the_definition_with_every_white_space_character():
    import random
    import sys
    import unicodedata

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    assert len(spaces) >= 25 and "\u2028" in spaces and "\u3000" in spaces
    rng = random.Random(12)
    pieces = spaces + ["Ä", "ß", "ﬁ", "Ｆ", "İ", "日本", "é", "A", "word", "  ", "\u00ad", "ά", "ё", "ַ", "ِ",
                       "क", "ि", "\u0301", "ǖ", "ۂ", "ı", "Ø", "Æ",
                       "\u06cc", "\u0640", "\u200b", "\ufeff", "-\n", "\u2010\r\n ", "-", "b", "1",
                       "\U0001F602", "°", "ΣΑΣ", "ς", "Ǆ", "\udcff"]
    for _ in range(3000):
        text = "é" + "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 10)))
        assert normalize(text) == _defined(text), repr(text)
    assert normalize("\udcff") == "\udcff"  # a lone surrogate (a mis-decoded byte) passes through
    # the byte path's table may lower ASCII capitals: case folding leaves none behind
    folded = "".join(unicodedata.normalize("NFKC", chr(c)).casefold() for c in range(128, 0x30000)
                     if not 0xD800 <= c < 0xE000)
    assert not any("A" <= ch <= "Z" for ch in folded)


def test_accents_and_vowel_points_are_not_part_of_the_text_but_indic_vowel_signs_are():
    # copies typed without accents, vocalised and plain editions: they shared nothing
    assert normalize("Ελληνικά κείμενα") == normalize("Ελληνικα κειμενα") == "ελληνικα κειμενα"
    assert normalize("Le café de la Gare à Genève") == "le cafe de la gare a geneve"
    assert normalize("שָׁלוֹם") == normalize("שלום")
    assert normalize("بِسْمِ") == normalize("بسم")
    # Devanagari's vowel signs make the words: "किताब" (book) and "कुतुब" stay apart
    assert normalize("की किताब") == "की किताब" and normalize("का कुतुब") == "का कुतुब"


def test_soft_hyphens_are_not_part_of_the_text():
    # a web page's &shy; (U+00AD) split "Rathaus" into two words: its copy without them shared a tenth
    assert normalize("Das Rat\u00adhaus am Markt\u00adplatz") == normalize("Das Rathaus am Marktplatz")
    assert normalize("Das Rat\u00adhaus") == "das rathaus"


def test_letters_copies_write_in_two_ways_are_one():
    # a Turkish text in capitals or typed without its letters shared a fifth of its words
    assert normalize("YILLIK RAPOR") == normalize("yıllık rapor") == normalize("yillik rapor") == "yillik rapor"
    assert normalize("Łódź, Øresund, Đurđevac, Ħamrun") == "lodz, oresund, durdevac, hamrun"
    assert normalize("Encyclopædia, cœur") == "encyclopaedia, coeur"
    # Persian with the Arabic yeh and kaf (Arabic keyboards, older systems): one text
    assert normalize("\u06a9\u062a\u0627\u0628 \u06cc\u06a9") == normalize("\u0643\u062a\u0627\u0628 \u064a\u0643")
    assert normalize("\u0645\u062f\u0631\u0633\u0629") == normalize("\u0645\u062f\u0631\u0633\u0647")  # teh marbuta
    assert normalize("\u0639\u0640\u0640\u0631\u0628\u064a") == normalize("\u0639\u0631\u0628\u064a")  # tatweel
    # invisible characters inside words (a zero-width "watermark", a text pasted from a page)
    assert normalize("water\u200bmark, wo\u2060rd\ufeff, zw\u200dj") == "watermark, word, zwj"


def test_a_word_broken_at_the_end_of_a_line_is_one_word():
    # typeset and PDF text: "docu-\nment"; a capital or a digit after the break stays apart
    assert normalize("the docu-\nment was re-\r\n   vised") == "the document was revised"
    assert normalize("Die Über-\nsetzung") == "die ubersetzung"
    assert normalize("Anglo-\nSaxon, 1990-\n1995") == "anglo- saxon, 1990- 1995"
    assert normalize("a hyphen - \nalone, and a dash at the end-\n") == "a hyphen - alone, and a dash at the end-"


def test_the_sketch_keys_name_the_normalization():
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.core.normalize import NORMALIZATION
    from ndd_desktop.core.params import params_hash

    assert NORMALIZATION == 3
    for name in ("exact", "bottomk", "fingerprint", "qgram", "minhash", "hybrid"):
        m = get_method(name)
        params = m.params({})
        # the keys of the first normalization (a version-1 method's was the parameters' hash)
        assert m.sketch_key(params) != params_hash(params, sketch_only=True)
