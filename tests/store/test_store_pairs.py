"""Pairs, decisions and concurrent access."""

from __future__ import annotations

import math
import sqlite3
import threading

import numpy as np
import pytest
from storehelp import add_root, doc

from ndd_desktop.store import Root, Store


@pytest.fixture
def three(store):
    """A store with documents a, b, c and pairs (a,b) .9, (a,c) .5, (b,c) .35."""
    add_root(store, Root("/r"))
    ids = store.scans.write_documents([doc("/r", f"{n}.txt", n) for n in ("alpha", "beta", "gamma")], "m", "k")
    a, b, c = ids
    cols = {
        "a": np.array([a, a, b]), "b": np.array([b, c, c]), "score": np.array([0.9, 0.5, 0.35]),
        "cont_ab": np.array([0.95, np.nan, 0.4]), "cont_ba": np.array([0.85, np.nan, 0.3]),
    }
    store.pairs.replace("m", "pk", "k", {"q": 4}, 0.3, "in", cols)
    return store, ids


def test_pair_sets_and_arrays(three):
    store, (a, b, c) = three
    (ps,) = store.pairs.sets()
    assert (ps.method, ps.params, ps.pairs_key, ps.floor, ps.count) == ("m", {"q": 4}, "pk", 0.3, 3)
    pa = store.pairs.arrays("m", "pk")
    assert pa.a.tolist() == [a, a, b] and pa.b.tolist() == [b, c, c]
    assert pa.score.tolist() == [0.9, 0.5, 0.35]
    assert math.isnan(pa.cont_ab[1]) and math.isnan(pa.hamming[0])
    assert len(store.pairs.arrays("m", "nope")) == 0
    assert store.pairs.input_hash("m", "pk") == "in"


def test_pair_arrays_read_in_slices_keep_order_and_missing_values(three, monkeypatch):
    import ndd_desktop.store.pairs as pairs_module

    store, (a, b, c) = three
    monkeypatch.setattr(pairs_module, "_FETCH_ROWS", 2)  # slices of 2, 1 rows
    pa = store.pairs.arrays("m", "pk")
    assert pa.a.tolist() == [a, a, b] and pa.b.tolist() == [b, c, c]
    assert pa.score.tolist() == [0.9, 0.5, 0.35] and pa.cont_ab[2] == 0.4
    assert math.isnan(pa.cont_ab[1]) and np.isnan(pa.hamming).all()
    assert pa.pair_id.dtype == np.int64 and len(set(pa.pair_id.tolist())) == 3


def test_pair_arrays_leave_out_pairs_of_documents_gone_since(three):
    """A document removed while its pair set stays (the next scan replaces the set) is in
    none of the pairs read, as before when the read joined every pair with its documents."""
    store, (a, b, c) = three
    with store._write() as conn:  # as a crash between the removal and the pairs' cleanup leaves it
        conn.exec_driver_sql("DELETE FROM documents WHERE id = ?", (c,))
    pa = store.pairs.arrays("m", "pk")
    assert pa.a.tolist() == [a] and pa.b.tolist() == [b] and pa.score.tolist() == [0.9]
    assert pa.cont_ab.tolist() == [0.95] and len(pa.pair_id) == 1


