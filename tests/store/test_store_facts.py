"""``store.facts``: an answer is kept until a row it rests on changes, whoever writes it,
and an answer read before a change is never written after it."""

from __future__ import annotations

import sqlite3

from storehelp import doc

from ndd_desktop.ingest.reasons import CRASHED
from ndd_desktop.store import Listing, Root, Store
from ndd_desktop.store.facts import LISTING

PAIRS, SKETCHED = "pairs:x", "sketched:m:k"


def _collection(path) -> tuple[Store, list[int]]:
    store = Store.open(path)
    store.documents.set_roots([Root("/r"), Root("/s")])
    ids = store.scans.write_documents([doc("/r", "a.txt", "h1", size=3, mtime_ns=5, sketch=b"s"),
                                       doc("/r", "b.txt", "h2", size=4, mtime_ns=6)], "m", "k")
    return store, ids


def _keep_all(store: Store) -> None:
    for key in (LISTING, PAIRS, SKETCHED):
        assert store.facts.settle(key, store.facts.ticket(key), f"answer {key}")


def _kept(store: Store) -> set[str]:
    return {k for k in (LISTING, PAIRS, SKETCHED) if store.facts.get(k) is not None}


def _raw(path, sql: str, args=()) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = ON")  # as the store writes: a file's documents go with it
    con.execute(sql, args)
    con.commit()
    con.close()


def test_each_change_deletes_the_answers_that_rest_on_it(tmp_path):
    path = tmp_path / "c.ndd"
    store, (a, _) = _collection(path)
    with store:
        changes = [  # (a write by another program, the answers left after it)
            ("UPDATE files SET mtime_ns = 7 WHERE relpath = 'a.txt'", {PAIRS, SKETCHED}),
            ("DELETE FROM files WHERE relpath = 'b.txt'", set()),  # its document goes with it
            ("DELETE FROM sketches WHERE doc_id = ?", {LISTING}),
            ("UPDATE documents SET xxh128 = 'h9' WHERE id = ?", set()),
            # rows added: seen by the answers' stamps, not by triggers
            ("INSERT INTO files (root_id, relpath, size, mtime_ns) VALUES (1, 'c.txt', 1, 1)", set()),
            (("INSERT INTO documents (file_id, root_id, relpath, size, mtime_ns, format, xxh128, sha256, text_length, "
              "status, reason) VALUES (1, 1, 'c.txt', 1, 1, 'txt', 'h3', '', 0, 'ok', '')"), set()),
            ("UPDATE roots SET reference = 1 WHERE path = '/s'", set()),
            ("UPDATE roots SET path = '/t' WHERE path = '/s'", set()),
            ("DELETE FROM roots WHERE path = '/t'", set()),
            ("INSERT INTO roots (path, reference, position) VALUES ('/u', 0, 5)", set()),
            # what a scan writes on every run, and what review writes: nothing rests on it
            ("UPDATE roots SET position = position + 1", {LISTING, PAIRS, SKETCHED}),
            ("UPDATE sketches SET data = x'01'", {LISTING, PAIRS, SKETCHED}),  # no answer rests on the bytes
            ("INSERT INTO settings (key, value) VALUES ('x', '1')", {LISTING, PAIRS, SKETCHED}),
        ]
        for sql, left in changes:
            _keep_all(store)
            _raw(path, sql, (a,) if "?" in sql else ())
            assert _kept(store) == left, sql
        _keep_all(store)  # a sketch added through the store (a rescan's catch-up) fires no trigger
        store.sketches.put("m", "k3", [(a, b"s")])
        assert _kept(store) == {LISTING}


def test_an_answer_found_before_a_change_is_not_kept(tmp_path):
    path = tmp_path / "c.ndd"
    store, (a, _) = _collection(path)
    with store:
        ticket = store.facts.ticket(PAIRS)
        assert store.facts.get(PAIRS) is None  # a ticket is no answer
        store.sketches.put("m", "k2", [(a, b"s")])  # a change while the answer was being found
        assert store.facts.settle(PAIRS, ticket, "current") is False
        assert store.facts.get(PAIRS) is None
        ticket = store.facts.ticket(PAIRS)
        assert store.facts.settle(PAIRS, ticket, "current") and store.facts.get(PAIRS) == "current"
        assert store.facts.settle(PAIRS, ticket, "again") is False  # a ticket serves once
        ticket = store.facts.ticket(SKETCHED)
        store.scans.write_documents([doc("/r", "c.txt", "h3")], "m", "k")  # a document added meanwhile
        assert store.facts.settle(SKETCHED, ticket, "every document")
        assert store.facts.get(SKETCHED) is None  # kept with the stamp of before the document


