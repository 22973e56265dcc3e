"""A worker's memory cap counts from what the worker holds when it starts."""

from __future__ import annotations

import reserving_hooks
from ingest_support import entry_for
from ndd_desktop.ingest import Limits, extract_many

MB = 1024 * 1024


def files(tmp_path, n):
    entries = []
    for k in range(n):
        path = tmp_path / f"f{k}.txt"
        path.write_text(f"text of file {k} " * 200)
        entries.append(entry_for(path, tmp_path))
    return entries


def test_a_library_that_reserves_address_space_at_import_does_not_fail_every_file(tmp_path):
    # the cap (1 GB) is far below the 6 GB the worker reserved before setting it: a cap
    # counted from zero failed every file with "extractor failed: MemoryError"
    entries = files(tmp_path, 30)
    docs = [d for batch in extract_many(entries, Limits(max_worker_memory_bytes=1024 * MB), workers=1,
                                        extractor=reserving_hooks.extract) for d in batch]
    assert sorted((d.relpath, d.status, d.reason) for d in docs) == sorted((e.relpath, "ok", "") for e in entries)
    assert all(d.text.startswith("text of file ") for d in docs)


def test_a_file_that_needs_more_than_the_cap_fails_alone(tmp_path):
    entries = files(tmp_path, 3)
    big = tmp_path / "big.txt"
    big.write_text("a file whose reading takes more memory than a worker may have")
    entries.insert(1, entry_for(big, tmp_path))
    docs = {d.relpath: d for batch in extract_many(entries, Limits(max_worker_memory_bytes=512 * MB), workers=1,
                                                   extractor=reserving_hooks.greedy) for d in batch}
    # the allocation fails (MemoryError) outside the readers' own error handling, so the
    # worker ends and its file is the one listed
    assert (docs["big.txt"].status, docs["big.txt"].reason) == ("error", "extractor crashed (exit code 1)")
    assert [docs[f"f{k}.txt"].status for k in range(3)] == ["ok"] * 3
