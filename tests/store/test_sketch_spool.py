"""Sketches waiting in a temporary file (store.sketch_spool) instead of in memory: what a
search reads from them is what a list of the same arrays gives."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from storehelp import add_root, doc

from ndd_desktop.core.inverted_index import overlap_join
from ndd_desktop.core.sketch_batches import gather, sketch_dtype, sketch_sizes
from ndd_desktop.store import Root, Store
from ndd_desktop.store.sketch_spool import (
    FOLDER_PREFIX,
    SketchSpool,
    SpooledBlob,
    SpooledSketches,
)


def spooled(arrays: list[np.ndarray], order=None) -> SpooledSketches:
    """The arrays written to a spool (in ``order``), handed out in their own order."""
    spool = SketchSpool()
    for k in order if order is not None else range(len(arrays)):
        spool[100 + k] = arrays[k].tobytes()
    at = np.array([spool.location(100 + k) for k in range(len(arrays))], dtype=np.int64)
    return SpooledSketches(spool, at[:, 0], at[:, 1], arrays[0].dtype)


def test_a_spool_is_a_mapping_of_bytes():
    spool = SketchSpool()
    spool[3], spool[1], spool[7] = b"abc", b"", b"xyz!"
    spool[3] = b"replaced"
    assert dict(spool) == {3: b"replaced", 1: b"", 7: b"xyz!"} and len(spool) == 3
    assert spool.pop(7) == b"xyz!" and spool.pop(7, None) is None and 7 not in spool
    with pytest.raises(KeyError):
        spool.pop(7)
    assert spool.location(1)[1] == 0 and spool.location(9) is None
    spool.close()
    assert len(spool) == 0


def test_a_batch_added_at_once_reads_as_one_added_by_one():
    """update() writes a batch with one write; each sketch reads back, a later batch
    replaces an earlier document's bytes, and the batch lies in the file end to end."""
    spool = SketchSpool()
    spool[9] = b"first"
    spool.update([(1, b"aa"), (2, b""), (3, b"cccc")])
    spool.update({3: b"replaced", 4: b"dd"})
    assert dict(spool) == {9: b"first", 1: b"aa", 2: b"", 3: b"replaced", 4: b"dd"}
    assert spool.location(1) == (5, 2) and spool.location(2) == (7, 0) and spool.location(4)[0] == spool.location(3)[0] + 8
    spool.update([])
    with pytest.raises(TypeError):
        spool.update(x=b"not a document id")
    spool.close()


@pytest.mark.parametrize("order", [None, [4, 0, 3, 1, 2, 5]])
def test_spooled_sketches_read_as_the_list_does(order):
    rng = np.random.default_rng(1)
    arrays = [np.sort(rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32)) for size in (5, 0, 300, 1, 40, 0)]
    seq = spooled(arrays, order)
    assert len(seq) == 6 and all(np.array_equal(seq[k], arrays[k]) for k in range(6))
    assert [s.shape[0] for s in seq[1:3]] == [0, 300] and [s.shape[0] for s in seq] == [5, 0, 300, 1, 40, 0]
    assert sketch_sizes(seq).tolist() == sketch_sizes(arrays).tolist() and sketch_dtype(seq) == np.uint32
    for docs in ([0, 1, 2, 3, 4, 5], [2, 3], [5, 2, 2, 0], [1], []):
        values, offsets = gather(seq, np.array(docs, dtype=np.int64))
        want_values, want_offsets = gather(arrays, np.array(docs, dtype=np.int64))
        assert values.dtype == np.uint32 and np.array_equal(values, want_values)
        assert offsets.tolist() == want_offsets.tolist()


def test_the_banded_search_finds_the_same_pairs_from_a_spool():
    rng = np.random.default_rng(2)
    base = [np.unique(rng.integers(0, 2**32, 2000, dtype=np.uint64).astype(np.uint32)) for _ in range(40)]
    arrays = base + [np.unique(np.concatenate([b[: int(b.shape[0] * 0.9)], rng.integers(0, 2**32, 150, dtype=np.uint64).astype(np.uint32)])) for b in base]
    arrays.append(np.empty(0, np.uint32))
    want = overlap_join(arrays, 0.3, mode="lsh")
    got = overlap_join(spooled(arrays), 0.3, mode="lsh")
    assert want.i.shape[0] >= 40
    assert np.array_equal(got.i, want.i) and np.array_equal(got.j, want.j) and np.array_equal(got.shared, want.shared)


def test_load_hands_out_the_scan_sketches_and_makes_the_others_from_their_texts(store):
    add_root(store, Root("/r"))
    a, b, c = store.scans.write_documents([doc("/r", "a.txt", text="alpha", sketch=np.array([1, 5], np.uint32).tobytes()),
                                           doc("/r", "b.txt", text="beta", sketch=b""),
                                           doc("/r", "c.txt", text="gamma", sketch=np.array([7], np.uint32).tobytes())],
                                          "qgram", "k")
    store.sketches.put("qgram", "k2", [(a, b"unused")])
    del store._carried[("qgram", "k")][c]  # as if c's sketch had not been made by this scan

    def derive(texts):
        return [np.array([len(t)], np.uint32) for t in texts]

    ids, sketches, _, _ = store.sketches.load("qgram", "k", derive=derive, spool_dtype=np.uint32)
    assert isinstance(sketches, SpooledSketches) and ids.tolist() == [a, b, c]
    assert [s.tolist() for s in sketches] == [[1, 5], [], [5]]
    assert sketches.sizes.tolist() == [2, 0, 1]
    assert ("qgram", "k") not in store._carried and ("qgram", "k2") in store._carried