def test_a_listing_is_kept_only_when_the_file_records_match_it(tmp_path):
    store, _ = _collection(tmp_path / "c.ndd")
    with store:
        sums = Listing("d1", 2, 3 + 4, 5 + 6)
        assert not store.scans.keep_listing(sums._replace(files=3))  # a walked file without a record
        assert not store.scans.keep_listing(sums._replace(bytes=8))
        assert not store.scans.keep_listing(sums._replace(mtimes=12))
        assert store.scans.recorded_listing() is None
        assert store.scans.keep_listing(sums) and store.scans.recorded_listing() == "d1"
        store.scans.touch_files([(1, 3, 9)])
        assert store.scans.recorded_listing() is None


def test_files_saved_again_unchanged_keep_every_answer_but_the_listing(tmp_path):
    """A rescan that found files with new times and the same content gives their records
    and documents the new times (and dates); no answer but the listing rests on them, so
    the pair set is not taken for changed. A ticket is kept as it was, and an update of
    anything else in a document still deletes every answer."""
    store, (a, b) = _collection(tmp_path / "c.ndd")
    with store:
        _keep_all(store)
        ticket = store.facts.ticket("pairs:y")
        store.scans.touch_files([(1, 3, 900_000_000_000)])
        assert _kept(store) == {PAIRS, SKETCHED}
        assert store.documents.get(a).mtime_ns == 900_000_000_000  # the document did take the time
        assert store.facts.settle("pairs:y", ticket, "found") and store.facts.get("pairs:y") == "found"
        _raw(tmp_path / "c.ndd", "UPDATE documents SET status = 'error' WHERE id = ?", (b,))
        assert _kept(store) == set()


def test_a_listing_is_not_kept_while_a_file_waits_to_be_read_again(tmp_path):
    store = Store.open(tmp_path / "c.ndd")
    with store:
        store.documents.set_roots([Root("/r")])
        failed = doc("/r", "a.txt", "h1", status="error", size=3, mtime_ns=5)
        failed.reason = f"{CRASHED} (signal 9)"
        store.scans.write_documents([failed], "m", "k")
        listing = Listing("d1", 1, 3, 5)
        assert not store.scans.keep_listing(listing, [CRASHED])
        assert store.scans.keep_listing(listing, [])  # a failure that is not retried


def test_a_read_only_collection_keeps_nothing_and_says_so(tmp_path):
    path = tmp_path / "c.ndd"
    store, _ = _collection(path)
    store.close()
    with Store.open(path, read_only=True) as store:
        assert store.facts.ticket(PAIRS) is None
        assert store.facts.settle(PAIRS, None, "x") is False
        assert store.scans.keep_listing(Listing("d1", 2, 7, 11)) is False
        assert store.facts.get(PAIRS) is None


def test_a_0008_file_gains_the_table_and_its_triggers(tmp_path):
    path = tmp_path / "old.ndd"
    Store.open(path, revision="0008").close()
    with Store.open(path) as store:
        assert store.schema_revision() == "0009"
        store.documents.set_roots([Root("/r")])
        store.scans.write_documents([doc("/r", "a.txt", "h1", size=3, mtime_ns=5)], "m", "k")
        assert store.scans.keep_listing(Listing("d1", 1, 3, 5))
        store.scans.touch_files([(1, 3, 6)])
        assert store.scans.recorded_listing() is None


def test_the_count_of_tables_is_kept_until_a_document_changes(tmp_path):
    path = tmp_path / "c.ndd"
    store, (a, b) = _collection(path)
    with store:
        kinds = (("xlsx",), (".csv",))
        assert store.documents.count_kinds(*kinds) == (0, 2)
        assert store.facts.get("kinds:xlsx|.csv") == "0/2"  # kept: an unchanged rescan does not count again
        _raw(path, "UPDATE documents SET relpath = 'a.CSV' WHERE id = ?", (a,))
        assert store.documents.count_kinds(*kinds) == (1, 2)
        store.scans.write_documents([doc("/r", "c.csv", "h3")], "m", "k")  # a document added
        assert store.documents.count_kinds(*kinds) == (2, 3)
        _raw(path, "UPDATE documents SET status = 'error' WHERE id = ?", (b,))
        assert store.documents.count_kinds(*kinds) == (2, 2)
