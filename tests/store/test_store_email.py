"""The email_headers table: written with the document, read back, removed with it; migration 0005."""

from __future__ import annotations

import sqlite3

from ndd_desktop.store import DocWrite, Root, Store


def write(store, relpath, email, doc_id=None):
    d = DocWrite(root="/r", file_relpath=relpath.split("!")[0], file_size=1, file_mtime_ns=1, file_xxh128=None,
                 relpath=relpath, container=None if "!" not in relpath else relpath.split("!")[0], size=1,
                 mtime_ns=1, date=None, format="eml", xxh128="x", sha256="y", text_length=1, status="ok",
                 reason="", doc_id=doc_id, text="t", email=email)
    return store.scans.write_documents([d], "exact", "k")[0]


def test_headers_written_replaced_and_removed(tmp_path):
    with Store.open(tmp_path / "c.ndd") as store:
        store.documents.set_roots([Root("/r")])
        h = {"message_id": "<1@x>", "in_reply_to": "", "references": "<0@x>", "subject": "Hi", "from": "a",
             "date": "Mon, 03 Jan 2022 10:00:00 +0000"}
        doc = write(store, "a.eml", h)
        (got,) = store.emails.headers()
        assert (got.doc_id, got.relpath, got.message_id, got.references, got.subject, got.sender) == \
            (doc, "a.eml", "<1@x>", "<0@x>", "Hi", "a")
        write(store, "a.eml", None, doc_id=doc)  # the file is no message any more
        assert store.emails.headers() == []
        write(store, "a.eml", dict(h, subject="Again"), doc_id=doc)
        assert [e.subject for e in store.emails.headers()] == ["Again"]
        store.documents.set_roots([])  # the root goes: its documents and their headers with it
        assert store.emails.headers() == []


def test_a_0004_file_gains_the_table(tmp_path):
    path = tmp_path / "old.ndd"
    Store.open(path, revision="0004").close()
    raw = sqlite3.connect(path)
    assert "email_headers" not in {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    raw.close()
    with Store.open(path) as store:
        assert store.schema_revision() == "0009" and store.emails.headers() == []
