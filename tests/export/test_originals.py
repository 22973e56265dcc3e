"""No export mode changes a source file: bytes, modes and mtimes hashed before and after."""

from __future__ import annotations

import pytest

from export_support import tree_state
from ndd_desktop.export import ExportCancelled, ExportOptions, run_export


@pytest.mark.parametrize("mode,bag", [("copy", False), ("hardlink", False), ("copy", True), ("hardlink", True)])
def test_sources_are_untouched_by_every_mode(scanned, tmp_path, forbid_source_writes, mode, bag):
    store, coll = scanned
    before = tree_state(coll.roots)
    forbid_source_writes(coll.roots)
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", threshold=0.5,
                                             mode=mode, bagit=bag, sha512=bag))
    assert result.ok and result.files_planned > 0
    assert tree_state(coll.roots) == before


def test_sources_are_untouched_by_a_cancel_and_resume(scanned, tmp_path, forbid_source_writes):
    store, coll = scanned
    before = tree_state(coll.roots)
    forbid_source_writes(coll.roots)

    class Stop:
        n = 3

        @property
        def cancelled(self):
            self.n -= 1
            return self.n < 0

    opts = ExportOptions(dest=str(tmp_path / "out"), method="exact")
    with pytest.raises(ExportCancelled):
        run_export(store, opts, cancel=Stop())
    assert run_export(store, opts).ok
    assert tree_state(coll.roots) == before


def test_the_guard_fixture_really_bites(scanned, forbid_source_writes):
    """The monkeypatches must catch a write to a source, or the tests above prove nothing."""
    _store, coll = scanned
    forbid_source_writes(coll.roots)
    victim = coll.root1 / "notes" / "c.txt"
    with pytest.raises(AssertionError):
        open(victim, "ab")
    import os
    import shutil

    with pytest.raises(AssertionError):
        os.remove(victim)
    with pytest.raises(AssertionError):
        os.rename(victim, str(victim) + ".x")
    with pytest.raises(AssertionError):
        shutil.move(str(victim), "/tmp/elsewhere")
    with open(victim, "rb") as fh:  # reading is fine
        assert fh.read()
