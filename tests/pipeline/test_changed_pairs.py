"""A rescan of a large collection that changed a few documents searches those only
(pipeline.changed_pairs), and stores the pairs a full search of the same files stores."""

from __future__ import annotations

import os
import random

import pytest

from ndd_desktop.core.methods import get_method
from ndd_desktop.pipeline import changed_pairs
from ndd_desktop.store import Store

from pipehelp import pairs_by_path, scan


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(7)) for _ in range(n)]


def _noisy(rng: random.Random, text: str, rate: float = 0.04) -> str:
    """A typing or OCR variant: a letter in 25 replaced (alike in q-grams, not in words)."""
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") if c.isalpha() and rng.random() < rate else c
                   for c in text)


def _half(rng: random.Random, text: str) -> str:
    """Half of a text kept, the rest rewritten (alike in passages of words)."""
    words = text.split()
    return " ".join(words[: len(words) // 2] + _words(rng, len(words) - len(words) // 2))


@pytest.fixture
def collection(tmp_path):
    rng = random.Random(5)
    root = tmp_path / "docs"
    root.mkdir()
    for k in range(40):
        (root / f"other{k:02d}.txt").write_text(" ".join(_words(rng, 300)), encoding="utf-8")
    for k in range(4):
        text = " ".join(_words(rng, 300))
        (root / f"a{k}.txt").write_text(text, encoding="utf-8")
        (root / f"b{k}.txt").write_text(_noisy(rng, text) if k % 2 else _half(rng, text), encoding="utf-8")
    return root, rng


def _change(root, rng: random.Random) -> None:
    """Two documents changed, one new, one removed: a new pair of typing variants, a new
    pair sharing half its words, two pairs gone."""
    (root / "other05.txt").write_text(_noisy(rng, (root / "other06.txt").read_text()), encoding="utf-8")
    (root / "new.txt").write_text(_half(rng, (root / "other10.txt").read_text()), encoding="utf-8")
    (root / "a2.txt").write_text(" ".join(_words(rng, 300)), encoding="utf-8")
    (root / "b1.txt").unlink()


def _names(store: Store) -> dict[tuple[str, str], float]:
    return {(os.path.basename(a), os.path.basename(b)): s for a, b, s in pairs_by_path(store)}


@pytest.fixture
def searches(monkeypatch):
    """What each call of search_changed gave (the real one runs): None when it did not apply."""
    seen = []
    real = changed_pairs.search_changed

    def recorded(*args, **kwargs):
        out = real(*args, **kwargs)
        seen.append(out)
        return out

    monkeypatch.setattr(changed_pairs, "search_changed", recorded)
    return seen


def test_a_rescan_that_changed_a_few_documents_stores_what_a_full_search_stores(tmp_path, collection,
                                                                                banded_search, searches):
    root, rng = collection
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root])
        before = _names(store)
        assert set(before) == {("a0.txt", "b0.txt"), ("a1.txt", "b1.txt"), ("a2.txt", "b2.txt"),
                               ("a3.txt", "b3.txt")}
        assert searches == []  # a first scan searches everything
        _change(root, rng)
        scan(store, [root])
        after = _names(store)
        complete_from = store.pairs.sets()[0].complete_from
    assert len(searches) == 1 and searches[0] is not None  # only what changed was searched
    assert set(after) == {("a0.txt", "b0.txt"), ("a3.txt", "b3.txt"), ("other05.txt", "other06.txt"),
                          ("new.txt", "other10.txt")}
    assert after[("a0.txt", "b0.txt")] == before[("a0.txt", "b0.txt")]
    with Store.open(str(tmp_path / "full.ndd")) as full:
        scan(full, [root])
        assert _names(full) == after
        assert full.pairs.sets()[0].complete_from == complete_from


def test_a_rescan_that_changed_many_documents_searches_them_all(tmp_path, collection, banded_search, searches):
    root, rng = collection
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root])
        for k in range(12):  # more than a tenth of the 48 documents
            path = root / f"other{k:02d}.txt"
            path.write_text(path.read_text() + " and more", encoding="utf-8")
        _change(root, rng)
        scan(store, [root])
        after = _names(store)
    assert searches == []
    with Store.open(str(tmp_path / "full.ndd")) as full:
        scan(full, [root])
        assert _names(full) == after


def test_a_collection_joined_exactly_is_searched_whole_again(tmp_path, collection, searches):
    root, rng = collection
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root])
        assert store.pairs.sets()[0].complete_from is None  # every pair down to the floor
        _change(root, rng)
        scan(store, [root])
        after = _names(store)
    assert searches == []  # the records' search is as complete as the bands only
    assert ("other05.txt", "other06.txt") in after and ("new.txt", "other10.txt") in after


def test_a_changed_document_loses_its_record_and_the_rescan_keeps_a_new_one(tmp_path, collection, banded_search):
    root, rng = collection
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root])
        qgram = get_method("qgram")
        name, key = changed_pairs.record_name(qgram, qgram.sketch_key(qgram.params({})))
        ids = {os.path.basename(d.relpath): d.id for d in store.documents.all(status=None)}
        assert set(store.sketches.kept_ids(name, key).tolist()) == set(ids.values())
        _change(root, rng)
        scan(store, [root])
        now = {os.path.basename(d.relpath): d.id for d in store.documents.all(status=None)}
        kept = set(store.sketches.kept_ids(name, key).tolist())
    assert kept == set(now.values())  # the new and changed documents have theirs again
    assert ids["b1.txt"] not in kept


def test_the_records_hold_the_signature_the_banded_search_screens_with():
    from ndd_desktop.core import set_lsh

    # changed_pairs names the bins without importing set_lsh (which loads the kernels)
    assert changed_pairs.SCREEN_BINS == set_lsh.SCREEN_BINS


def test_a_document_whose_text_was_missing_for_a_moment_is_searched_again_when_read(tmp_path, collection,
                                                                                     banded_search, searches):
    # A collection from before the records (none kept) whose full search finds a file gone
    # for a moment: its set is an empty text's. The next scan reads it again with the same
    # content; had it kept that empty record, no later rescan could pair it with anything.
    root, rng = collection
    away = root / "other20.txt"
    hidden = tmp_path / "hidden.txt"
    qgram = get_method("qgram")
    name, key = changed_pairs.record_name(qgram, qgram.sketch_key(qgram.params({})))

    def gone_at_the_pairs(report) -> None:  # between the walk and the pair stage
        if report.stage == "pairs" and away.exists():
            away.rename(hidden)

    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [root])
        store.sketches.forget_kept(name, key, store.sketches.kept_ids(name, key).tolist())  # as before records
        (root / "new0.txt").write_text(" ".join(_words(rng, 300)), encoding="utf-8")
        scan(store, [root], progress=gone_at_the_pairs)
        hidden.rename(away)
        (failed,) = store.documents.errors()
        assert failed.relpath == "other20.txt" and "not compared" in failed.reason
        assert failed.id not in set(store.sketches.kept_ids(name, key).tolist())
        scan(store, [root])  # read again, the same content: a full search (the pair set was not whole)
        assert store.documents.errors() == []
        (root / "twin.txt").write_text(_noisy(rng, away.read_text(encoding="utf-8")), encoding="utf-8")
        scan(store, [root])
        after = _names(store)
    assert searches[-1] is not None  # the last rescan searched the new document only
    assert ("other20.txt", "twin.txt") in after