def test_pairs_threshold_order_paging_filter(three):
    store, (a, b, c) = three
    rows = store.pairs.rows("m", "pk", 0.4)
    assert [(r.a.relpath, r.b.relpath) for r in rows] == [("alpha.txt", "beta.txt"), ("alpha.txt", "gamma.txt")]
    assert rows[0].cont_ab == 0.95 and rows[0].verdict is None
    asc = store.pairs.rows("m", "pk", 0.0, descending=False)
    assert [r.score for r in asc] == [0.35, 0.5, 0.9]
    page = store.pairs.rows("m", "pk", 0.0, offset=1, limit=1)
    assert [r.score for r in page] == [0.5]
    assert [r.score for r in store.pairs.rows("m", "pk", 0.0, offset=2)] == [0.35]
    assert [r.score for r in store.pairs.rows("m", "pk", 0.0, text_filter="GAMMA")] == [0.5, 0.35]
    assert store.pairs.rows("m", "pk", 0.0, text_filter="%") == []
    assert store.pairs.count("m", "pk", 0.4) == 2
    assert store.pairs.count("m", "pk", 0.0, text_filter="beta") == 2
    by_b = store.pairs.rows("m", "pk", 0.0, order="b", descending=False)
    assert [r.b.relpath for r in by_b] == ["beta.txt", "gamma.txt", "gamma.txt"]
    with pytest.raises(ValueError):
        store.pairs.rows("m", "pk", 0.0, order="nonsense")


def test_iter_pairs_streams_every_pair_best_first(three):
    store, (a, b, c) = three
    for batch in (1, 2, 100):
        streamed = list(store.pairs.iter_rows("m", "pk", 0.0, batch=batch))
        assert [(r.pair_id, r.score) for r in streamed] == [(r.pair_id, r.score) for r in store.pairs.rows("m", "pk", 0.0)]
    assert [r.score for r in store.pairs.iter_rows("m", "pk", 0.4)] == [0.9, 0.5]


def test_replace_pairs_replaces_the_whole_set(three):
    store, (a, b, c) = three
    store.pairs.replace("m", "pk", "k", {"q": 4}, 0.5, "in2", {"a": np.array([b]), "b": np.array([c]), "score": np.array([0.6])})
    assert store.pairs.arrays("m", "pk").score.tolist() == [0.6]
    assert store.pairs.find_set("m", "pk").floor == 0.5


def test_verdicts_latest_wins_and_history_is_kept(three):
    store, (a, b, c) = three
    store.review.set_verdict(b, a, "duplicate", reviewer="ann", note="same letter")
    store.review.set_verdict(a, c, "not_duplicate", reviewer="bob")
    assert store.review.verdicts() == {(a, b): "duplicate", (a, c): "not_duplicate"}
    store.review.set_verdict(a, b, None, reviewer="ann")
    assert store.review.verdicts() == {(a, c): "not_duplicate"}
    assert store.pairs.rows("m", "pk", 0.4)[1].verdict == "not_duplicate"
    hist = store.review.history()
    assert [(h.kind, h.a, h.b, h.value, h.reviewer) for h in hist] == [
        ("verdict", a, b, "duplicate", "ann"), ("verdict", a, c, "not_duplicate", "bob"), ("verdict", a, b, "", "ann")
    ]
    assert hist[0].note == "same letter" and hist[0].a_xxh128 == "alpha" and hist[0].b_xxh128 == "beta"
    with pytest.raises(ValueError):
        store.review.set_verdict(a, b, "maybe")
    with pytest.raises(ValueError):
        store.review.set_verdict(a, a, "duplicate")


def test_keepers(three):
    store, (a, b, c) = three
    store.review.set_keeper(b, True, reviewer="ann")
    store.review.set_keeper(c, True)
    store.review.set_keeper(c, False)
    assert store.review.keepers() == {b}


def test_decisions_survive_document_removal(three):
    store, (a, b, c) = three
    store.review.set_verdict(a, b, "duplicate")
    store.review.set_keeper(a, True)
    store.scans.remove_files([store.scans.known_files()[("/r", "alpha.txt")].file_id])
    assert len(store.review.history()) == 2
    assert store.pairs.rows("m", "pk", 0.0)[0].a.relpath == "beta.txt"


