"""app.session.read_pair_set: the pairs a view shows and the documents they name, read
without every document id of the collection."""

from __future__ import annotations

import sqlite3

import numpy as np

from ndd_desktop.app.session import read_pair_set
from ndd_desktop.store import DocWrite, Root, Store


def _doc(k: int, status: str = "ok") -> DocWrite:
    return DocWrite(root="/r", file_relpath=f"d{k}.txt", file_size=10, file_mtime_ns=1, file_xxh128=str(k),
                    relpath=f"d{k}.txt", container=None, size=10, mtime_ns=1, date=None, format="txt",
                    xxh128=str(k), sha256="", text_length=4, status=status,
                    reason="" if status == "ok" else "unreadable")


def test_pairs_of_a_removed_document_are_left_out_and_a_failed_one_is_not_named(tmp_path):
    path = tmp_path / "c.ndd"
    with Store.open(path) as store:
        store.documents.set_roots([Root("/r")])
        ids = store.scans.write_documents([_doc(0), _doc(1), _doc(2), _doc(3, "error")], "qgram", "sk")
        a, b = np.array([ids[0], ids[0], ids[1]]), np.array([ids[1], ids[2], ids[3]])
        nan = np.full(3, np.nan)
        store.pairs.replace("qgram", "pk", "sk", {}, 0.3, "d",
                            {"a": a, "b": b, "score": np.array([0.9, 0.8, 0.7]), "cont_ab": nan, "cont_ba": nan})
    # a document gone since the pair set was stored, its pairs left behind
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("DELETE FROM documents WHERE id = ?", (ids[2],))
    with Store.open(path) as store:
        data = read_pair_set(store, "qgram", {}, "pk", 0.3)
        kept = list(zip(data.arrays.a.tolist(), data.arrays.b.tolist()))
        # the same pairs as the store's own check of every document id
        full = store.pairs.arrays("qgram", "pk")
        assert kept == list(zip(full.a.tolist(), full.b.tolist()))
    # the pair with the removed document is gone; the one with the failed document stays,
    # and the failed document is not among the documents shown (only those read "ok" are)
    assert kept == [(ids[0], ids[1]), (ids[1], ids[3])]
    assert data.arrays.score.tolist() == [0.9, 0.7]
    assert sorted(data.docs) == [ids[0], ids[1]]