# -- sketches written by the workers into the spool's folder -------------------------------


def write_blobs(folder: str, name: str, blobs: list[bytes]) -> list:
    """What a worker does: append the blobs to its file in the folder, give their places."""
    path = os.path.join(folder, name)
    with open(path, "ab") as f:
        at = f.seek(0, os.SEEK_END)
        f.write(b"".join(blobs))
    out = []
    for blob in blobs:
        out.append(SpooledBlob(path, at, len(blob)))
        at += len(blob)
    return out


def test_sketches_a_worker_wrote_are_taken_as_they_lie():
    spool = SketchSpool()
    folder = spool.folder()
    assert os.path.isdir(folder) and spool.folder() == folder  # one folder a spool
    spool.update([(1, b"own")])
    one = write_blobs(folder, "11.sketches", [b"aaaa", b"", b"cc"])
    two = write_blobs(folder, "12.sketches", [b"zzz"])
    more = write_blobs(folder, "11.sketches", [b"dddddd"])  # the same worker's next chunk
    spool.update([(2, one[0]), (3, one[1]), (4, one[2]), (5, two[0]), (6, b"mixed in")])
    spool.update({7: more[0], 2: one[2]})  # a later place replaces an earlier one
    assert dict(spool) == {1: b"own", 2: b"cc", 3: b"", 4: b"cc", 5: b"zzz", 6: b"mixed in", 7: b"dddddd"}
    # the places of sketches that follow each other in one file follow each other
    (a, la), (b, lb) = spool.location(4), spool.location(7)
    assert b == a + la and lb == 6 and spool.read(a, la + lb) == b"ccdddddd"
    # in different files they do not, whatever their offsets
    assert spool.location(5)[0] not in (a, a + la, b)
    spool.close()
    assert not os.path.exists(folder) and len(spool) == 0


def test_spooled_sketches_across_workers_files_read_as_the_list_does():
    rng = np.random.default_rng(5)
    arrays = [np.sort(rng.integers(0, 2**32, size, dtype=np.uint64).astype(np.uint32)) for size in (7, 0, 90, 3, 50)]
    spool = SketchSpool()
    folder = spool.folder()
    first = write_blobs(folder, "21.sketches", [a.tobytes() for a in arrays[:3]])
    second = write_blobs(folder, "22.sketches", [a.tobytes() for a in arrays[3:]])
    spool.update(list(zip(range(5), first + second)))
    at = np.array([spool.location(k) for k in range(5)], dtype=np.int64)
    seq = SpooledSketches(spool, at[:, 0], at[:, 1], np.uint32)
    assert all(np.array_equal(seq[k], arrays[k]) for k in range(5))
    values, offsets = seq.gather(np.array([0, 2, 3, 4]))  # a run in each file
    assert np.array_equal(values, np.concatenate([arrays[k] for k in (0, 2, 3, 4)]))
    assert offsets.tolist() == [0, 7, 97, 100, 150]
    seq.close()  # what the pair stage does once it has searched
    assert not os.path.exists(folder)


def test_a_spool_let_go_deletes_its_folder():
    spool = SketchSpool()
    folder = spool.folder()
    spool.update([(1, write_blobs(folder, "31.sketches", [b"abc"])[0])])
    assert spool[1] == b"abc"  # its file is open for reading now
    del spool
    gc.collect()
    assert not os.path.exists(folder)


def test_folders_of_processes_that_ended_are_swept_and_others_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f"{FOLDER_PREFIX}{int(ended.stdout)}-abc"
    alive = tmp_path / f"{FOLDER_PREFIX}{os.getppid()}-def"
    other = tmp_path / "ndd-something-else"
    for d in (dead, alive, other):
        d.mkdir()
        (d / "1.sketches").write_bytes(b"x")
    spool = SketchSpool()
    made = spool.folder()
    assert not dead.exists() and alive.exists() and other.exists()
    assert os.path.dirname(made) == str(tmp_path)
    spool.close()


def test_no_spool_folder_where_none_can_be_made(tmp_path, monkeypatch):
    """A temporary folder that cannot hold another folder: the scan's workers get none and
    send their sketches (the spool's own unnamed file is made elsewhere first)."""
    with Store.open(tmp_path / "c.ndd") as store:
        spool = store._carry("qgram", "k")  # its unnamed file, in the usual place
        blocked = tmp_path / "not-a-folder"
        blocked.write_bytes(b"")
        monkeypatch.setattr(tempfile, "tempdir", str(blocked))
        assert store.sketches.spool_folder("qgram", "k") is None
        spool.update([(1, b"abc")])
        assert spool[1] == b"abc"
