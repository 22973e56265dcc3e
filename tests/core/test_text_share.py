"""core.text_share: the share of each text found in the other in runs of five words.

Every expected value here is counted by hand from the definition: a word is shared when it
lies inside a run of five consecutive words that also occurs in the other text.
"""

import numpy as np
import pytest

from ndd_desktop.core.normalize import normalize
from ndd_desktop.core.text_share import RUN, pair_score, runs_of, share_in, shares

WORDS = [f"w{k:02d}x" for k in range(40)]


def runs(words):
    return runs_of(normalize(" ".join(words)))


def test_the_run_is_five_words():
    assert RUN == 5


def test_identical_texts_share_everything():
    a = runs(WORDS[:20])
    assert share_in(a, runs(WORDS[:20])) == 1.0


def test_one_changed_word_costs_that_word_only():
    # 20 words, word 10 replaced: runs starting at 6..10 break; runs 0..5 cover words 0-9,
    # runs 11..15 cover words 11-19: 19 of 20 words are shared
    edited = WORDS[:20].copy()
    edited[10] = "changed"
    a, b = runs(WORDS[:20]), runs(edited)
    assert share_in(a, b) == pytest.approx(19 / 20)
    assert share_in(b, a) == pytest.approx(19 / 20)


def test_a_change_every_fifth_word_leaves_no_run():
    # words 4, 9, 14, 19 changed: no five consecutive words survive
    edited = [w if k % 5 != 4 else f"other{k}" for k, w in enumerate(WORDS[:20])]
    assert share_in(runs(WORDS[:20]), runs(edited)) == 0.0


def test_the_same_words_in_another_order_share_nothing():
    assert share_in(runs(WORDS[:20]), runs(WORDS[:20][::-1])) == 0.0


def test_a_short_text_inside_a_long_one_is_contained_but_not_the_same():
    short, long_ = runs(WORDS[10:20]), runs(WORDS[:40])
    assert share_in(short, long_) == 1.0
    assert share_in(long_, short) == pytest.approx(10 / 40)
    s_ij = np.array([1.0])
    s_ji = np.array([0.25])
    assert pair_score(s_ij, s_ji)[0] == 0.25  # resemblance: the smaller share
    assert pair_score(s_ij, s_ji, containment=True)[0] == 1.0


def test_texts_shorter_than_a_run_are_compared_as_runs_of_their_length():
    assert share_in(runs(["one", "two", "three"]), runs(["one", "two", "three"])) == 1.0
    assert share_in(runs(["one", "two", "three"]), runs(["one", "two", "four"])) == 0.0
    # ... and among short texts only: three words in a row inside a text that holds a
    # whole run are no evidence of copying
    assert share_in(runs(["w05x", "w06x", "w07x"]), runs(WORDS[:20])) == 0.0
    assert share_in(runs(["w05x", "w06x", "w07x"]), runs(WORDS[5:9])) == 1.0


def test_a_note_is_not_found_in_every_letter_that_holds_its_words():
    # with measure=containment, "Approved." was wholly found in every letter holding the
    # word, and tied unrelated letters into one group
    note = runs(["approved"])
    letter = runs([*WORDS[:30], "approved", *WORDS[30:60]])
    assert share_in(note, letter) == 0.0
    assert share_in(letter, note) == 0.0
    s_ij = np.array([share_in(note, letter)])
    s_ji = np.array([share_in(letter, note)])
    assert pair_score(s_ij, s_ji, containment=True)[0] == 0.0
    # four words are still short of a run, five are one: found
    assert share_in(runs(WORDS[30:34]), letter) == 0.0
    assert share_in(runs(WORDS[30:35]), runs(WORDS[:40])) == 1.0


def test_a_note_is_not_found_in_a_shorter_one():
    # "Not approved" and "Approved" scored 0.5 (its last word found), duplicates at the default
    approved, not_approved = runs(["approved"]), runs(["not", "approved"])
    assert share_in(approved, not_approved) == 1.0
    assert share_in(not_approved, approved) == 0.0
    assert pair_score(np.array([1.0]), np.array([0.0]))[0] == 0.0
    # a three-word note in a four-word one: found as its three words in a row, not the other way
    three, four = runs(["payment", "received", "today"]), runs(["payment", "received", "today", "thanks"])
    assert (share_in(three, four), share_in(four, three)) == (1.0, 0.0)


