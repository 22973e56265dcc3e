"""Settings kept in the collection file: JSON round trip, durability, the 0004 migration."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from ndd_desktop.store import Store
from ndd_desktop.store import engine as store_engine


def test_round_trip_of_json_values(store):
    assert store.settings.get("keeper_rule") is None
    assert store.settings.get("keeper_rule", "reference-oldest") == "reference-oldest"
    values = {
        "threshold/minhash/abc123": 0.62,
        "keeper_rule": "oldest",
        "grouping": "principal",
        "flags": {"b": [1, 2], "a": True},
        "nothing": None,
        "naïve/ключ": "ünïcode",
    }
    for key, value in values.items():
        store.settings.put(key, value)
    for key, value in values.items():
        assert store.settings.get(key, "default") == value
    assert store.settings.all() == values


def test_a_new_value_replaces_the_old_one(store):
    store.settings.put("threshold/minhash/k", 0.7)
    store.settings.put("threshold/minhash/k", 0.55)
    assert store.settings.get("threshold/minhash/k") == 0.55
    with store._read() as conn:
        assert conn.exec_driver_sql("SELECT COUNT(*) FROM settings").scalar_one() == 1


@pytest.mark.parametrize("key, value", [("", 1), ("t", float("nan")), ("t", float("inf")), ("t", object())])
def test_refuses_an_empty_key_or_a_value_json_cannot_hold(store, key, value):
    with pytest.raises(ValueError):
        store.settings.put(key, value)
    assert store.settings.all() == {}


def test_a_value_not_written_by_us_reads_as_missing(file_store):
    with file_store._write() as conn:
        conn.exec_driver_sql("INSERT INTO settings (key, value) VALUES ('k', 'not json')")
    assert file_store.settings.get("k", 3) == 3 and file_store.settings.all() == {}


def test_settings_are_written_durably(file_store, monkeypatch):
    used = []
    real = file_store._write

    def spy(durable=False):
        used.append(durable)
        return real(durable)

    monkeypatch.setattr(file_store, "_write", spy)
    file_store.settings.put("keeper_rule", "newest")
    assert used == [True]


def test_settings_survive_close_reopen_and_a_copy_of_the_file(tmp_path):
    path = tmp_path / "c.ndd"
    s = Store.open(path)
    s.settings.put("threshold/minhash/abc", 0.62)
    s.settings.put("keeper_rule", "longest")
    s.close()
    copy = tmp_path / "copy.ndd"
    shutil.copy2(path, copy)  # what "Save as" does
    for p in (path, copy):
        s = Store.open(p, create=False)
        assert s.settings.get("threshold/minhash/abc") == 0.62 and s.settings.get("keeper_rule") == "longest"
        s.close()


def test_a_0003_file_is_migrated_and_keeps_its_data(tmp_path):
    path = tmp_path / "old.ndd"
    old = Store.open(path, revision="0003")
    assert old.schema_revision() == "0003"
    old.close()
    raw = sqlite3.connect(path)
    assert "settings" not in {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    raw.execute(
        "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
        "VALUES (1.0, 'ann', 'keeper', 7, NULL, 'x', '', 'keep', '')"
    )
    raw.commit()
    raw.close()
    s = Store.open(path)
    assert s.schema_revision() == store_engine.HEAD_REVISION == "0009"
    assert [(d.kind, d.a, d.value) for d in s.review.history()] == [("keeper", 7, "keep")]
    assert s.settings.all() == {} and s.settings.get("keeper_rule", "reference-oldest") == "reference-oldest"
    s.settings.put("keeper_rule", "oldest")
    assert s.settings.get("keeper_rule") == "oldest"
    assert s.integrity_check() == "ok"
    s.close()


def test_saved_threshold_belongs_to_one_pair_set(store):
    from ndd_desktop.store.settings import threshold_key

    assert threshold_key("minhash", "k1") == "threshold/minhash/k1"
    assert store.settings.saved_threshold("minhash", "k1") is None
    store.settings.put(threshold_key("minhash", "k1"), 0.62)
    assert store.settings.saved_threshold("minhash", "k1") == 0.62
    assert store.settings.saved_threshold("minhash", "k2") is None and store.settings.saved_threshold("bottomk", "k1") is None
    for bad in ("0.5", True, 1.5, -0.1, None, [0.5]):
        store.settings.put(threshold_key("qgram", "k"), bad)
        assert store.settings.saved_threshold("qgram", "k") is None, bad
