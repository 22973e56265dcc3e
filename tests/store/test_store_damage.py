"""Damaged, foreign, read-only and full collection files: a clear error and a non-zero exit
in every command, never a traceback; ``ndd check``, ``ndd repair``; the review as a file."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from ndd_desktop.cli import commands
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.store import Root, Store, StoreDamaged, StoreError, StoreFull, StoreReadOnly
from cli_run import run
from disk_full import nearly_full

BASE = ("the harbour board agreed to repair the north pier before the winter storms arrive in the bay "
        "and the fishing fleet asked for a new slipway near the old customs house on the quay ")


@pytest.fixture
def collection(tmp_path, capsys):
    """A scanned collection of 30 near-identical texts (435 pairs) with two decisions."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(30):
        (folder / f"d{i:02}.txt").write_text(BASE * 3 + f" copy number {i} " * (i % 4))
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--workers", "0")[0] == 0
    with Store.open(db) as s:
        ids = sorted(d.id for d in s.documents.all())
        s.review.set_verdict(ids[0], ids[1], "not_duplicate", reviewer="ann")
        s.review.set_keeper(ids[2], True, reviewer="ann")
        s.settings.put("keeper_rule", "newest")
    return folder, db


def checkpointed(db) -> None:
    """Fold the WAL into the file, so damage written to the file is what SQLite reads."""
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def damage_table(db, table: str, keep_first: int = 1) -> int:
    """Overwrite the page headers of ``table``'s leaf pages after the first ``keep_first``
    (SQLite then reports "database disk image is malformed" for them); returns how many."""
    checkpointed(db)
    conn = sqlite3.connect(db)
    # SQLite's smallest usual pages, so the few rows of a test table span several
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA page_size = 1024")
    conn.execute("VACUUM")
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = [r[0] for r in conn.execute(
        "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", (table,))]
    conn.close()
    assert len(pages) > keep_first, f"{table} needs more than {keep_first} leaf pages for this test"
    with open(db, "r+b") as fh:
        for page in pages[keep_first:]:
            fh.seek((page - 1) * page_size)
            fh.write(b"\xff" * 16)
    return len(pages) - keep_first


def assert_clean_failure(status: int, err: str, *words: str) -> None:
    assert status == 1, err
    assert "Traceback" not in err and "sqlalchemy" not in err.lower()
    assert err.startswith("ndd: error: ") or "\nndd: error: " in err
    for word in words:
        assert word in err, err


def test_every_command_refuses_a_damaged_file_with_a_clear_message(collection, capsys, tmp_path):
    folder, db = collection
    assert damage_table(db, "documents") >= 1
    for argv in (["pairs"], ["clusters"], ["errors"], ["export", "--to", tmp_path / "out"]):
        status, _, err = run(capsys, *argv, "--db", db)
        assert_clean_failure(status, err, "is damaged", f"ndd check --db {db}", "ndd repair")
    status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
    assert_clean_failure(status, err, "is damaged")
    status, out, err = run(capsys, "check", "--db", db)
    assert status == 1 and "integrity check" in out and "problem:" in out


def test_pairs_cut_short_by_a_damaged_page_exits_1_after_what_it_printed(collection, capsys, monkeypatch):
    _, db = collection
    assert run(capsys, "pairs", "--db", db, "--threshold", "0")[1].count("\n") == 436  # header + 435 pairs
    damage_table(db, "pairs", keep_first=1)
    monkeypatch.setattr(commands, "PAGE", 1)  # fetch row by row, so rows before the damage are printed
    status, out, err = run(capsys, "pairs", "--db", db, "--threshold", "0")
    assert_clean_failure(status, err, "is damaged")
    lines = out.splitlines()
    assert lines[0].startswith("a,b,score")
    assert 1 <= len(lines) < 436  # a partial listing, and the exit status says so
    status, out, err = run(capsys, "pairs", "--db", db, "--threshold", "0", "--format", "json")
    assert_clean_failure(status, err, "is damaged")
    with pytest.raises(json.JSONDecodeError):  # never a well-formed (complete-looking) answer
        json.loads(out)


