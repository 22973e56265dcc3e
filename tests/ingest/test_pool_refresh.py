"""The pool hands its workers a new extractor when ``refresh`` gives one (the scan's text
dictionary reaches the workers that way)."""

from __future__ import annotations

import pytest
from ingest_support import entry_for
from refresh_hooks import Tagged

from ndd_desktop.ingest import Limits, extract_many


@pytest.mark.parametrize("workers", [1, 0])
def test_chunks_handed_after_a_refresh_are_read_with_the_new_extractor(tmp_path, workers):
    entries = []
    for k in range(100):
        path = tmp_path / f"f{k:03d}.txt"
        path.write_text(f"text {k}")
        entries.append(entry_for(path, tmp_path))
    old, new = Tagged("old"), Tagged("new")
    seen: list[str] = []
    # the new extractor from the moment the first result is in
    results = extract_many(entries, Limits(), workers=workers, extractor=old, refresh=lambda: new if seen else old)
    for docs in results:
        seen += [d.tag for d in docs]
    assert len(seen) == 100
    # one worker: the first chunk is one file (no rate known yet), every later chunk is
    # handed out after it came back; in this process: chunks of 64 files
    first = 1 if workers == 1 else 64
    assert seen == ["old"] * first + ["new"] * (100 - first)