def test_reads_do_not_wait_for_a_writer(tmp_path):
    path = tmp_path / "c.ndd"
    s = Store.open(path)
    add_root(s, Root("/r"))
    a, b = s.scans.write_documents([doc("/r", "a.txt", "1"), doc("/r", "b.txt", "2")], "m", "k")
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", {"a": np.array([a]), "b": np.array([b]), "score": np.array([0.8])})
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM pairs")
    # The writer holds the write lock with an uncommitted change; readers see the last commit.
    assert [r.score for r in s.pairs.rows("m", "pk", 0.0)] == [0.8]
    # A second writer queues on the busy timeout instead of failing.
    done = threading.Event()
    t = threading.Thread(target=lambda: (s.review.set_verdict(a, b, "duplicate", reviewer="gui"), done.set()))
    t.start()
    writer.execute("COMMIT")
    writer.close()
    t.join(60)
    assert done.is_set()
    assert s.review.verdicts() == {(a, b): "duplicate"}
    assert s.pairs.rows("m", "pk", 0.0) == []
    s.close()


def test_two_store_objects_on_one_file(tmp_path):
    path = tmp_path / "c.ndd"
    s1, s2 = Store.open(path), Store.open(path)
    s1.documents.set_roots([Root("/x")])
    assert s2.documents.roots() == [Root("/x")]
    s1.close()
    s2.close()


def test_an_empty_pair_set_is_stored(store):
    empty = np.empty(0, dtype=np.int64)
    store.pairs.replace("m", "pk", "k", {}, 0.3, "x", {"a": empty, "b": empty, "score": np.empty(0)})
    assert store.pairs.find_set("m", "pk").count == 0 and len(store.pairs.arrays("m", "pk")) == 0


def test_decisions_are_written_with_full_sync(file_store):
    with file_store._write(durable=True) as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == 2  # FULL
    with file_store._write() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar_one() == 1  # NORMAL


def test_pair_set_keeps_from_which_score_it_is_complete(three):
    store, (a, b, c) = three
    assert store.pairs.find_set("m", "pk").complete_from is None  # the default: down to the floor
    cols = {"a": np.array([a]), "b": np.array([b]), "score": np.array([0.9]),
            "cont_ab": np.array([np.nan]), "cont_ba": np.array([np.nan])}
    store.pairs.replace("m", "pk", "k", {"q": 4}, 0.3, "in2", cols, complete_from=0.7)
    assert store.pairs.find_set("m", "pk").complete_from == 0.7
    store.pairs.replace("m", "pk", "k", {"q": 4}, 0.3, "in3", cols)  # a later exact scan
    assert store.pairs.find_set("m", "pk").complete_from is None


def test_pair_arrays_of_one_set_among_others_ordered_by_score_then_a_then_b(store):
    """A set's pairs are read by their row ids and ordered afterwards: score descending,
    ties by a and then b, whatever order they were given in, and none of another set's."""
    add_root(store, Root("/r"))
    ids = store.scans.write_documents([doc("/r", f"d{k}.txt", f"t{k}") for k in range(6)], "m", "k")
    a = np.array([ids[3], ids[0], ids[1], ids[0], ids[2]])
    b = np.array([ids[4], ids[5], ids[2], ids[1], ids[3]])
    score = np.array([0.7, 0.7, 0.9, 0.7, 0.4])
    cols = {"a": a, "b": b, "score": score, "cont_ab": score, "cont_ba": score}
    store.pairs.replace("m", "first", "k", {}, 0.3, "in", {k: v[:2] for k, v in cols.items()})
    store.pairs.replace("m", "second", "k", {}, 0.3, "in", cols)
    store.pairs.replace("m", "third", "k", {}, 0.3, "in", {k: v[3:] for k, v in cols.items()})
    pa = store.pairs.arrays("m", "second")
    assert list(zip(pa.a.tolist(), pa.b.tolist(), pa.score.tolist())) == [
        (ids[1], ids[2], 0.9), (ids[0], ids[1], 0.7), (ids[0], ids[5], 0.7), (ids[3], ids[4], 0.7),
        (ids[2], ids[3], 0.4)]
    assert len(store.pairs.arrays("m", "first")) == 2 and len(store.pairs.arrays("m", "third")) == 2
