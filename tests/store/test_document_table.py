"""store.documents.table: the documents of store.documents.all as a mapping whose objects
are made when first asked for, with the columns the grouping reads and the roots."""

from __future__ import annotations

import math

import numpy as np
from storehelp import add_root, doc

from ndd_desktop.store import DocumentTable, Root


def _collection(store):
    add_root(store, Root("/a"), Root("/b", True))
    return store.scans.write_documents([
        doc("/a", "x.txt", "1", text="one two three", date=5.0),
        doc("/a", "box.zip!in/y.txt", "2", container="box.zip", text="member text", date=None),
        doc("/b", "caf\udce9.txt", "3", text="undecodable name", date=float("nan")),
        doc("/b", "bad.txt", "4", text=None, status="error"),
    ], "m", "k")


def test_the_table_holds_what_all_gives(store):
    ids = _collection(store)
    for status in ("ok", None):
        table = store.documents.table(ids, status=status)
        listed = store.documents.all(ids, status=status)
        assert isinstance(table, DocumentTable)
        assert list(table) == [d.id for d in listed] and len(table) == len(listed)
        assert [table[d.id] for d in listed] == listed
        assert table[listed[0].id] is table[listed[0].id]  # made once
        assert ids[3] in table if status is None else ids[3] not in table
        assert dict(table.items()) == {d.id: d for d in listed}
    assert list(store.documents.table()) == [d.id for d in store.documents.all()]
    assert list(store.documents.table([])) == []


def test_columns_and_roots(store):
    ids = _collection(store)
    table = store.documents.table(ids, status=None)
    assert table.roots() == {"/a", "/b"}
    assert list(table) == sorted(ids)
    assert table.column("text_length") == [13, 11, 16, 0]
    assert table.column("date") == [5.0, None, None, 1.0e9]  # SQLite keeps a NaN as NULL
    assert [bool(r) for r in table.column("reference")] == [False, False, True, True]
    assert table.column("reason") == ["", "", "", "broken"]
    assert table.column("relpath") == [d.relpath for d in table.values()] == [
        "x.txt", "box.zip!in/y.txt", "caf\udce9.txt", "bad.txt"]
    assert table.column("container") == [None, "box.zip", None, None]
    assert table.column("path") == ["/a", "/a", "/b", "/b"] and table.column("size") == [10] * 4


def test_a_pair_graph_of_the_table_has_the_columns_of_one_of_its_documents(store):
    from ndd_desktop.pipeline.pair_graph import PairGraph
    from ndd_desktop.store import PairArrays

    ids = _collection(store)
    a, b = np.array([ids[0], ids[1]], dtype=np.int64), np.array([ids[1], ids[2]], dtype=np.int64)
    v = np.array([0.9, 0.8])
    arrays = PairArrays(np.arange(2), a, b, v, v, v, np.full(2, np.nan))
    table = store.documents.table(ids, status=None)
    from_table, from_docs = PairGraph(arrays, table), PairGraph(arrays, dict(table.items()))
    for name in ("ids", "length", "date", "reference", "truncated", "a_pos", "b_pos"):
        assert np.array_equal(getattr(from_table, name), getattr(from_docs, name)), name
    assert from_table.ids.tolist() == sorted(ids)
    assert from_table.length.tolist() == [13, 11, 16, 0]
    assert from_table.date.tolist() == [5.0, math.inf, math.inf, 1.0e9]  # no date (None, NaN): last
    assert from_table.reference.tolist() == [False, False, True, True]
