"""Sketches of a sketch_from_text method (qgram): a mark in the file, the bytes in memory
for the scan's own pair stage, else made again from the stored text."""

from __future__ import annotations

import numpy as np
import pytest
from storehelp import add_root, doc

from ndd_desktop.store import Root, StoreError


def decode(blob: bytes) -> bytes:
    return b"decoded:" + bytes(blob)


def derive(texts: list[str]) -> list[bytes]:
    return [b"from text:" + t.encode() for t in texts]


def stored(store, method: str) -> list[bytes]:
    with store._read() as conn:
        return [bytes(r[0]) for r in conn.exec_driver_sql(
            "SELECT data FROM sketches WHERE method = ? ORDER BY doc_id", (method,))]


def test_the_file_holds_a_mark_and_the_scan_its_sketch(store):
    add_root(store, Root("/r"))
    a, b = store.scans.write_documents([doc("/r", "a.txt", text="alpha", sketch=b"A"),
                                  doc("/r", "b.txt", text="beta", sketch=b"B")], "qgram", "k")
    assert stored(store, "qgram") == [b"", b""]
    assert store.sketches.unsketched("qgram", "k") == [] and store.sketches.sketched([a, b], "qgram", "k") == {a, b}
    ids, sketches, _, _ = store.sketches.load("qgram", "k", decode=decode, derive=derive)
    assert ids.tolist() == [a, b] and sketches == [b"decoded:A", b"decoded:B"]
    # handed out once: a second load (a later scan) makes them from the texts
    ids, sketches, _, _ = store.sketches.load("qgram", "k", decode=decode, derive=derive)
    assert sketches == [b"from text:alpha", b"from text:beta"]
    with pytest.raises(StoreError, match="derive"):
        store.sketches.load("qgram", "k", decode=decode)


def test_other_methods_store_their_bytes(store):
    add_root(store, Root("/r"))
    store.scans.write_documents([doc("/r", "a.txt", sketch=np.arange(3, dtype=np.uint64).tobytes())], "minhash", "k")
    assert stored(store, "minhash") == [np.arange(3, dtype=np.uint64).tobytes()]
    _, sketches, _, _ = store.sketches.load("minhash", "k", derive=derive)
    assert sketches == [np.arange(3, dtype=np.uint64).tobytes()]


def test_a_changed_content_or_the_end_of_the_scan_lets_the_held_sketch_go(store):
    add_root(store, Root("/r"))
    (a,) = store.scans.write_documents([doc("/r", "a.txt", xxh="h1", text="old", sketch=b"OLD")], "qgram", "k")
    store.sketches.put("qgram", "k2", [(a, b"OLD2")])
    assert stored(store, "qgram") == [b"", b""]
    # new content, not sketched in this write: no sketch of the old text may be handed out
    changed = doc("/r", "a.txt", xxh="h2", text="new", doc_id=a)
    changed.content_changed = True
    store.scans.write_documents([changed], "qgram", "k")
    assert stored(store, "qgram") == [] and all(a not in held for held in store._carried.values())
    store.sketches.put("qgram", "k", [(a, b"NEW")])
    _, sketches, _, _ = store.sketches.load("qgram", "k", decode=decode, derive=derive)
    assert sketches == [b"decoded:NEW"]
    store.sketches.put("qgram", "k", [(a, b"HELD")])
    run = store.scans.begin_run("qgram", {}, "pk", 0.3)
    store.scans.end_run(run, "cancelled", {})
    _, sketches, _, _ = store.sketches.load("qgram", "k", decode=decode, derive=derive)
    assert sketches == [b"from text:new"]
