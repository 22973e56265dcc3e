"""Fixtures of the pipeline tests."""

from __future__ import annotations

import pytest

from ndd_desktop.store import Store


@pytest.fixture
def store(tmp_path):
    """A store in a temporary file (the pipeline runs against a real file)."""
    s = Store.open(tmp_path / "c.ndd")
    yield s
    s.close()


@pytest.fixture
def calls(monkeypatch):
    """Counts of files sent to extraction and texts sent to sketching, per method."""
    import ndd_desktop.ingest.pool as pool
    from ndd_desktop.core.methods import get_method

    counts = {"extract": 0, "sketch": {}}
    real_many = pool.extract_many

    def counting_many(entries, limits, **kw):
        entries = list(entries)
        counts["extract"] += len(entries)
        yield from real_many(entries, limits, **kw)

    monkeypatch.setattr(pool, "extract_many", counting_many)
    for name in ("qgram", "exact", "bottomk"):
        m = get_method(name)
        real = m.sketch_many

        def counting_sketch(texts, params, _real=real, _name=name):
            counts["sketch"][_name] = counts["sketch"].get(_name, 0) + len(texts)
            return _real(texts, params)

        monkeypatch.setattr(m, "sketch_many", counting_sketch)
    return counts
