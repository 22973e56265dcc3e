"""Destination layout: root names, safe paths, the write guard, the resume journal."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndd_desktop.export import ExportError
from ndd_desktop.export.journal import Journal
from ndd_desktop.export.layout import (
    JOURNAL_NAME,
    RESERVED_NAMES,
    WriteGuard,
    check_destination,
    root_names,
    safe_relpath,
)


def test_roots_sharing_a_base_name_are_numbered_in_root_order():
    names = root_names(["/x/archive", "/y/archive", "/z/Archive", "/w/other"])
    assert names == {"/x/archive": "archive", "/y/archive": "archive-2", "/z/Archive": "Archive-3",
                     "/w/other": "other"}


def test_a_root_never_takes_a_reserved_name():
    names = root_names(["/a/_ndd_reports", "/b/data"])
    assert names["/a/_ndd_reports"] == "_ndd_reports-2"
    assert names["/b/data"] == "data-2"


@given(st.lists(st.sampled_from(["a", "A", "b", "data", "_ndd_reports", "a-2", ""]), min_size=1, max_size=8))
def test_root_names_are_unique_without_case(bases):
    roots = [f"/r{n}/{b}" for n, b in enumerate(bases)]
    names = root_names(roots)
    folded = [v.casefold() for v in names.values()]
    assert len(set(folded)) == len(roots)
    assert not set(folded) & {r.casefold() for r in RESERVED_NAMES}


@pytest.mark.parametrize("rel,ok", [
    ("a/b.txt", True), ("x", True), ("../etc/passwd", False), ("a/../../b", False),
    ("/abs", False), ("a//b", False), ("a/./b", False), ("", False), ("nul\x00", False),
    ("odd <name> & 'q'.txt", True),
])
def test_safe_relpath(rel, ok):
    assert (safe_relpath(rel) is not None) == ok


def test_destination_inside_a_source_is_refused(tmp_path):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    with pytest.raises(ExportError, match="inside the source"):
        check_destination(str(src / "sub" / "out"), [str(src)])
    with pytest.raises(ExportError, match="inside the destination"):
        check_destination(str(tmp_path), [str(src)])
    link = tmp_path / "link"
    link.symlink_to(src)
    with pytest.raises(ExportError, match="inside the source"):
        check_destination(str(link / "out"), [str(src)])
    check_destination(str(tmp_path / "out"), [str(src)])


def test_guard_refuses_paths_outside_dest_or_in_a_source(tmp_path):
    src, dest = tmp_path / "src", tmp_path / "dest"
    src.mkdir()
    dest.mkdir()
    guard = WriteGuard(str(dest), [str(src)])
    assert guard.check(str(dest / "a" / "b.txt"))
    with pytest.raises(ExportError):
        guard.check(str(src / "x.txt"))
    with pytest.raises(ExportError):
        guard.check(str(dest / ".." / "src" / "x.txt"))
    (dest / "sneaky").symlink_to(src)
    with pytest.raises(ExportError):
        guard.check(str(dest / "sneaky" / "x.txt"))


def test_journal_resumes_the_same_plan_only(tmp_path):
    dest = tmp_path / "dest"
    guard = WriteGuard(str(dest), [])
    j = Journal.open(str(dest), "plan-1", guard)
    assert not j.resumed
    j.record("r/a.txt", "00", 3, "copied")
    j.record("r/b.txt", "11", 4, "copied")
    j.forget("r/b.txt")
    j.close()
    with open(dest / JOURNAL_NAME, "a", encoding="utf-8") as fh:
        fh.write('{"done": "r/torn')  # a crash in the middle of a line
    again = Journal.open(str(dest), "plan-1", guard)
    assert again.resumed and set(again.done) == {"r/a.txt"}
    again.close()
    with pytest.raises(ExportError, match="different plan"):
        Journal.open(str(dest), "plan-2", guard)
    first = json.loads((dest / JOURNAL_NAME).read_text().splitlines()[0])
    assert first["plan_id"] == "plan-1"


def test_journal_refuses_a_non_empty_folder(tmp_path):
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "someone-else.txt").write_text("hi")
    with pytest.raises(ExportError, match="not empty"):
        Journal.open(str(dest), "p", WriteGuard(str(dest), []))
    assert os.listdir(dest) == ["someone-else.txt"]


def test_a_journal_torn_before_its_first_line_starts_the_export_again(tmp_path):
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / JOURNAL_NAME).write_bytes(b"")  # the disk was full when the export began
    guard = WriteGuard(str(dest), [])
    j = Journal.open(str(dest), "plan-1", guard)
    assert not j.resumed
    j.close()
    assert json.loads((dest / JOURNAL_NAME).read_text().splitlines()[0])["plan_id"] == "plan-1"
    # beside files of its own, an unreadable journal is not taken for a fresh start
    other = tmp_path / "other"
    other.mkdir()
    (other / JOURNAL_NAME).write_bytes(b'{"torn')
    (other / "a.txt").write_text("exported before?")
    with pytest.raises(ExportError, match="not an ndd export journal"):
        Journal.open(str(other), "plan-1", WriteGuard(str(other), []))
    assert sorted(os.listdir(other)) == [JOURNAL_NAME, "a.txt"]
