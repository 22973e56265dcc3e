"""A large collection's objects are frozen out of the garbage collector's full walks, and
given back when the collection closes (gui/heap.py)."""

from __future__ import annotations

import gc

import pytest
from gui_helpers import make_collection, scan

from ndd_desktop.gui import heap


def tracked(obj) -> bool:
    """Whether the cyclic collector walks ``obj`` (frozen objects are not in get_objects)."""
    return any(o is obj for o in gc.get_objects())


@pytest.fixture
def thawed():
    yield
    gc.unfreeze()  # whatever a test froze goes back, for the tests after it


def test_a_small_collection_is_left_to_the_defaults(qtbot, window, folder, thawed):
    assert window.open_folder(str(folder))
    scan(qtbot, window)
    assert len(window.collection.data.docs) < heap.SETTLE_FROM_DOCUMENTS
    assert tracked(window.collection.data.docs) and gc.get_freeze_count() == 0


def test_a_large_collection_is_frozen_then_released(qtbot, window, folder, tmp_path, monkeypatch, thawed):
    monkeypatch.setattr(heap, "SETTLE_FROM_DOCUMENTS", 5)  # this folder counts as large
    assert window.open_folder(str(folder))
    scan(qtbot, window)
    # the table of the pair set's documents was made by the load (its DocumentInfo objects
    # are made on first look-up, which may come after the freeze: a view painting a row)
    docs = window.collection.data.docs
    assert len(docs) >= 5
    assert not tracked(docs) and gc.get_freeze_count() > 0
    window._close_collection()
    assert tracked(docs)  # back with the collector: a closed collection leaves nothing frozen
    other = make_collection(tmp_path / "other", families=3)
    assert window.open_folder(str(other))
    scan(qtbot, window)
    assert not tracked(window.collection.data.docs)
