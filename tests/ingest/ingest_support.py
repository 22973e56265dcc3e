"""Shared helpers of the ingest tests: every file is generated in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ndd_desktop.ingest import FileEntry, Limits, extract_entry, walk


def entry_for(path: Path, root: Path | None = None) -> FileEntry:
    """A FileEntry for one file, as the walk would make it."""
    root = root or path.parent
    st = os.stat(path)
    rel = os.path.relpath(path, root).replace(os.sep, "/")
    return FileEntry(str(root), rel, str(path), st.st_size, st.st_mtime_ns)


@pytest.fixture
def extract_file(tmp_path):
    """Write bytes under tmp_path/<name> and extract them in-process."""

    def run(name: str, data: bytes, limits: Limits | None = None):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return extract_entry(entry_for(path, tmp_path), limits or Limits())

    return run


@pytest.fixture
def one(extract_file):
    """Like extract_file but asserts exactly one document came out and returns it."""

    def run(name: str, data: bytes, limits: Limits | None = None):
        docs = extract_file(name, data, limits)
        assert len(docs) == 1, docs
        return docs[0]

    return run


def walk_all(roots, **kwargs):
    """(entries, problems) of a walk."""
    problems = []
    entries = list(walk(roots, on_error=problems.append, **kwargs))
    return entries, problems
