"""Opening stores: files, pragmas, refusals, schema versions and migrations."""

from __future__ import annotations

import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from ndd_desktop.store import Root, Store, StoreError
from ndd_desktop.store import engine as store_engine
from ndd_desktop.store.models import Base


def test_memory_store_is_at_head_and_healthy(store):
    assert store.schema_revision() == store_engine.HEAD_REVISION
    assert store.integrity_check() == "ok"
    assert store.documents.roots() == [] and store.scans.runs() == [] and store.scans.last_method() is None


def test_file_store_uses_wal_and_keeps_data(tmp_path):
    path = tmp_path / "c.ndd"
    s = Store.open(path)
    s.documents.set_roots([Root("/data/a"), Root("/data/ref", True)])
    s.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()
    s = Store.open(path, create=False)
    assert s.documents.roots() == [Root("/data/a", False), Root("/data/ref", True)]
    with s._read() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
    s.close()


def test_missing_file_without_create(tmp_path):
    with pytest.raises(StoreError, match="no collection file"):
        Store.open(tmp_path / "nope.ndd", create=False)


def test_refuses_a_file_that_is_not_sqlite(tmp_path):
    bad = tmp_path / "notes.ndd"
    bad.write_text("hello, this is not a database at all")
    with pytest.raises(StoreError, match="not an ndd-desktop collection"):
        Store.open(bad)


def test_an_empty_file_is_refused_unless_a_collection_is_to_be_made(tmp_path):
    empty = tmp_path / "copy.ndd"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match=r"is empty \(0 bytes\)"):
        Store.open(str(empty), create=False)
    assert empty.stat().st_size == 0
    with Store.open(str(empty)) as store:  # a scan into it (create) makes the collection, as before
        assert store.documents.count(status=None) == 0


def test_refuses_a_folder(tmp_path):
    with pytest.raises(StoreError, match="folder"):
        Store.open(tmp_path)


def test_refuses_a_foreign_sqlite_database(tmp_path):
    other = tmp_path / "other.db"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE t (x)")
    raw.commit()
    raw.close()
    before = other.read_bytes()
    with pytest.raises(StoreError, match="not an ndd-desktop collection"):
        Store.open(other)
    assert other.read_bytes() == before  # refused untouched: not even switched to WAL mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "new.ndd"
    Store.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute("UPDATE alembic_version SET version_num = '0099'")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"newer or another ndd-desktop \(schema '0099', this release "
                                         r"knows up to '\d{4}'\); upgrade to open it"):
        Store.open(path)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE alembic_version SET version_num = 'abcd_feature'")  # a branch's id
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"\(schema 'abcd_feature', this release knows up to"):
        Store.open(path)


def test_head_revision_matches_the_migration_scripts():
    cfg = Config()
    cfg.set_main_option("script_location", str(store_engine.MIGRATIONS_DIR))
    script = ScriptDirectory.from_config(cfg)
    assert script.get_current_head() == store_engine.HEAD_REVISION
    assert [s.revision for s in script.walk_revisions()][-1] == store_engine.FIRST_REVISION


def test_migrated_schema_matches_the_models(tmp_path):
    s = Store.open(tmp_path / "m.ndd")
    with s._engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    s.close()
    assert diff == []


def test_upgrade_from_the_first_schema_keeps_data(tmp_path):
    path = tmp_path / "old.ndd"
    old = Store.open(path, revision=store_engine.FIRST_REVISION)
    assert old.schema_revision() == "0001"
    old.close()
    raw = sqlite3.connect(path)
    assert "ix_documents_xxh128" not in {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    raw.execute("INSERT INTO roots (id, path, reference, position) VALUES (1, '/r', 0, 0)")
    raw.execute("INSERT INTO files (id, root_id, relpath, size, mtime_ns, xxh128) VALUES (1, 1, 'a.txt', 3, 5, 'x')")
    raw.execute(
        "INSERT INTO documents (id, file_id, root_id, relpath, container, size, mtime_ns, date, format, xxh128, "
        "sha256, text_length, status, reason) VALUES (1, 1, 1, 'a.txt', NULL, 3, 5, NULL, 'txt', 'x', 's', 3, 'ok', '')"
    )
    raw.execute(
        "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
        "VALUES (1.0, 'ann', 'keeper', 1, NULL, 'x', '', 'keep', '')"
    )
    raw.commit()
    raw.close()
    s = Store.open(path)
    assert s.schema_revision() == store_engine.HEAD_REVISION
    assert [d.relpath for d in s.documents.all()] == ["a.txt"]
    assert s.review.keepers() == {1}
    with s._read() as conn:
        names = {r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"ix_documents_xxh128", "ix_decisions_kind_a_b"} <= names
    assert s.integrity_check() == "ok"
    s.close()
