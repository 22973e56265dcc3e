"""A method whose own search covers only part of the range is completed by the word search
(pipeline.completion): pairs sharing half their text are stored whatever the method and
the collection's size."""

from __future__ import annotations

import os
import random

import numpy as np

import pytest

from ndd_desktop.pipeline import completion
from ndd_desktop.store import Store

from pipehelp import pairs_by_path, scan


def stored_pairs(store: Store, method: str) -> dict[tuple[str, str], float]:
    """The stored pairs by the file names of their documents."""
    return {(os.path.basename(a), os.path.basename(b)): s for a, b, s in pairs_by_path(store, method)}


def _words(rng: random.Random, n: int) -> list[str]:
    # tokens of random letters: unrelated texts share no run of words and few 4-grams
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(n)]


@pytest.fixture
def halves(tmp_path):
    """20 unrelated texts and 8 pairs that each kept half of a text and rewrote the rest:
    a = C[:100] + X + C[100:], b = Y + C with C 200 words and X, Y 160 words each, so
    each shares 200 of its 360 words (0.556) in runs, and a third of its 4-grams."""
    rng = random.Random(11)
    root = tmp_path / "docs"
    root.mkdir()
    for k in range(20):
        (root / f"other{k:02d}.txt").write_text(" ".join(_words(rng, 300)), encoding="utf-8")
    planted = []
    for k in range(8):
        c, x, y = _words(rng, 200), _words(rng, 160), _words(rng, 160)
        (root / f"a{k}.txt").write_text(" ".join(c[:100] + x + c[100:]), encoding="utf-8")
        (root / f"b{k}.txt").write_text(" ".join(y + c), encoding="utf-8")
        planted.append((f"a{k}.txt", f"b{k}.txt"))
    return root, planted


def test_the_word_search_is_complete_from_where_its_features_find_a_passage_pair():
    # Broder's features at the floor 0.3 for 128 minima are 64 bands of 2 (core.lsh); a pair
    # sharing a share s of its words in long passages has 3-shingle resemblance s / (2 - s)
    def found(s: float) -> float:
        j = s / (2 - s)
        return 1 - (1 - j * j) ** 64

    expected = next(s / 100 for s in range(30, 101) if found(s / 100) >= 0.995)
    assert expected == 0.44
    assert completion.complete_from(0.3) == expected


@pytest.mark.parametrize("method", ["qgram", "bottomk"])
def test_a_large_collection_keeps_the_pairs_that_share_half_their_text(tmp_path, halves, banded_search, method):
    root, planted = halves
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root], method)
        stored = stored_pairs(store, method)
        pset = store.pairs.sets()[0]
    for a, b in planted:
        assert stored[(a, b)] == pytest.approx(200 / 360, abs=0.01)
    assert len(stored) == len(planted)  # and nothing else: the other texts share no run
    assert pset.complete_from == 0.44  # on the scale of the scores, not the bands' own


def test_fingerprint_finds_more_than_near_identical_texts(tmp_path, halves):
    root, planted = halves
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root], "fingerprint")
        stored = set(stored_pairs(store, "fingerprint"))
        assert store.pairs.sets()[0].complete_from == 0.44
    assert stored == set(planted)


def test_hybrid_bands_for_the_floor_and_needs_no_word_search(tmp_path, halves, banded_search):
    root, planted = halves
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root], "hybrid")
        assert store.pairs.sets()[0].complete_from is None
        assert set(stored_pairs(store, "hybrid")) == set(planted)


def test_a_small_collection_is_joined_exactly_and_needs_no_word_search(tmp_path, halves):
    root, planted = halves
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root], "qgram")  # exact join: every pair above the floor on its own
        assert store.pairs.sets()[0].complete_from is None
        assert set(stored_pairs(store, "qgram")) == set(planted)


def test_the_first_scan_takes_the_word_sketches_its_workers_made_and_a_full_rescan_makes_them_from_the_texts(
        tmp_path, halves, banded_search, monkeypatch):
    root, planted = halves
    made = []  # word sketches made from stored texts, by number of documents
    real = completion.sketches_from_store

    def counting(texts_of, ids, ignore="", check=None):
        made.append(len(ids))
        return real(texts_of, ids, ignore, check)

    monkeypatch.setattr(completion, "sketches_from_store", counting)
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root], "qgram")  # the extraction made them beside the q-gram sets
        assert made == [] and set(stored_pairs(store, "qgram")) == set(planted)
        (root / "late.txt").write_text("a late document with words of its own " * 20, encoding="utf-8")
        scan(store, [root], "qgram")  # one new document: the others' are kept (changed_pairs)
        assert made == [] and set(stored_pairs(store, "qgram")) == set(planted)
        for k in range(5):  # more than a tenth of the documents: a full search
            path = root / f"other{k:02d}.txt"
            path.write_text(path.read_text(encoding="utf-8") + " more", encoding="utf-8")
        scan(store, [root], "qgram")  # the others' come from their texts
        assert made == [32] and set(stored_pairs(store, "qgram")) == set(planted)


def test_the_word_search_keeps_candidates_whose_resemblance_a_floor_pair_could_have():
    # a pair sharing 0.3 of its words in passages: resemblance 0.3 / 1.7 = 0.1765; of its 128
    # minima, the number equal is binomial (128, 0.1765): P(at most 6) = 1.1e-5, under the
    # screen's 3.2e-5, P(at most 7) = 4.2e-5 over it: seven equal minima pass, six do not
    assert completion.screen(0.3) == 7 / 128
    # at 0.25 (resemblance 0.1429): P(at most 4) = 2.7e-5, P(at most 5) = 1.2e-4
    assert completion.screen(0.25) == 5 / 128
    # at 0.2 (resemblance 0.1111): P(at most 1) = 4.8e-6, P(at most 2) = 4.1e-5: two pass.
    # (The normal approximation used before gave 0 here: one equal minimum of 128 passed,
    # and chance candidates by the million with it.)
    assert completion.screen(0.2) == 2 / 128


def test_the_screen_keeps_the_same_candidates_a_slice_at_a_time(monkeypatch):
    # rows of 8 minima and a distinct count: doc 1 equals doc 0, doc 2 shares 4 of 8
    # minima with it, doc 3 none, doc 4 equals doc 0 but has no shingle
    base = np.arange(1, 9, dtype=np.uint32)
    words = np.array([[*base, 50], [*base, 50], [*base[:4], 91, 92, 93, 94, 40], [81, 82, 83, 84, 85, 86, 87, 88, 30],
                      [*base, 0]], dtype=np.uint32)
    pairs = np.array([[0, 1], [0, 2], [0, 3], [1, 3], [2, 3], [0, 4], [1, 2]], dtype=np.int64)
    monkeypatch.setattr(completion, "SCREEN_ROWS", 2)  # four slices, the last one short
    kept = completion._screened(words, pairs, 0.5)
    assert kept.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert completion._screened(words, pairs, 0.51).tolist() == [[0, 1]]