def test_an_empty_text_shares_nothing():
    assert share_in(runs([]), runs(WORDS[:10])) == 0.0
    assert share_in(runs(WORDS[:10]), runs([])) == 0.0


def test_shares_of_many_pairs_at_once():
    docs = [runs(WORDS[:20]), runs(WORDS[10:20]), runs(WORDS[20:40]), runs(["w12x", "w13x"]), runs([])]
    s_ij, s_ji = shares(np.array([0, 0, 1, 3, 4]), np.array([1, 2, 2, 0, 0]), docs)
    # the two-word text lies in the 20-word one, but two words are no evidence there
    assert s_ij.tolist() == [pytest.approx(10 / 20), 0.0, 0.0, 0.0, 0.0]
    # the 20-word text is not found in the two-word one: its runs are five words long
    assert s_ji.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_the_batch_agrees_with_one_pair_at_a_time():
    import random

    rng = random.Random(3)
    vocab = WORDS[:12]  # a small vocabulary: many chance runs, repeats, partial overlaps
    texts = [[rng.choice(vocab) for _ in range(rng.randint(0, 60))] for _ in range(30)]
    docs = [runs(t) for t in texts]
    i, j = np.triu_indices(len(docs), 1)
    s_ij, s_ji = shares(i, j, docs, compiled=True)
    for k in range(len(i)):
        assert s_ij[k] == pytest.approx(share_in(docs[i[k]], docs[j[k]]))
        assert s_ji[k] == pytest.approx(share_in(docs[j[k]], docs[i[k]]))


def test_the_compiled_runs_are_those_of_runs_at_sorted():
    """share_kernel.sorted_runs hashes a batch's runs as Runs.at does, sorted per document,
    with each run's position."""
    import random

    from ndd_desktop.core.share_kernel import sorted_runs

    rng = random.Random(5)
    # short documents are sorted by insertion, longer ones by radix first (share_kernel._SMALL);
    # nine words make many equal runs
    sizes = (0, 3, 5, 6, 40, 17, 51, 52, 300, 2000)
    docs = [runs([rng.choice(WORDS[:9]) for _ in range(n)]) for n in sizes]
    docs.append(runs([rng.choice(WORDS) for _ in range(3000)]))
    words = np.array([d.words for d in docs], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(words)[:-1]))
    srt, pos, off = sorted_runs(np.concatenate([d.tokens for d in docs]), starts, words, 5)
    assert off.tolist() == np.concatenate(([0], np.cumsum(np.maximum(words - 4, 0)))).tolist()
    for k, d in enumerate(docs):
        at = d.at(5)
        mine, where = srt[off[k] : off[k + 1]], pos[off[k] : off[k + 1]]
        assert np.array_equal(mine, np.sort(at))
        assert np.array_equal(at[where], mine)


@pytest.mark.parametrize("c_loops", ["0", "1"])
def test_a_small_batch_is_verified_without_loading_the_compiled_kernel(c_loops):
    """Without the C loops, a process that has not loaded numba verifies a few pairs with
    numpy (loading the kernel costs most of a second, more than the pairs); a batch of more
    words than UNCOMPILED_WORDS, or one asked to, loads it. With them, numba is never
    loaded. Run in a fresh process: this one may have loaded the kernel already."""
    from fresh_python import fresh_python

    script = (
        "import os, sys\n"
        f"os.environ['NDD_NATIVE_KERNELS'] = {c_loops!r}\n"
        "import numpy as np\n"
        "from ndd_desktop.core import text_share as ts\n"
        "docs = ts.runs_many(['a b c d e f g h', 'a b c d e f x y', 'p q r s t u'])\n"
        "i, j = np.array([0, 0]), np.array([1, 2])\n"
        "small = ts.shares(i, j, docs)\n"
        "print('numba' in sys.modules, small[0].tolist(), small[1].tolist())\n"
        "ts.UNCOMPILED_WORDS = 10\n"
        "big = ts.shares(i, j, docs)\n"
        "print('numba' in sys.modules, big[0].tolist() == small[0].tolist(), big[1].tolist() == small[1].tolist())\n"
    )
    first, second = fresh_python(script).splitlines()
    # 'a b c d e f' is one text's first six words and the other's: runs of five words
    # 'a b c d e' and 'b c d e f' cover six of the eight words of each
    assert first == "False [0.75, 0.0] [0.75, 0.0]"
    assert second == ("True True True" if c_loops == "0" else "False True True")
