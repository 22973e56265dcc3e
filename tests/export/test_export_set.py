"""The deduplicated set, through a real scan: contents, decisions, verification, resume."""

from __future__ import annotations

import errno
import hashlib
import os

import pytest

from export_support import HOSTILE, doc_id
from ndd_desktop.export import ExportCancelled, ExportError, ExportOptions, plan_export, run_export
from ndd_desktop.pipeline import CancelToken


def exported_files(dest) -> set[str]:
    """Payload files under ``dest`` as POSIX paths, reports and journal excluded."""
    out = set()
    for dirpath, _dirs, files in os.walk(dest):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), dest).replace(os.sep, "/")
            if not rel.startswith("_ndd_reports/") and not rel.startswith(".ndd-"):
                out.add(rel)
    return out


def sha(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def test_exact_export_keeps_one_of_each_group_and_every_unique_document(scanned, tmp_path):
    store, coll = scanned
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert result.ok and not result.failed
    files = exported_files(dest)
    # groups: {a, a-copy, a-again} and {b, hostile}; a-edit, c, e are unique
    assert {"archive/letters/a-edit.txt", "archive/notes/c.txt", "archive-2/e.txt"} <= files
    assert len(files & {"archive/letters/a.txt", "archive/letters/a-copy.txt", "archive-2/a-again.txt"}) == 1
    assert len(files & {"archive/notes/b.txt", f"archive/notes/{HOSTILE}"}) == 1
    assert len(files) == 5 == result.copied == result.files_planned
    for rel in files:  # every copy is byte-identical to its source
        root, _, tail = rel.partition("/")
        src = (coll.root1 if root == "archive" else coll.root2) / tail
        assert sha(dest / rel) == sha(src)
        assert os.stat(dest / rel).st_mtime_ns == os.stat(src).st_mtime_ns


def test_qgram_threshold_pulls_in_the_edited_copy(scanned, tmp_path):
    store, coll = scanned
    loose = plan_export(store, ExportOptions(dest=str(tmp_path / "o1"), method="qgram", threshold=0.5))
    strict = plan_export(store, ExportOptions(dest=str(tmp_path / "o2"), method="qgram", threshold=1.0))
    edit = doc_id(store, "a-edit.txt")
    assert edit in loose.left_out or loose.row(edit).role == "keeper"
    assert strict.row(edit).role == "unique"
    assert len(loose.files) < len(strict.files)


def test_defaults_come_from_the_last_scan(scanned, tmp_path):
    store, _ = scanned
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "o")))
    assert plan.options.method == "qgram"
    assert plan.options.pairs_key and plan.options.threshold is not None


def test_not_duplicate_verdicts_and_chosen_keepers_are_respected(scanned, tmp_path):
    store, _ = scanned
    a, a_copy, a_again = doc_id(store, "letters/a.txt"), doc_id(store, "a-copy.txt"), doc_id(store, "a-again.txt")
    store.review.set_verdict(a, a_copy, "not_duplicate", reviewer="ann")
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "o1"), method="exact"))
    out = {plan.row(x).role for x in (a, a_copy)}
    assert "duplicate" not in out  # both stay in the set
    store.review.set_verdict(a, a_copy, None, reviewer="ann")
    store.review.set_keeper(a_again, True, reviewer="bob")
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "o2"), method="exact"))
    assert plan.row(a_again).role == "keeper"
    assert plan.row(a_again).verdict == "keeper" and plan.row(a_again).reviewer == "bob"
    assert {plan.row(a).role, plan.row(a_copy).role} == {"duplicate"}
    targets = {f.target for f in plan.files}
    assert "archive-2/a-again.txt" in targets
    assert not targets & {"archive/letters/a.txt", "archive/letters/a-copy.txt"}