def test_a_truncated_file_is_refused_and_check_says_it_is_cut_short(collection, capsys):
    _, db = collection
    checkpointed(db)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    for argv in (["pairs"], ["clusters"], ["errors"]):
        status, _, err = run(capsys, *argv, "--db", db)
        assert status == 1 and "Traceback" not in err and str(db) in err
    status, out, _ = run(capsys, "check", "--db", db)
    assert status == 1 and "cut short" in out and f"{len(data) // 2:,} bytes" in out


def test_a_file_short_of_a_few_pages_is_refused_by_every_command(collection, capsys, tmp_path):
    """An interrupted copy short of its last pages opened as if whole: SQLite read what was
    there, and exports left out documents listed nowhere while a scan wrote into the file
    and hid the damage. Its header says how long it is: every command refuses it."""
    _, db = collection
    checkpointed(db)
    data = db.read_bytes()
    page_size = int.from_bytes(data[16:18], "big")
    db.write_bytes(data[: len(data) - page_size])
    for argv in (["pairs"], ["clusters"], ["export", "--to", str(tmp_path / "out")],
                 ["scan", str(tmp_path / "nothing")]):
        (tmp_path / "nothing").mkdir(exist_ok=True)
        status, _, err = run(capsys, *argv, "--db", db)
        assert status == 1 and "is cut short" in err and "ndd repair" in err, (argv, err)
    assert len(db.read_bytes()) == len(data) - page_size  # nothing written into it
    assert not (tmp_path / "out").exists()
    with pytest.raises(StoreDamaged, match="cut short"):
        Store.open(str(db))


def test_random_bytes_and_another_programs_database_are_not_collections(tmp_path, capsys):
    noise = tmp_path / "noise.ndd"
    noise.write_bytes(os.urandom(8192))
    status, _, err = run(capsys, "pairs", "--db", noise)
    assert_clean_failure(status, err, "not an ndd-desktop collection (not an SQLite file)")
    status, out, _ = run(capsys, "check", "--db", noise)
    assert status == 1 and "not an SQLite file" in out
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    status, _, err = run(capsys, "clusters", "--db", other)
    assert_clean_failure(status, err, "an SQLite file but not an ndd-desktop collection")
    status, out, _ = run(capsys, "check", "--db", other)
    assert status == 1 and "not an ndd-desktop collection" in out
    assert other.read_bytes() == before  # neither command changed the other program's file
    status, _, err = run(capsys, "repair", "--db", noise, "--to", tmp_path / "r.ndd")
    assert status == 1 and "nothing can be read" in err and not (tmp_path / "r.ndd").exists()


def test_a_garbled_text_is_reported_as_damage(collection):
    _, db = collection
    with Store.open(db) as s:
        doc_id = s.documents.all()[0].id
    conn = sqlite3.connect(db)
    conn.execute("UPDATE document_text SET data = ? WHERE doc_id = ?", (b"x\x9c garbled", doc_id))
    conn.commit()
    conn.close()
    with Store.open(db) as s, pytest.raises(StoreDamaged, match="is damaged"):
        s.documents.text(doc_id)


def test_repair_saves_the_review_first_and_a_rescan_makes_the_collection_whole(collection, capsys, tmp_path):
    folder, db = collection
    _, whole, _ = run(capsys, "pairs", "--db", db, "--threshold", "0")
    with Store.open(db) as s:
        review = s.review.export_dict()
    damage_table(db, "documents")
    fixed = tmp_path / "fixed.ndd"
    status, _, err = run(capsys, "repair", "--db", db, "--to", fixed)
    assert status == 0, err
    assert "decisions      2 saved, 0 lost" in err and "settings       2 saved, 0 lost" in err
    assert "documents" in err and "lost" in err and "not everything could be saved" in err
    assert run(capsys, "check", "--db", fixed)[0] == 0
    status, _, err = run(capsys, "scan", folder, "--db", fixed, "--workers", "0")
    assert status == 0, err
    _, again, _ = run(capsys, "pairs", "--db", fixed, "--threshold", "0")

    def pairs_by_path(text):
        rows = [line.split(",") for line in text.splitlines()[1:]]
        return sorted((min(r[0], r[1]), max(r[0], r[1]), r[2]) for r in rows)

    assert pairs_by_path(again) == pairs_by_path(whole)  # every pair, with its score, back
    with Store.open(fixed) as s:
        assert s.settings.get("keeper_rule") == "newest"
        kept = {s.documents.get(i).relpath for i in s.review.keepers()}
        verdicts = {(s.documents.get(a).relpath, s.documents.get(b).relpath): v for (a, b), v in s.review.verdicts().items()}
    assert kept == {review["decisions"][1]["a"]["path"]}  # re-attached to the same content
    first = review["decisions"][0]
    assert verdicts == {tuple(sorted((first["a"]["path"], first["b"]["path"]))): "not_duplicate"}


