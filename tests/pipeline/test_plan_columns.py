"""A scan's plan names the files to read by their place in the walk's columns: planning
a first scan or a rescan makes no FileEntry, and a reader gets each file as it is handed
out (``pipeline.plan``, ``ingest.walked.WalkedSubset``)."""

from __future__ import annotations

import gc

from pipehelp import make_corpus, scan, touch

from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.walk import walk, walk_files
from ndd_desktop.pipeline.plan import make_plan


def _entries_alive() -> int:
    return sum(isinstance(o, FileEntry) for o in gc.get_objects())


def _plan(store, folder):
    walked = walk_files([str(folder)])
    before = _entries_alive()
    plan = make_plan(store.scans, walked, [])
    return plan, _entries_alive() - before


def test_a_first_scan_s_plan_holds_every_file_as_an_index(tmp_path, store):
    make_corpus(tmp_path / "c", n=8)
    plan, made = _plan(store, tmp_path / "c")
    assert made == 0 and plan.new_files == 8 and plan.files_walked == 8
    assert list(plan.to_extract) == list(walk([str(tmp_path / "c")]))
    first = plan.to_extract[0]
    assert plan.walked_file(first.root, first.relpath) == (first.size, first.mtime_ns)
    assert plan.walked_file(first.root, "no such file.txt") is None
    assert plan.walked_file(str(tmp_path), first.relpath) is None


def test_a_rescan_s_plan_holds_the_changed_and_new_files_only(tmp_path, store):
    files = make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"])
    (tmp_path / "c" / "doc002.txt").write_text(files["doc002.txt"] + " and one more line")
    (tmp_path / "c" / "new.txt").write_text("a file the first scan did not see")
    (tmp_path / "c" / "doc004.txt").unlink()
    touch(tmp_path / "c" / "doc000.txt")  # same bytes: recorded with its new time, not read
    plan, made = _plan(store, tmp_path / "c")
    assert made == 0
    assert sorted(e.relpath for e in plan.to_extract) == ["doc002.txt", "new.txt"]
    assert (plan.new_files, plan.changed_files, plan.unchanged_files) == (1, 1, 4)
    assert len(plan.touched) == 1 and len(plan.missing_file_ids) == 1