def test_a_source_changed_since_the_scan_fails_alone(scanned, tmp_path):
    store, coll = scanned
    c = coll.root1 / "notes" / "c.txt"
    c.write_text(c.read_text().replace("a", "o"))  # same size, other bytes
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert [f.target for f in result.failed] == ["archive/notes/c.txt"]
    assert "changed since the scan" in result.failed[0].reason
    assert not result.ok
    assert "archive/notes/c.txt" not in exported_files(dest)
    assert len(exported_files(dest)) == 4
    assert not [n for n in os.listdir(dest / "archive" / "notes") if n.startswith(".ndd-part")]


def test_hardlinks_share_the_inode_and_fall_back_to_copies(scanned, tmp_path, monkeypatch):
    store, coll = scanned
    dest = tmp_path / "linked"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", mode="hardlink"))
    assert result.linked == 5 and result.copied == 0
    assert os.stat(dest / "archive" / "notes" / "c.txt").st_ino == os.stat(coll.root1 / "notes" / "c.txt").st_ino

    def refuse(src, dst, *a, **k):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", refuse)
    dest2 = tmp_path / "fallback"
    result = run_export(store, ExportOptions(dest=str(dest2), method="exact", mode="hardlink"))
    assert result.copied == 5 and result.linked == 0
    assert len(result.notes) == 5 and "copied instead" in result.notes[0]
    assert os.stat(dest2 / "archive" / "notes" / "c.txt").st_ino != os.stat(coll.root1 / "notes" / "c.txt").st_ino


class CancelAfter:
    """A cancel token that turns on after ``n`` looks (files and chunks)."""

    def __init__(self, n: int):
        self.n = n

    @property
    def cancelled(self) -> bool:
        self.n -= 1
        return self.n < 0


