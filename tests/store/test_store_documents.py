"""Roots, documents, texts and the scan-side writes of the store."""

from __future__ import annotations

import numpy as np
import pytest
from storehelp import add_root, doc

from ndd_desktop.store import Root


def test_set_roots_replaces_and_removes_documents(store):
    add_root(store, Root("/a"), Root("/b"))
    store.scans.write_documents([doc("/a", "x.txt", "1"), doc("/b", "y.txt", "2")], "m", "k")
    assert {d.root for d in store.documents.all()} == {"/a", "/b"}
    store.documents.set_roots([Root("/b", True), Root("/c")])
    docs = store.documents.all()
    assert [(d.root, d.relpath, d.reference) for d in docs] == [("/b", "y.txt", True)]
    assert store.documents.roots() == [Root("/b", True), Root("/c", False)]


def test_document_fields_text_and_abspath(store):
    add_root(store, Root("/a"))
    (i, j) = store.scans.write_documents(
        [doc("/a", "dir/x.txt", "1", text="Hello\u00e9 world"),
         doc("/a", "box.zip!in/y.txt", "2", container="box.zip", text="member")],
        "m", "k",
    )
    d = store.documents.get(i)
    assert (d.relpath, d.abspath, d.text_length, d.status, d.reference) == ("dir/x.txt", "/a/dir/x.txt", 12, "ok", False)
    assert store.documents.text(i) == "Hello\u00e9 world"
    m = store.documents.get(j)
    assert (m.container, m.abspath) == ("box.zip", "/a/box.zip")
    with pytest.raises(KeyError):
        store.documents.get(9999)
    assert store.documents.text(9999) is None


def test_undecodable_file_names_round_trip(store):
    odd = "caf\udce9.txt"  # a Latin-1 byte in a UTF-8 file system, as os.fsdecode gives it
    add_root(store, Root("/a"))
    (i,) = store.scans.write_documents([doc("/a", odd, "1")], "m", "k")
    assert store.documents.get(i).relpath == odd
    assert list(store.scans.documents_at([("/a", odd)])) == [("/a", odd)]
    assert ("/a", odd) in store.scans.known_files()


def test_the_largest_family_of_copies_is_counted_by_the_bytes_of_documents_read(store):
    add_root(store, Root("/a"))
    assert store.documents.largest_copies() is None
    store.scans.write_documents([doc("/a", "one.txt", "h1"), doc("/a", "two.txt", "h2")], "m", "k")
    assert store.documents.largest_copies() is None  # no two documents share their bytes
    store.scans.write_documents([doc("/a", "c/b.txt", "h3"), doc("/a", "c/a.txt", "h3"), doc("/a", "c/c.txt", "h3"),
                                 doc("/a", "d/x.txt", "h2"),
                                 doc("/a", "e/1.pdf", "h4", text=None, status="error"),
                                 doc("/a", "e/2.pdf", "h4", text=None, status="error"),
                                 doc("/a", "e/3.pdf", "h4", text=None, status="error"),
                                 doc("/a", "e/4.pdf", "h4", text=None, status="error")], "m", "k")
    # the first of the three copies written; files that could not be read are no family
    assert store.documents.largest_copies() == (3, "c/b.txt")


def test_errors_lists_failed_documents(store):
    add_root(store, Root("/a"))
    store.scans.write_documents([doc("/a", "ok.txt", "1"), doc("/a", "bad.pdf", "2", text=None, status="error")], "m", "k")
    assert [(d.relpath, d.status, d.reason) for d in store.documents.errors()] == [("bad.pdf", "error", "broken")]
    assert [d.relpath for d in store.documents.all()] == ["ok.txt"]
    assert len(store.documents.all(status=None)) == 2


def test_sketches_moves_keep_id_and_sketch(store):
    add_root(store, Root("/a"))
    (i,) = store.scans.write_documents([doc("/a", "old.txt", "h1", sketch=b"\x01" * 8)], "m", "k")
    assert store.sketches.sketched([i], "m", "k") == {i}
    moved = doc("/a", "new/place.txt", "h1", doc_id=i)
    (j,) = store.scans.write_documents([moved], "m", "k")
    assert j == i
    assert store.documents.get(i).relpath == "new/place.txt"
    assert store.sketches.sketched([i], "m", "k") == {i}
    ids, blobs, dates, refs = store.sketches.load("m", "k")
    assert ids.tolist() == [i] and blobs == [b"\x01" * 8] and dates.tolist() == [1.0e9] and refs.tolist() == [False]


def test_a_sketch_or_text_written_again_replaces_the_old_one(store):
    add_root(store, Root("/a"))
    (i,) = store.scans.write_documents([doc("/a", "x.txt", "h1", sketch=b"one", text="first")], "m", "k")
    again = doc("/a", "x.txt", "h1", doc_id=i, sketch=b"two", text="second")
    assert store.scans.write_documents([again], "m", "k") == [i]
    assert store.sketches.load("m", "k")[1] == [b"two"]
    assert store.documents.texts([i]) == {i: "second"}
    store.sketches.put("m", "k", [(i, b"three")])
    store.sketches.put("m", "k2", [(i, b"other key")])
    assert store.sketches.load("m", "k")[1] == [b"three"] and store.sketches.load("m", "k2")[1] == [b"other key"]
    with store._read() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM sketches").scalar_one() == 2
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM document_text").scalar_one() == 1


