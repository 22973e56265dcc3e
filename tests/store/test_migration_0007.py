"""Schema 0007: an 0006 file is migrated on open, its review and pairs kept, its size smaller."""

from __future__ import annotations

import os
import sqlite3
import zlib

import numpy as np
from storehelp import add_root, doc
from test_text_codec import prose

from ndd_desktop.store import Root, Store
from ndd_desktop.store.engine import PAGE_SIZE
from ndd_desktop.store.text_codec import ZSTD_MAGIC

N = 150


def make_0006_file(path) -> tuple[list[int], list[str]]:
    """An 0006 collection as that release wrote it: zlib texts, stored q-gram sets (uint32,
    ~2,500 per text), a minhash sketch each, one pair set and a review."""
    texts = [prose(k) for k in range(N)]
    with Store.open(path, revision="0006") as s:
        add_root(s, Root("/r"))
        ids = s.scans.write_documents([doc("/r", f"d{k:03}.txt", xxh=f"h{k}", text=None) for k in range(N)], "x", "k")
        rng = np.random.default_rng(0)
        con = sqlite3.connect(path)
        con.executemany("INSERT INTO document_text (doc_id, data) VALUES (?, ?)",
                        [(i, zlib.compress(t.encode(), 1)) for i, t in zip(ids, texts)])
        con.executemany("INSERT INTO sketches (doc_id, method, sketch_key, data) VALUES (?, 'qgram', 'old', ?)",
                        [(i, np.sort(rng.integers(0, 2**32, 2500, dtype=np.uint64)).astype(np.uint32).tobytes())
                         for i in ids])
        con.executemany("INSERT INTO sketches (doc_id, method, sketch_key, data) VALUES (?, 'minhash', 'mk', ?)",
                        [(i, bytes(range(256)) * 2) for i in ids])
        con.commit()
        con.close()
        cols = {"a": np.array(ids[0:6:2]), "b": np.array(ids[1:6:2]), "score": np.array([0.9, 0.8, 0.7]),
                "cont_ab": np.array([0.9, 0.85, 0.7]), "cont_ba": np.array([0.95, 0.8, 0.75]),
                "estimate": np.array([0.91, 0.82, 0.73])}
        s.pairs.replace("qgram", "pk", "old", {}, 0.3, "digest", cols)
        s.review.set_verdict(ids[0], ids[1], "duplicate", reviewer="ann")
        s.review.set_verdict(ids[2], ids[3], "not_duplicate", reviewer="bob")
        s.review.set_keeper(ids[0], True, reviewer="ann")
        s.settings.put("keeper_rule", "newest")
    return ids, texts


def test_an_0006_file_is_migrated_with_its_review_and_pairs_and_shrinks(tmp_path):
    path = tmp_path / "old.ndd"
    ids, texts = make_0006_file(path)
    before = os.path.getsize(path)
    with Store.open(path) as s:
        assert s.schema_revision() == "0009"
        assert s.documents.texts(ids) == dict(zip(ids, texts))
        assert s.review.verdicts() == {(ids[0], ids[1]): "duplicate", (ids[2], ids[3]): "not_duplicate"}
        assert s.review.keepers() == {ids[0]} and s.settings.get("keeper_rule") == "newest"
        arr = s.pairs.arrays("qgram", "pk")
        assert sorted(zip(arr.a.tolist(), arr.b.tolist(), arr.score.tolist(), arr.estimate.tolist())) == [
            (ids[0], ids[1], 0.9, 0.91), (ids[2], ids[3], 0.8, 0.82), (ids[4], ids[5], 0.7, 0.73)]
        assert s.pairs.input_hash("qgram", "pk") == "digest"  # an unchanged collection is not compared again
        assert s.integrity_check() == "ok"
    con = sqlite3.connect(path)
    try:
        methods = dict(con.execute("SELECT method, COUNT(*) FROM sketches GROUP BY method").fetchall())
        assert methods == {"minhash": N}  # the stored q-gram sets went, other sketches stay
        blobs = [b for (b,) in con.execute("SELECT data FROM document_text")]
        assert len(blobs) == N and all(b.startswith(ZSTD_MAGIC) for b in blobs)
        assert con.execute("SELECT COUNT(*) FROM text_dictionaries").fetchone()[0] == 1
        assert con.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        con.close()
    after = os.path.getsize(path)
    assert after < before / 3, (before, after)


def test_a_new_file_has_large_pages(tmp_path):
    with Store.open(tmp_path / "new.ndd"):
        pass
    con = sqlite3.connect(tmp_path / "new.ndd")
    try:
        assert con.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
    finally:
        con.close()
