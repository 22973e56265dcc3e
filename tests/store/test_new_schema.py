"""A new collection gets its schema from store/schema.sql in one script; that script is
what the migrations leave in an empty file, and a file made from it opens, migrates
nowhere and takes documents like any other."""

import sqlite3

from ndd_desktop.store import Store
from ndd_desktop.store.engine import HEAD_REVISION
from ndd_desktop.store.new_schema import dump, migrated_dump


def test_the_script_is_what_the_migrations_make():
    with sqlite3.connect(":memory:") as conn:
        from ndd_desktop.store.new_schema import create

        create(conn)
        made = dump(conn)
    assert made == migrated_dump(), (
        "store/schema.sql differs from what the migrations make: after adding a migration, write it again "
        "with `python -m ndd_desktop.store.new_schema`")
    assert f"INSERT INTO \"alembic_version\" VALUES('{HEAD_REVISION}');" in made


def test_a_new_collection_is_made_without_alembic(tmp_path):
    from fresh_python import fresh_python

    path = tmp_path / "new.ndd"
    script = ("import sys\nfrom ndd_desktop.store import Store\n"
              f"Store.open({str(path)!r}).close()\n"
              "print(any(m == 'alembic' or m.startswith('alembic.') for m in sys.modules))")
    assert fresh_python(script).strip() == "False"
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD_REVISION,)]
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 16_384
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        with sqlite3.connect(":memory:") as ref:
            from ndd_desktop.store.new_schema import create

            create(ref)
            assert dump(conn) == dump(ref)
    with Store.open(path) as store:  # opens as it is, and works
        assert store.documents.count(status=None) == 0


def test_a_disk_full_while_the_schema_is_written_leaves_a_file_that_opens_later(tmp_path):
    import pytest

    from ndd_desktop.store import StoreFull

    path = tmp_path / "full.ndd"
    with pytest.raises(StoreFull, match="disk is full"):
        Store.open(path, max_pages=3)  # the script needs more pages than that
    with Store.open(path) as store:  # the script ran as one transaction: none of it stayed
        assert store.documents.count(status=None) == 0
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD_REVISION,)]