def test_repair_refuses_an_existing_destination(collection, capsys):
    _, db = collection
    status, _, err = run(capsys, "repair", "--db", db, "--to", db)
    assert status == 2 and "exists" in err


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_the_review_outlives_its_collection_file(collection, capsys, tmp_path, fmt):
    folder, db = collection
    review_file = tmp_path / f"review.{fmt}"
    status, _, err = run(capsys, "decisions", "export", review_file, "--db", db)
    # the keeper rule; not the record of how the files were read, which is the collection's own
    assert status == 0 and "wrote 2 decisions and 1 settings" in err
    with Store.open(db) as s:
        want_verdicts = {(s.documents.get(a).relpath, s.documents.get(b).relpath): v for (a, b), v in s.review.verdicts().items()}
        want_keepers = {s.documents.get(i).relpath for i in s.review.keepers()}
    db.unlink()
    fresh = tmp_path / "fresh.ndd"
    assert run(capsys, "scan", folder, "--db", fresh, "--workers", "0")[0] == 0
    status, _, err = run(capsys, "decisions", "import", review_file, "--db", fresh)
    assert status == 0 and "imported 2 decisions and 1 settings; 0 kept" in err and "; 0 name content" in err
    with Store.open(fresh) as s:
        assert {(s.documents.get(a).relpath, s.documents.get(b).relpath): v for (a, b), v in s.review.verdicts().items()} == want_verdicts
        assert {s.documents.get(i).relpath for i in s.review.keepers()} == want_keepers == {"d02.txt"}
        assert s.settings.get("keeper_rule") == "newest"
    # Importing again changes nothing: the collection's decisions are as new.
    status, _, err = run(capsys, "decisions", "import", review_file, "--db", fresh)
    assert status == 0 and "imported 0 decisions" in err and "2 kept as they were" in err


def test_a_read_only_file_opens_for_reading_and_refuses_writes(collection, capsys):
    folder, db = collection
    checkpointed(db)
    os.chmod(db, 0o444)
    os.chmod(db.parent, 0o555)
    try:
        # As root, chmod does not stop writes (os.access says writable), so the automatic
        # detection cannot be seen; the read-only path is then opened explicitly.
        automatic = not os.access(db, os.W_OK)
        with Store.open(db, read_only=None if automatic else True) as s:
            assert s.read_only
            assert len(s.documents.all()) == 30 and s.pairs.count("qgram", s.pairs.sets()[0].pairs_key, 0.0) == 435
            with pytest.raises(StoreReadOnly, match="read-only"):
                s.review.set_verdict(1, 2, "duplicate")
            with pytest.raises(StoreReadOnly):
                s.settings.put("keeper_rule", "oldest")
        if automatic:
            assert run(capsys, "pairs", "--db", db)[0] == 0
            status, _, err = run(capsys, "scan", folder, "--db", db)
            assert status == 1 and "read-only" in err
    finally:
        os.chmod(db.parent, 0o755)
        os.chmod(db, 0o644)


def test_a_scan_that_fills_the_disk_keeps_what_it_had_committed(collection, tmp_path):
    folder, db = collection
    with Store.open(db) as s:
        before = {d.relpath: d.id for d in s.documents.all()}
    more = tmp_path / "more"
    cap = nearly_full(db, more)
    roots = [Root(str(folder)), Root(str(more))]
    # the cap makes SQLite fail with SQLITE_FULL exactly as a full disk does, at the first
    # batch that does not fit
    with Store.open(db, max_pages=cap) as s:
        with pytest.raises(StoreFull, match="the disk is full"):
            ScanJob(s, ScanConfig(roots=roots, method="qgram", workers=0)).run()
    with Store.open(db) as s:
        assert s.integrity_check() == "ok"
        assert {d.relpath: d.id for d in s.documents.all() if d.root == str(folder)} == before
        assert len(s.review.verdicts()) == 1 and len(s.review.keepers()) == 1
        summary = ScanJob(s, ScanConfig(roots=roots, method="qgram", workers=0)).run()
    assert summary.documents == 70 and summary.unchanged >= 30