def test_an_interrupted_export_resumes(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "out"
    opts = ExportOptions(dest=str(dest), method="exact")
    with pytest.raises(ExportCancelled):
        run_export(store, opts, cancel=CancelAfter(5))
    first = exported_files(dest)
    assert 0 < len(first) < 5
    assert not any(".ndd-part" in f for f in first)
    result = run_export(store, opts)
    assert result.resumed and result.skipped == len(first)
    assert result.copied == 5 - len(first)
    assert len(exported_files(dest)) == 5 and result.ok


def test_a_cancel_token_stops_before_the_first_file(scanned, tmp_path):
    store, _ = scanned
    token = CancelToken()
    token.cancel()
    with pytest.raises(ExportCancelled):
        run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"), cancel=token)
    assert exported_files(tmp_path / "out") == set()


def test_a_rerun_repairs_a_missing_copy(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "out"
    opts = ExportOptions(dest=str(dest), method="exact")
    run_export(store, opts)
    os.remove(dest / "archive" / "notes" / "c.txt")
    result = run_export(store, opts)
    assert result.skipped == 4 and result.copied == 1
    assert (dest / "archive" / "notes" / "c.txt").exists()


def test_destinations_that_are_refused(scanned, tmp_path):
    store, coll = scanned
    with pytest.raises(ExportError, match="inside the source"):
        run_export(store, ExportOptions(dest=str(coll.root1 / "export"), method="exact"))
    assert not (coll.root1 / "export").exists()
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x")
    with pytest.raises(ExportError, match="not empty"):
        run_export(store, ExportOptions(dest=str(busy), method="exact"))
    done = tmp_path / "done"
    run_export(store, ExportOptions(dest=str(done), method="exact"))
    with pytest.raises(ExportError, match="different plan"):
        run_export(store, ExportOptions(dest=str(done), method="qgram", threshold=0.5))


def test_progress_reports_each_stage(scanned, tmp_path):
    store, _ = scanned
    seen = []
    run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"), progress=seen.append)
    stages = [p.stage for p in seen]
    assert stages[0] == "plan" and stages[-1] == "done"
    assert {"copy", "reports"} <= set(stages)
    copy = [p for p in seen if p.stage == "copy"]
    assert copy[-1].done == copy[-1].total == 5


def test_reference_roots_can_be_left_out(tmp_path, collection):
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.store import Root, Store

    store = Store.open(str(tmp_path / "ref.sqlite"))
    try:
        ScanJob(store, ScanConfig(roots=[Root(collection.roots[0]), Root(collection.roots[1], reference=True)],
                                  method="exact", workers=1)).run()
        a_again = doc_id(store, "a-again.txt")
        with_ref = plan_export(store, ExportOptions(dest=str(tmp_path / "o1"), method="exact"))
        assert with_ref.row(a_again).role == "keeper"  # reference-oldest prefers the reference copy
        assert "archive-2/a-again.txt" in {f.target for f in with_ref.files}
        without = plan_export(store, ExportOptions(dest=str(tmp_path / "o2"), method="exact",
                                                   include_reference=False))
        assert not any(f.target.startswith("archive-2/") for f in without.files)
        assert without.row(a_again).note == "reference document: not exported"
        assert len(without.files) == len(with_ref.files) - 2  # a-again and e.txt
    finally:
        store.close()


def test_two_reference_copies_never_leave_each_other_out(tmp_path):
    """Holdings are compared with the new folders, not among themselves: two identical
    reference documents joined by a new copy both stay; the new copy is left out."""
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.store import Root, Store

    holdings, incoming = tmp_path / "holdings", tmp_path / "incoming"
    holdings.mkdir()
    incoming.mkdir()
    text = "minutes of the parish council meeting on the village hall roof and the footpath " * 20
    for path in (holdings / "x.txt", holdings / "y.txt", incoming / "z.txt"):
        path.write_text(text)
    store = Store.open(str(tmp_path / "c.sqlite"))
    try:
        ScanJob(store, ScanConfig(roots=[Root(str(incoming)), Root(str(holdings), reference=True)],
                                  method="exact", workers=0)).run()
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
        roles = {r.path: r.role for r in plan.rows}
        assert roles == {"holdings/x.txt": "keeper", "holdings/y.txt": "keeper", "incoming/z.txt": "duplicate"}
        assert {f.target for f in plan.files} == {"holdings/x.txt", "holdings/y.txt"}
    finally:
        store.close()


def test_a_copy_that_missed_the_journal_is_redone(scanned, tmp_path):
    """A crash between renaming a copy into place and journaling it must not block the rerun."""
    store, coll = scanned
    dest = tmp_path / "out"
    opts = ExportOptions(dest=str(dest), method="exact")
    with pytest.raises(ExportCancelled):
        run_export(store, opts, cancel=CancelAfter(0))
    stray = dest / "archive" / "notes" / "c.txt"
    stray.parent.mkdir(parents=True)
    stray.write_text("half-written by a crashed run")
    result = run_export(store, opts)
    assert result.ok and result.copied == 5
    assert sha(stray) == sha(coll.root1 / "notes" / "c.txt")


def test_cancel_during_a_hardlink_check_leaves_no_link(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "out"
    opts = ExportOptions(dest=str(dest), method="exact", mode="hardlink")
    with pytest.raises(ExportCancelled):
        run_export(store, opts, cancel=CancelAfter(1))  # the file check passes, the hash check cancels
    assert exported_files(dest) == set()
    assert run_export(store, opts).linked == 5


def test_a_full_destination_stops_the_export_with_what_to_do(scanned, tmp_path, monkeypatch):
    """A full disk (no space can be made here for real: the write that finds it is
    failed as the kernel fails it) failed every further file alike and ended in "[Errno 28]
    No space left on device", naming neither the destination nor the way on."""
    from ndd_desktop.export.errors import DestinationFull

    store, _coll = scanned
    dest = tmp_path / "full"
    real_fsync, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) > 2:  # the third copy finds the disk full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(DestinationFull) as caught:
        run_export(store, ExportOptions(dest=str(dest), method="exact"))
    message = str(caught.value)
    assert str(dest) in message and "is full" in message and "run the same export again" in message
    assert not [p for p in dest.rglob(".ndd-part-*")]
    monkeypatch.setattr(os, "fsync", real_fsync)
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))  # space again: it resumes
    assert result.copied + result.skipped == result.files_planned and not result.failed