def test_changed_content_drops_old_sketches(store):
    add_root(store, Root("/a"))
    (i,) = store.scans.write_documents([doc("/a", "x.txt", "h1", sketch=b"1")], "m", "k")
    store.sketches.put("other", "k2", [(i, b"2")])
    changed = doc("/a", "x.txt", "h2", doc_id=i, text="new text")
    changed.content_changed = True
    store.scans.write_documents([changed], "m", "k")
    assert store.sketches.sketched([i], "m", "k") == set() and store.sketches.sketched([i], "other", "k2") == set()
    assert store.sketches.unsketched("m", "k") == [i]
    assert store.documents.texts([i]) == {i: "new text"}


def test_container_members_no_longer_produced_are_dropped(store):
    add_root(store, Root("/a"))
    ids = store.scans.write_documents(
        [doc("/a", f"z.zip!{n}.txt", str(n), container="z.zip") for n in range(3)], "m", "k"
    )
    known = store.scans.documents_at([("/a", "z.zip!0.txt")])
    keep = doc("/a", "z.zip!0.txt", "0", container="z.zip", doc_id=known[("/a", "z.zip!0.txt")].doc_id)
    store.scans.write_documents([keep], "m", "k")
    assert [d.id for d in store.documents.all()] == [ids[0]]


def test_keep_ids_protect_documents_written_earlier_in_the_scan(store):
    add_root(store, Root("/a"))
    first = store.scans.write_documents([doc("/a", "z.zip!0.txt", "0", container="z.zip")], "m", "k")
    store.scans.write_documents([doc("/a", "z.zip!1.txt", "1", container="z.zip")], "m", "k", keep_ids=set(first))
    assert len(store.documents.all()) == 2


def test_remove_files_drops_documents_and_dangling_pairs(store):
    add_root(store, Root("/a"))
    a, b, c = store.scans.write_documents([doc("/a", f"{n}.txt", str(n)) for n in "abc"], "m", "k")
    cols = {"a": np.array([a, a, b]), "b": np.array([b, c, c]), "score": np.array([0.9, 0.8, 0.7])}
    store.pairs.replace("m", "pk", "k", {}, 0.3, "x", cols)
    fid = store.scans.known_files()[("/a", "c.txt")].file_id
    assert store.scans.remove_files([fid]) == 1
    assert store.pairs.arrays("m", "pk").a.tolist() == [a]
    assert store.pairs.sets()[0].count == 1
    assert store.scans.remove_files([]) == 0


def test_touch_files_records_the_new_time(store):
    add_root(store, Root("/a"))
    store.scans.write_documents([doc("/a", "x.txt", "1")], "m", "k")
    kf = store.scans.known_files()[("/a", "x.txt")]
    store.scans.touch_files([(kf.file_id, kf.size, 777)])
    assert store.scans.known_files()[("/a", "x.txt")].mtime_ns == 777


def test_scan_runs_and_last_method(store):
    r1 = store.scans.begin_run("qgram", {"q": 4}, "pk1", 0.3)
    store.scans.end_run(r1, "finished", {"documents": 5, "pairs": 2})
    r2 = store.scans.begin_run("exact", {}, "pk2", 0.3)  # never ended: a crash
    r3 = store.scans.begin_run("bottomk", {"k": 64}, "pk3", 0.3)
    store.scans.end_run(r3, "cancelled", {})
    runs = store.scans.runs()
    assert [r.id for r in runs] == [r3, r2, r1]
    assert [r.status for r in runs] == ["cancelled", "interrupted", "finished"]
    assert runs[2].documents == 5 and runs[2].pairs == 2 and runs[2].params == {"q": 4}
    assert store.scans.last_method() == ("qgram", {"q": 4})



def test_ids_of_removed_documents_and_files_are_never_handed_out_again(store):
    add_root(store, Root("/a"))
    ids = store.scans.write_documents([doc("/a", f"{n}.txt", str(n)) for n in "abc"], "m", "k")
    files = store.scans.known_files()
    assert store.scans.remove_files([files[("/a", "b.txt")].file_id, files[("/a", "c.txt")].file_id]) == 2
    [again] = store.scans.write_documents([doc("/a", "d.txt", "d")], "m", "k")
    assert again == max(ids) + 1 and again not in ids
    assert store.scans.known_files()[("/a", "d.txt")].file_id > max(f.file_id for f in files.values())


def test_a_batch_of_new_and_known_documents_keeps_its_order_of_ids(store):
    add_root(store, Root("/a"))
    [x] = store.scans.write_documents([doc("/a", "x.txt", "1")], "m", "k")
    ids = store.scans.write_documents([doc("/a", "y.txt", "2"), doc("/a", "x.txt", "3", doc_id=x), doc("/a", "z.txt", "4")],
                                "m", "k")
    assert ids[1] == x and ids[0] != ids[2] and x not in (ids[0], ids[2])
    got = {d.relpath: d for d in store.documents.all(ids, status=None)}
    assert {d: got[d].id for d in got} == {"y.txt": ids[0], "x.txt": x, "z.txt": ids[2]}
    assert store.documents.texts(ids) == {ids[0]: "some text", x: "some text", ids[2]: "some text"}
