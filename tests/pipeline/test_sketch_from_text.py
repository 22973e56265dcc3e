"""q-gram sketches are not stored (sketch_from_text): the pairs and scores are those of the texts.

The collection is built so that its pairs are known by hand: the score is the share of
each text found in the other in runs of five words (core.text_share), so

* A2 is A (100 words) with its 51st word replaced: 99 of 100 words on each side;
* B2 is B (100 words) without its words 21-30: 90 of B's 100, all 90 of B2's;
* E is C's first 60 words then D's first 40: 60 of 100 with C, 40 of 100 with D;
* C and D are unrelated (random words of the same small vocabulary: their q-gram sets
  overlap a lot, their five-word runs not at all).
"""

from __future__ import annotations

import glob
import os
import sqlite3
import tempfile

import pytest
from pipehelp import pairs_by_path, scan, text_of

from ndd_desktop.core.methods import get_method
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.ingest.walk import walk
from ndd_desktop.pipeline import worker_sketch
from ndd_desktop.pipeline.config import ScanConfig
from ndd_desktop.pipeline.job import ScanJob
from ndd_desktop.pipeline.worker_sketch import (
    SKETCH_ATTR,
    SketchingExtractor,
    sketch_blobs,
)
from ndd_desktop.store import Root, Store
from ndd_desktop.store.sketch_spool import FOLDER_PREFIX, SpooledBlob

#: (a, b, score, share of a in b, share of b in a), a < b by name
EXPECTED = [
    ("A.txt", "A2.txt", 0.99, 0.99, 0.99),
    ("B.txt", "B2.txt", 0.90, 0.90, 1.00),
    ("C.txt", "E.txt", 0.60, 0.60, 0.60),
    ("D.txt", "E.txt", 0.40, 0.40, 0.40),
]


def write_collection(folder) -> None:
    folder.mkdir()
    a = text_of(1, 100).rstrip(".").split()
    b = text_of(2, 100).rstrip(".").split()
    c = text_of(3, 100).rstrip(".").split()
    d = text_of(4, 100).rstrip(".").split()
    a2 = a[:50] + ["zeppelin"] + a[51:]
    b2 = b[:20] + b[30:]
    e = c[:60] + d[:40]
    for name, words in {"A": a, "A2": a2, "B": b, "B2": b2, "C": c, "D": d, "E": e}.items():
        (folder / f"{name}.txt").write_text(" ".join(words), encoding="utf-8")


def pairs_with_shares(store: Store) -> list[tuple]:
    docs = {d.id: d.relpath for d in store.documents.all()}
    (ps,) = [p for p in store.pairs.sets() if p.method == "qgram"]
    arr = store.pairs.arrays("qgram", ps.pairs_key)
    out = []
    for a, b, score, cab, cba, est in zip(arr.a.tolist(), arr.b.tolist(), arr.score.tolist(), arr.cont_ab.tolist(),
                                          arr.cont_ba.tolist(), arr.estimate.tolist()):
        (na, ca), (nb, cb) = sorted([(docs[a], cab), (docs[b], cba)])
        out.append((na, nb, round(score, 9), round(ca, 9), round(cb, 9), est))
    return sorted(out)


def test_pairs_and_scores_are_those_of_the_texts_in_a_first_scan_and_a_later_one(tmp_path):
    folder = tmp_path / "c"
    write_collection(folder)
    db = tmp_path / "c.ndd"
    with Store.open(db) as store:
        scan(store, [folder])  # the pair stage takes the sketches the scan made, from memory
        first = pairs_with_shares(store)
    assert [p[:5] for p in first] == EXPECTED
    con = sqlite3.connect(db)
    assert {len(blob) for (blob,) in con.execute("SELECT data FROM sketches WHERE method = 'qgram'")} == {0}
    con.close()
    (folder / "F.txt").write_text(text_of(5, 100), encoding="utf-8")  # something new: the pairs are searched again
    with Store.open(db) as store:  # a new session: every old sketch is made again from its stored text
        summary = scan(store, [folder])
        assert summary.new == 1
        again = pairs_with_shares(store)
    assert again == first  # the same pairs, scores and q-gram estimates
    for a, b, *_, est in first:
        assert 0.3 <= est <= 1.0, (a, b, est)


@pytest.mark.parametrize("measure", ["containment"])
def test_a_second_pair_set_of_the_same_sketches_is_made_from_the_texts(tmp_path, measure):
    folder = tmp_path / "c"
    write_collection(folder)
    with Store.open(tmp_path / "c.ndd") as store:
        scan(store, [folder])
        scan(store, [folder], params={"measure": measure})
        pairs = pairs_by_path(store)
    # containment scores the larger share: B2 is wholly in B
    names = {(a.rsplit("/", 1)[-1], b.rsplit("/", 1)[-1]): round(s, 9) for a, b, s in pairs}
    assert names[("B.txt", "B2.txt")] == 1.0 and names[("A.txt", "A2.txt")] == 0.99


def test_workers_write_the_sketches_into_the_spool_folder_and_the_pairs_are_the_same(tmp_path):
    """Through a pool of workers the q-gram sets travel as files in the spool's folder, not
    through the pipes; the pairs are those of the in-process scan, and the folder is gone
    once the scan has ended."""
    folder = tmp_path / "c"
    write_collection(folder)
    mine = os.path.join(tempfile.gettempdir(), f"{FOLDER_PREFIX}{os.getpid()}-*")
    before = set(glob.glob(mine))
    with Store.open(tmp_path / "c.ndd") as store:
        ScanJob(store, ScanConfig([Root(str(folder))], "qgram", {}, 0.3, workers=2)).run()
        pooled = pairs_with_shares(store)
        assert set(glob.glob(mine)) == before  # the spool's folder went with the pair stage
    assert [p[:5] for p in pooled] == EXPECTED
    with Store.open(tmp_path / "d.ndd") as store:
        scan(store, [folder])  # in this process: the sketches come back as bytes
        assert pairs_with_shares(store) == pooled


def test_a_worker_writes_its_sketches_to_its_file_or_sends_them_when_it_cannot(tmp_path):
    folder = tmp_path / "c"
    write_collection(folder)
    entries = sorted((e for e in walk([str(folder)])), key=lambda e: e.relpath)
    spool = tmp_path / "spool"
    spool.mkdir()
    method = get_method("qgram")
    try:
        for target, spooled in ((spool, True), (tmp_path / "c" / "A.txt", False)):  # a file is no folder
            extractor = SketchingExtractor("qgram", (), spool_folder=str(target))
            docs = [extractor.extract(e, Limits()) for e in entries]
            want = sketch_blobs(method, method.params({}), [d.text for ds in docs for d in ds])
            extractor.finish(docs)  # (a text that is its own file is dropped from the document)
            got = [getattr(d, SKETCH_ATTR) for ds in docs for d in ds]
            if spooled:
                assert all(isinstance(g, SpooledBlob) for g in got)
                assert {os.path.dirname(g.path) for g in got} == {str(spool)}
                data = (spool / f"{os.getpid()}.sketches").read_bytes()
                assert [data[g.offset : g.offset + g.length] for g in got] == want
            else:
                assert got == want
    finally:
        if worker_sketch._SPOOL_FILE[1] >= 0:
            os.close(worker_sketch._SPOOL_FILE[1])
        worker_sketch._SPOOL_FILE[:] = [None, -1, ""]