def test_store_errors_name_the_file(tmp_path):
    path = tmp_path / "x.ndd"
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(4000))
    with pytest.raises(StoreError) as info:
        with Store.open(path) as s:
            s.documents.all()
    assert str(path) in str(info.value)


def test_changes_left_in_a_journal_on_read_only_media_are_said_to_be_unread(tmp_path):
    """On read-only media SQLite opens the file as immutable and does not read its -wal:
    the commands answered from the file without the reviewer's last decisions, and said
    nothing. (As root a folder cannot be made read-only here, so the condition is given.)"""
    from ndd_desktop.store.engine import unread_journal

    db = tmp_path / "c.ndd"
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (x)")
    writer.execute("INSERT INTO t VALUES (1)")
    writer.commit()  # still in the -wal while this connection is open
    try:
        assert (tmp_path / "c.ndd-wal").stat().st_size > 0
        why = unread_journal(str(db), folder_writable=False)
        assert why.startswith(f"its latest changes are in {db}-wal (") and "copy the collection file" in why
        assert unread_journal(str(db), folder_writable=True) == ""  # SQLite reads it there
    finally:
        writer.close()
    assert not (tmp_path / "c.ndd-wal").exists() or (tmp_path / "c.ndd-wal").stat().st_size == 0
    assert unread_journal(str(db), folder_writable=False) == ""  # folded in: nothing unread


