"""Stored texts: zstd frames with the collection's dictionary, older zlib rows still read."""

from __future__ import annotations

import random
import sqlite3
import zlib

import pytest
from storehelp import add_root, doc

from ndd_desktop.store import Root, Store, StoreDamaged
from ndd_desktop.store.text_codec import TRAIN_MIN_TEXTS, ZSTD_MAGIC

WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at which but have an "
         "they you were her she there been one all we their has would when if so no will more can out its about "
         "harbour council minutes parish record letter survey river bridge market village railway station").split()


def prose(seed: int, words: int = 700) -> str:
    """English-like text of common words (about 4 KB)."""
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(words)) + "."


def raw(store: Store, sql: str, args=()):
    con = sqlite3.connect(store.path)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def test_texts_come_back_exactly_and_take_less_room_than_zlib(file_store):
    add_root(file_store, Root("/r"))
    texts = [prose(k) for k in range(150)]
    texts[7] = "Ünïcödé, 漢字 and a lone surrogate \udce9 survive."  # surrogateescape'd names do too
    ids = file_store.scans.write_documents([doc("/r", f"d{k}.txt", text=t) for k, t in enumerate(texts)], "m", "k")
    assert file_store.documents.texts(ids) == dict(zip(ids, texts))
    assert file_store.documents.text(ids[7]) == texts[7]
    (dicts,) = raw(file_store, "SELECT COUNT(*) FROM text_dictionaries")
    assert dicts == (1,)  # trained on the first batch large enough
    blobs = [b for (b,) in raw(file_store, "SELECT data FROM document_text")]
    assert all(b.startswith(ZSTD_MAGIC) for b in blobs)
    zlib_size = sum(len(zlib.compress(t.encode("utf-8", "surrogatepass"), 1)) for t in texts)
    assert sum(map(len, blobs)) < 0.9 * zlib_size


def test_a_later_small_write_uses_the_dictionary_and_a_new_store_reads_it(tmp_path):
    path = tmp_path / "c.ndd"
    with Store.open(path) as s:
        add_root(s, Root("/r"))
        s.scans.write_documents([doc("/r", f"d{k}.txt", text=prose(k)) for k in range(TRAIN_MIN_TEXTS)], "m", "k")
        (new,) = s.scans.write_documents([doc("/r", "late.txt", text=prose(999))], "m", "k")
    with Store.open(path) as s:  # nothing cached: the dictionary is read from the file
        assert s.documents.text(new) == prose(999)
        (dict_id,) = raw(s, "SELECT id FROM text_dictionaries")[0]
        import zstandard
        (blob,) = raw(s, "SELECT data FROM document_text WHERE doc_id = ?", (new,))[0]
        assert zstandard.get_frame_parameters(blob).dict_id == dict_id


def test_a_few_texts_are_stored_without_a_dictionary(store):
    add_root(store, Root("/r"))
    ids = store.scans.write_documents([doc("/r", f"d{k}.txt", text=prose(k, 20)) for k in range(3)], "m", "k")
    assert store.documents.texts(ids) == {i: prose(k, 20) for k, i in enumerate(ids)}
    with store._read() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM text_dictionaries").scalar_one() == 0


def test_a_zlib_text_of_an_older_file_is_still_read(file_store):
    add_root(file_store, Root("/r"))
    (i,) = file_store.scans.write_documents([doc("/r", "a.txt", text="new")], "m", "k")
    con = sqlite3.connect(file_store.path)
    con.execute("UPDATE document_text SET data = ? WHERE doc_id = ?", (zlib.compress("old text".encode(), 1), i))
    con.commit()
    con.close()
    assert file_store.documents.text(i) == "old text" and file_store.documents.texts([i]) == {i: "old text"}


def test_a_garbled_text_or_a_missing_dictionary_is_damage(file_store):
    add_root(file_store, Root("/r"))
    ids = file_store.scans.write_documents([doc("/r", f"d{k}.txt", text=prose(k)) for k in range(120)], "m", "k")
    con = sqlite3.connect(file_store.path)
    (blob,) = con.execute("SELECT data FROM document_text WHERE doc_id = ?", (ids[0],)).fetchone()
    garbled = blob[:20] + bytes(b ^ 0x55 for b in blob[20:40]) + blob[40:]
    con.execute("UPDATE document_text SET data = ? WHERE doc_id = ?", (garbled, ids[0]))
    con.commit()
    with pytest.raises(StoreDamaged, match="is damaged"):
        file_store.documents.text(ids[0])
    con.execute("DELETE FROM text_dictionaries")
    con.commit()
    con.close()
    with Store.open(file_store.path) as fresh, pytest.raises(StoreDamaged, match="dictionary"):
        fresh.documents.texts([ids[1]])
