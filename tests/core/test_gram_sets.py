"""qgram's sketches of a batch (core.gram_sets) against the definition, text by text:
char_gram_values of strip_to_letters(text), sorted, without repeats."""

import numpy as np
import pytest

from ndd_desktop.core.batch_hashing import char_gram_values
from ndd_desktop.core.gram_sets import qgram_sets
from ndd_desktop.core.normalize import strip_to_letters


def reference(text: str, q: int) -> np.ndarray:
    values, starts, counts = char_gram_values([strip_to_letters(text)], q)
    return np.unique(values[starts[0] : starts[0] + counts[0]])


def random_texts(seed: int, count: int, alphabet: str) -> list[str]:
    rng = np.random.default_rng(seed)
    chars = np.array(list(alphabet))
    return ["".join(rng.choice(chars, int(rng.integers(0, 60)))) for _ in range(count)]


LATIN = "abcdefghij  ,.;-_'0123456789éÉßÿ\u00a0\t\n"
WIDE = LATIN + "αβγ\u2019\u201cщ中\u0301"  # Greek, curly quotes, Cyrillic, CJK, a combining accent
# beyond Latin-1 but dropped by strip_to_letters: curly quotes, dashes, a bullet, an emoji,
# a braille blank, a square, a zero-width joiner (the Latin-1 path takes these texts)
DROPPED = LATIN + "\u2019\u201c\u2013\u2014\u2022\U0001F602\u2800\u25a0\u200d"


@pytest.mark.parametrize("q", [2, 3, 4, 5, 8, 9])
@pytest.mark.parametrize("alphabet", [LATIN, WIDE, DROPPED, DROPPED + "\u0301ω"])
def test_each_text_as_the_definition_says(q, alphabet):
    texts = random_texts(q, 300, alphabet) + ["", "a", "ab", "abc", "a b c", ". , ;", "ÿÿÿÿÿÿ", "é", "abcdefgh" * 40]
    sets = qgram_sets(texts, q)
    assert len(sets) == len(texts)
    for k, text in enumerate(texts):
        assert sets[k].dtype == np.uint32 and np.array_equal(sets[k], reference(text, q)), (k, text)


def test_a_text_shorter_than_q_has_one_value_of_the_whole_text():
    one = qgram_sets(["ab", "a-b", "ba", "abcd"], 4)
    assert [v.shape[0] for v in one] == [1, 1, 1, 1]
    assert one[0][0] == one[1][0] != one[2][0]  # punctuation is dropped before the grams
    assert one[0][0] != one[3][0]


def test_empty_batch_and_texts_without_letters():
    assert qgram_sets([], 4) == []
    assert [s.shape[0] for s in qgram_sets(["", " ,. ", "\u2019", "\u2019\u00e9"], 4)] == [0, 0, 0, 1]