def test_a_file_cut_short_gives_up_its_review_to_repair(collection, capsys, tmp_path):
    """An interrupted copy: SQLite refused the whole file, and repair saved nothing,
    though the review lay in the bytes that were there."""
    _, db = collection
    checkpointed(db)
    with Store.open(db) as s:
        want = s.review.export_dict()["decisions"]
    assert want  # the fixture's two decisions
    cut = tmp_path / "cut.ndd"
    data = db.read_bytes()
    cut.write_bytes(data[: len(data) * 2 // 3])
    fixed = tmp_path / "fixed.ndd"
    status, _, err = run(capsys, "repair", "--db", cut, "--to", fixed)
    assert status == 0, err
    assert "is cut short (" in err and "read as if the missing bytes were empty" in err
    with Store.open(fixed) as s:
        got = s.review.export_dict()["decisions"]
    assert sorted((d["kind"], d["value"]) for d in got) == sorted((d["kind"], d["value"]) for d in want)
    assert [p.name for p in tmp_path.iterdir() if "cut-short" in p.name] == []  # the padded copy is gone


def test_check_and_repair_refuse_a_folder_as_every_command_does(capsys, tmp_path):
    # check said "problem: no collection file at DIR" and advised a repair (exit 1)
    for command in (["check"], ["repair", "--to", tmp_path / "new.ndd"]):
        status, out, err = run(capsys, *command, "--db", tmp_path)
        assert status == 2 and "is a folder, not a collection file" in err and "problem" not in out
    status, _, err = run(capsys, "check", "--db", tmp_path / "missing.ndd")
    assert status == 2 and "no collection file at" in err


def test_a_disk_io_error_on_a_full_disk_is_a_full_disk():
    """With a few KB free SQLite cannot make its shared-memory file and says "disk I/O
    error": every command called the whole file damaged and advised a repair."""
    from ndd_desktop.store.engine import NEARLY_FULL_BYTES, disk_io_from_full_disk

    assert disk_io_from_full_disk("disk i/o error", 16 * 1024)
    assert not disk_io_from_full_disk("disk i/o error", 10 * NEARLY_FULL_BYTES)  # a real fault: as before
    assert not disk_io_from_full_disk("database disk image is malformed", 16 * 1024)
    assert not disk_io_from_full_disk("disk i/o error", None)


def test_a_first_page_gone_leaves_the_review_to_its_copy(collection, capsys, tmp_path):
    """Zeroing the file's first page made the whole file unreadable: repair saved nothing and
    the review, the one part no rescan gives back, was gone. Every decision also writes the
    review beside the file; repair names it, and an import brings it into a rescanned copy."""
    folder, db = collection
    copy = tmp_path / "c.ndd.review.json"
    assert copy.exists()
    written = json.loads(copy.read_text())
    assert sorted(d["kind"] for d in written["decisions"]) == ["keeper", "verdict"]
    assert written["settings"].get("keeper_rule") in (None, "newest")  # settings go with the next decision
    checkpointed(db)
    data = bytearray(db.read_bytes())
    data[:4096] = bytes(4096)
    db.write_bytes(bytes(data))
    status, _, err = run(capsys, "repair", "--db", db, "--to", tmp_path / "fixed.ndd")
    assert status == 1 and "the review is not lost: its copy (2 decisions) lies at" in err, err
    new = tmp_path / "new.ndd"
    assert run(capsys, "scan", folder, "--db", new, "--workers", "0")[0] == 0
    status, _, err = run(capsys, "decisions", "--db", new, "import", copy)
    assert status == 0, err
    with Store.open(new) as s:
        assert len(s.review.verdicts()) == 1 and len(s.review.keepers()) == 1


def test_the_review_copy_follows_each_decision_and_never_fails_one(tmp_path):
    with Store.open(str(tmp_path / "c.ndd")) as s:
        s.review.set_keeper(1, True)
    copy = tmp_path / "c.ndd.review.json"
    assert len(json.loads(copy.read_text())["decisions"]) == 1
    copy.unlink()
    copy.mkdir()  # the copy cannot be written: the decision is made all the same
    with Store.open(str(tmp_path / "c.ndd")) as s:
        s.review.set_keeper(2, True)
        assert [d.a for d in s.review.history()] == [1, 2]
    assert copy.is_dir() and not (tmp_path / "c.ndd.review.json.part").exists()


def test_repair_drops_a_garbled_document_row_so_the_next_scan_reads_its_file(collection, capsys, tmp_path):
    """A damaged page gave back a document row the schema took (status "\\x00\\x00", no
    hashes): repair kept it, its file was never read again and its pairs were gone for good."""
    folder, db = collection
    checkpointed(db)
    conn = sqlite3.connect(db)
    (doc_id, rel) = conn.execute("SELECT id, relpath FROM documents ORDER BY id LIMIT 1 OFFSET 5").fetchone()
    conn.execute("UPDATE documents SET status = ?, xxh128 = '', sha256 = '' WHERE id = ?", ("\x00\x00", doc_id))
    conn.commit()
    conn.close()
    fixed = tmp_path / "fixed.ndd"
    status, _, err = run(capsys, "repair", "--db", db, "--to", fixed)
    assert status == 0, err
    with Store.open(str(fixed)) as s:
        assert all(d.status in ("ok", "skipped", "error") for d in s.documents.all(status=None))
        assert doc_id not in {d.id for d in s.documents.all(status=None)}
    status, _, err = run(capsys, "scan", folder, "--db", fixed, "--workers", "0")
    assert status == 0 and "1 new" in err, err  # the file is read again
    with Store.open(str(fixed)) as s:
        assert any(d.relpath.endswith(str(rel).split("/")[-1]) and d.status == "ok" for d in s.documents.all())


def test_a_repair_stopped_half_way_leaves_no_destination(collection, capsys, tmp_path, monkeypatch):
    """A repair killed between tables left a file at the destination that ndd check called
    whole, with no documents in it. The repair writes under another name until it is done."""
    from ndd_desktop.store import repair

    _, db = collection
    fixed = tmp_path / "fixed.ndd"

    def stop(*_args):
        raise KeyboardInterrupt  # as a Ctrl-C between two tables

    monkeypatch.setattr(repair, "_make_consistent", stop)
    with pytest.raises(KeyboardInterrupt):
        repair.repair_collection(str(db), str(fixed))
    assert not fixed.exists()
    monkeypatch.undo()
    status, _, err = run(capsys, "repair", "--db", db, "--to", fixed)  # the same command again
    assert status == 0, err
    assert fixed.exists() and not (tmp_path / "fixed.ndd.repairing").exists()
    with Store.open(str(fixed)) as s:
        assert s.documents.count(status=None) == 30


def test_an_import_names_the_decisions_it_could_not_apply(collection, capsys, tmp_path):
    """"2 name content this collection does not hold" left the user to guess which."""
    folder, db = collection
    review_file = tmp_path / "review.json"
    assert run(capsys, "decisions", "export", review_file, "--db", db)[0] == 0
    with Store.open(db) as s:
        (kept,) = [s.documents.get(i).relpath for i in s.review.keepers()]
    (folder / kept).write_text("a different text altogether, about the harbour dues")  # its content is gone
    fresh = tmp_path / "fresh.ndd"
    assert run(capsys, "scan", folder, "--db", fresh, "--workers", "0")[0] == 0
    status, _, err = run(capsys, "decisions", "import", review_file, "--db", fresh)
    assert status == 0 and "; 1 name content this collection does not hold" in err
    assert f"  not applied: keeper keep: {folder}/{kept}" in err, err


def test_the_review_copy_is_written_at_most_every_few_seconds_and_on_close(tmp_path):
    """Written at every decision, the copy cost 0.5 s a verdict with 10,000 decisions in the
    review: it is written at most every review_copy.EVERY_S seconds, and when the store closes."""
    copy = tmp_path / "c.ndd.review.json"
    with Store.open(str(tmp_path / "c.ndd")) as s:
        s.review.set_keeper(1, True)
        assert len(json.loads(copy.read_text())["decisions"]) == 1  # the first at once
        s.review.set_keeper(2, True)
        assert len(json.loads(copy.read_text())["decisions"]) == 1  # the next waits
    assert len(json.loads(copy.read_text())["decisions"]) == 2  # written when the store closed


def test_repair_keeps_the_e_mail_headers_and_check_counts_every_table(capsys, tmp_path):
    # the repair did not copy the messages' headers, and the next scan, finding the mail
    # files unchanged, did not read them again: every thread fell apart for good
    folder = tmp_path / "mail"
    folder.mkdir()
    body = BASE * 2
    from mail_files import quote, write_message

    write_message(folder / "a.eml", sender="ann@example.org", subject="Pier", mid="a@x",
                  date="1 Mar 2021 10:00:00 +0000", body=body)
    write_message(folder / "b.eml", sender="bob@example.org", subject="Re: Pier", mid="b@x", in_reply_to="a@x",
                  date="2 Mar 2021 10:00:00 +0000", body=f"Agreed.\n\n{quote(body)}")
    db = tmp_path / "m.ndd"
    assert run(capsys, "scan", folder, "--db", db, "--workers", "0")[0] == 0
    _, before, _ = run(capsys, "threads", "--db", db)
    status, out, err = run(capsys, "check", "--db", db)
    assert status == 0 and "email_headers  2 rows" in out and "content_facts" in out
    fixed = tmp_path / "fixed.ndd"
    status, _, err = run(capsys, "repair", "--db", db, "--to", fixed)
    assert status == 0 and "email_headers  2 saved, 0 lost" in err
    assert run(capsys, "scan", folder, "--db", fixed, "--workers", "0")[0] == 0
    _, after, _ = run(capsys, "threads", "--db", fixed)
    threads = {line.split(",")[0] for line in before.splitlines()[1:]}
    assert after == before and threads == {"1"} and ",no," in before  # one thread, the first contained


def test_check_names_a_newer_schema_as_such_and_repair_refuses_a_missing_folder(collection, capsys, tmp_path):
    # check ended "is damaged or not a collection ... ndd repair" for a file a newer release
    # wrote, and repair into a folder that does not exist exited 1 where every other missing
    # folder is refused with 2
    _, db = collection
    checkpointed(db)
    newer = tmp_path / "newer.ndd"
    newer.write_bytes(db.read_bytes())
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE alembic_version SET version_num = '0099'")
    conn.commit()
    conn.close()
    status, out, err = run(capsys, "check", "--db", newer)
    assert status == 1 and "problem: schema 0099 is newer than this release knows" in out
    assert "written by a newer ndd-desktop (schema 0099): upgrade this one to open it" in err
    assert "repair" not in err
    status, _, err = run(capsys, "repair", "--db", db, "--to", tmp_path / "no-such-folder" / "r.ndd")
    assert status == 2 and "does not exist" in err and err.count("\n") == 1
