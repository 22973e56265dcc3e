"""Fixtures of the store tests: in-memory and temporary-file stores, document builders."""

from __future__ import annotations

import pytest

from ndd_desktop.store import Store


@pytest.fixture
def store():
    """A fresh in-memory store."""
    s = Store.open(":memory:")
    yield s
    s.close()


@pytest.fixture
def file_store(tmp_path):
    """A fresh store in a temporary file."""
    s = Store.open(tmp_path / "collection.ndd")
    yield s
    s.close()


