"""Texts compressed in the extraction workers, with the collection's dictionary, read back
exactly; the dictionary is trained during the first scan and handed to the workers."""

from __future__ import annotations

import sqlite3

import zstandard
from pipehelp import make_corpus, pairs_by_path, text_of

from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.pipeline.worker_sketch import SKETCH_ATTR, TEXT_ATTR, SketchingExtractor
from ndd_desktop.store import Root, Store
from ndd_desktop.store.text_codec import TRAIN_MAX_TEXTS


def entry(folder, name: str) -> FileEntry:
    path = folder / name
    st = path.stat()
    return FileEntry(str(folder), name, str(path), st.st_size, st.st_mtime_ns)


def frames(path) -> list[tuple[int, bytes]]:
    con = sqlite3.connect(path)
    try:
        return [(i, bytes(b)) for i, b in con.execute("SELECT doc_id, data FROM document_text")]
    finally:
        con.close()


def test_a_worker_compresses_with_the_dictionary_and_the_store_reads_it_back(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    texts = {f"doc{k:03d}.txt": text_of(k, 400) for k in range(150)}  # enough to train on
    for name, text in texts.items():  # with a byte order mark: texts the store keeps
        (folder / name).write_text(text, encoding="utf-8-sig")
    with Store.open(str(tmp_path / "c.ndd")) as store:
        assert store.scans.text_dictionary() is None
        dictionary = store.scans.text_dictionary(list(texts.values()))  # trained and stored
        assert dictionary is not None and store.scans.text_dictionary() == dictionary
        names = ["doc000.txt", "doc001.txt"]
        results = [SketchingExtractor("minhash", ()).extract(entry(folder, n), Limits()) for n in names]
        SketchingExtractor("minhash", (), dictionary=dictionary).finish(results)
        docs = [d for r in results for d in r]
        assert all(d.text is None for d in docs)  # sent compressed only
        blobs = [getattr(d, TEXT_ATTR) for d in docs]
        assert all(zstandard.get_frame_parameters(b).dict_id == zstandard.ZstdCompressionDict(dictionary).dict_id()
                   for b in blobs)
        assert all(getattr(d, SKETCH_ATTR) for d in docs)
        kept = [SketchingExtractor("minhash", ()).extract(entry(folder, n), Limits()) for n in names]
        SketchingExtractor("minhash", (), dictionary=dictionary, keep_text=True).finish(kept)
        assert [d.text for r in kept for d in r] == [texts[n] for n in names]
        assert [getattr(d, TEXT_ATTR) for r in kept for d in r] == blobs  # the same frames


def test_a_first_scan_trains_the_dictionary_on_the_way_and_every_text_reads_back(tmp_path):
    folder = tmp_path / "docs"
    n = TRAIN_MAX_TEXTS + 300  # the dictionary is trained once 1,000 texts are in
    texts = make_corpus(folder, n=n, dup_every=1000, kept=True)
    path = str(tmp_path / "c.ndd")
    with Store.open(path) as store:
        config = ScanConfig(roots=[Root(str(folder))], method="minhash", params={}, floor=0.3, workers=1)
        ScanJob(store, config).run()
        ids = {d.relpath: d.id for d in store.documents.all(status=None)}
        assert store.documents.texts(list(ids.values())) == {ids[name]: t for name, t in texts.items()}
    con = sqlite3.connect(path)
    (dict_id,), = con.execute("SELECT id FROM text_dictionaries").fetchall()
    con.close()
    used = [zstandard.get_frame_parameters(b).dict_id for _, b in frames(path)]
    assert set(used) <= {dict_id, 0}
    # only a first batch written before 100 texts were in (a batch is also written every
    # 2 s) can lack the dictionary; from the 1,000th text on every one has it
    assert used.count(dict_id) >= n - TRAIN_MAX_TEXTS


def test_the_same_pairs_whether_the_workers_or_this_process_compress(tmp_path):
    folder = tmp_path / "docs"
    make_corpus(folder, n=TRAIN_MAX_TEXTS + 60, dup_every=7, kept=True)
    found = []
    for workers in (1, 0):
        with Store.open(str(tmp_path / f"c{workers}.ndd")) as store:
            config = ScanConfig(roots=[Root(str(folder))], method="minhash", params={}, floor=0.3, workers=workers)
            ScanJob(store, config).run()
            found.append(pairs_by_path(store, "minhash"))
    assert found[0] == found[1] and len(found[0]) > 100
