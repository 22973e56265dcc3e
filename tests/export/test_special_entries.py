"""Entries that are not regular files (links, FIFOs, folder aliases) and entries the scan
could not read: what the export does with the records the walk made for them, and that a
copy never goes through a symbolic link the scan would not have followed."""

from __future__ import annotations

import csv
import hashlib
import json
import os
import socket
import stat

import pytest

from export_support import prose, scan
from fakes import FakeStore, sha256_of
from ndd_desktop.cli import main as cli_main
from ndd_desktop.export import ExportOptions, plan_export, run_export
from ndd_desktop.export.copy import FileProblem, transfer_file
from ndd_desktop.export.layout import WriteGuard
from ndd_desktop.export.scan_records import NOT_A_FILE, UNREAD, scan_exclusion
from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.extract import extract_entry
from ndd_desktop.ingest.walk import walk
from ndd_desktop.store import Store
from ndd_desktop.store.types import DocumentInfo, Root

NOT_FOLLOWED = "symbolic link (not followed)"


def payload(dest) -> dict[str, os.stat_result]:
    """Every entry under ``dest`` except the reports and the journal, with its lstat."""
    out = {}
    for dirpath, dirs, files in os.walk(dest):
        for name in dirs + files:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, dest).replace(os.sep, "/")
            if not rel.startswith("_ndd_reports") and not rel.startswith(".ndd-"):
                out[rel] = os.lstat(path)
    return out


def tree_state(roots: list[str]) -> dict:
    """Every entry under ``roots`` without following links or opening FIFOs: the link's
    target, or the bytes' SHA-256, with the lstat mode, size and mtime."""
    state = {}
    for root in roots:
        for dirpath, dirs, files in os.walk(root):
            for name in [".", *dirs, *files]:
                path = os.path.join(dirpath, name)
                st = os.lstat(path)
                if stat.S_ISLNK(st.st_mode):
                    what = os.readlink(path)
                elif stat.S_ISREG(st.st_mode):
                    what = sha256_of(path)
                else:
                    what = ""
                state[path] = (what, st.st_mode, st.st_size, st.st_mtime_ns)
    return state


@pytest.fixture
def special(tmp_path):
    """A scanned folder holding two files, links of every kind and a FIFO.

    src/docs: a.txt, b.txt (unique texts); link_to_file -> a.txt; broken_link -> missing;
    fifo; loop -> . (a folder link); link_outside -> ../outside/secret.txt.
    """
    root = tmp_path / "src" / "docs"
    root.mkdir(parents=True)
    outside = tmp_path / "src" / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("a file outside the chosen folder " + prose(9))
    (root / "a.txt").write_text(prose(1))
    (root / "b.txt").write_text(prose(2))
    os.symlink("a.txt", root / "link_to_file")
    os.symlink("missing.txt", root / "broken_link")
    os.symlink(".", root / "loop")
    os.symlink(os.path.join("..", "outside", "secret.txt"), root / "link_outside")
    os.mkfifo(root / "fifo")
    store = Store.open(str(tmp_path / "collection.sqlite"))
    scan(store, [str(root)], "exact")
    yield store, root, outside
    store.close()


SPECIAL_NAMES = {"broken_link", "fifo", "link_outside", "link_to_file", "loop"}


def test_links_and_fifos_are_listed_as_not_exported_and_the_export_succeeds(special, tmp_path):
    store, root, _ = special
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", reports=("csv", "json", "html")))
    assert result.failed == [] and result.ok
    assert result.copied == 2 == result.files_planned
    assert set(payload(dest)) == {"docs", "docs/a.txt", "docs/b.txt"}
    assert {i.target: i.reason for i in result.not_files} == {
        "docs/broken_link": NOT_FOLLOWED,
        "docs/fifo": "not a regular file (FIFO)",
        "docs/link_outside": NOT_FOLLOWED,
        "docs/link_to_file": NOT_FOLLOWED,
        "docs/loop": NOT_FOLLOWED,
    }
    assert all(i.source == os.path.join(str(root), i.target.split("/", 1)[1]) for i in result.not_files)

    reports = dest / "_ndd_reports"
    with open(reports / "documents.csv", encoding="utf-8", newline="") as fh:
        rows = {r["path"]: r for r in csv.DictReader(fh)}
    for name in SPECIAL_NAMES:
        row = rows[f"docs/{name}"]
        assert row["export_status"] == "not exported" and row["exported_to"] == ""
        assert row["note"].startswith("not a regular file, skipped by the scan: ")
    assert rows["docs/fifo"]["note"].endswith("not a regular file (FIFO)")
    assert rows["docs/a.txt"]["export_status"] == "copied"

    body = json.loads((reports / "documents.json").read_text(encoding="utf-8"))
    assert body["summary"]["files_failed"] == 0
    assert body["summary"]["not_regular_files"] == 5
    assert {e["path"]: e["reason"] for e in body["not_exported"]}["docs/fifo"] == "not a regular file (FIFO)"
    assert body["issues"] == []

    html = (reports / "report.html").read_text(encoding="utf-8")
    assert "Not regular files, not exported (5)" in html and "not a regular file (FIFO)" in html
    assert "Files that were not exported" not in html


def test_the_command_line_export_exits_0(special, tmp_path, capsys):
    store, _, _ = special
    db = store.path
    store.close()
    status = cli_main(["export", "--db", str(db), "--to", str(tmp_path / "out"), "--method", "exact"])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "failed" not in err
    assert "not exported: " in err and "not a regular file (FIFO)" in err  # each entry is named


def test_sources_stay_untouched_and_nothing_outside_is_read(special, tmp_path, forbid_source_writes):
    store, root, outside = special
    roots = [str(root), str(outside)]
    before = tree_state(roots)
    forbid_source_writes(roots)
    for mode in ("copy", "hardlink"):
        result = run_export(store, ExportOptions(dest=str(tmp_path / mode), method="exact", mode=mode))
        assert result.ok
        assert not any(stat.S_ISLNK(s.st_mode) or stat.S_ISFIFO(s.st_mode) for s in payload(tmp_path / mode).values())
        assert "secret" not in " ".join(payload(tmp_path / mode))
    assert tree_state(roots) == before


# -- records the scan could not read -------------------------------------------------------


def _record(root: str, relpath: str, status: str, reason: str, did: int, size: int = 0, mtime: int = 0):
    """A store record like the scan's for an entry it never read (see ingest.document.problem)."""
    path = os.path.join(root, *relpath.split("/")) if relpath else root
    return DocumentInfo(did, root, relpath, path, None, size, mtime, None, "", "", "", 0, status, reason, False)


def test_entries_the_scan_could_not_read_stay_failures_with_the_scan_reason(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "keep.txt").write_text(prose(1))
    (root / "locked").mkdir()  # readable now: the export must not pretend it copied it
    store = FakeStore.from_files([str(root)])
    n = len(store.docs)
    gone = str(tmp_path / "gone")
    store.docs += [
        _record(str(root), "locked", "error", "unreadable folder: Permission denied", n + 1),
        _record(str(root), "secret.txt", "error", "unreadable: permission denied", n + 2, 10, 123),
        _record(gone, "", "error", "root not found", n + 3),
        _record(str(root), "fifo", "skipped", "not a regular file (FIFO)", n + 4),
    ]
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), threshold=0.9, reports=("json",)))
    assert not result.ok and result.copied == 1
    assert sorted((i.source, i.reason) for i in result.failed) == sorted([
        (str(root / "locked"), "the scan could not read it: unreadable folder: Permission denied"),
        (str(root / "secret.txt"), "the scan could not read it: unreadable: permission denied"),
        (gone, "the scan could not read it: root not found"),
    ])
    assert [(i.source, i.reason) for i in result.not_files] == [(str(root / "fifo"), "not a regular file (FIFO)")]
    body = json.loads((dest / "_ndd_reports" / "documents.json").read_text(encoding="utf-8"))
    statuses = {d["source"]: d["export_status"] for d in body["documents"]}
    assert statuses[str(root / "locked")] == "failed: the scan could not read it: unreadable folder: Permission denied"
    assert statuses[str(root / "fifo")] == "not exported"
    assert body["summary"]["files_failed"] == 3


def test_an_unreadable_reference_entry_is_no_failure_when_references_stay_out(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "keep.txt").write_text(prose(1))
    store = FakeStore.from_files([str(root)])
    rec = _record(str(root), "locked", "error", "unreadable folder: Permission denied", len(store.docs) + 1)
    store.docs.append(DocumentInfo(**{**rec.__dict__, "reference": True}))
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.9, include_reference=False))
    assert plan.issues == []


# -- the classification follows what the walk and the reader really say -----------------


def test_every_reason_of_the_walk_and_the_reader_is_classified(tmp_path):
    root = tmp_path / "r"
    (root / "sub").mkdir(parents=True)
    (root / "f.txt").write_text("text")
    (tmp_path / "out.txt").write_text("outside")
    os.symlink("f.txt", root / "link")
    os.symlink("nothing", root / "dangling")
    os.symlink(os.path.join("..", "out.txt"), root / "outside")
    os.symlink(".", root / "loop")
    os.mkfifo(root / "fifo")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock"))
    try:
        problems = []
        roots = [str(root), str(root / "sub"), str(tmp_path / "missing")]
        for follow in (False, True):
            list(walk(roots, follow_symlinks=follow, on_error=problems.append))
        entry = FileEntry(str(root), "f.txt", str(root / "f.txt"), 4, 0)
        for path in (root / "link", root / "fifo", root / "vanished"):
            problems += extract_entry(FileEntry(str(root), path.name, str(path), 4, 0))
    finally:
        sock.close()
    assert extract_entry(entry)[0].status == "ok"
    kinds = {p.reason: scan_exclusion(p) for p in problems}
    assert kinds == {
        "symbolic link (not followed)": NOT_A_FILE,
        "broken symbolic link": NOT_A_FILE,
        "symbolic link points outside the chosen folders": NOT_A_FILE,
        "folder already visited (symbolic link loop or alias)": NOT_A_FILE,
        "folder already scanned under another root": NOT_A_FILE,
        "not a regular file (FIFO)": NOT_A_FILE,
        "not a regular file (socket)": NOT_A_FILE,
        "not a regular file": NOT_A_FILE,
        "root not found": UNREAD,
        "vanished during the scan (file not found)": UNREAD,
    }
    for reason in ("unreadable folder: Permission denied", "unreadable: permission denied",
                   "folder vanished during the scan", "root unreadable: Permission denied"):
        assert scan_exclusion(_record(str(root), "x", "error", reason, 1)) == UNREAD
    # files that were read, or hold members, are never taken for walk records
    for reason in ("corrupt PDF: bad xref", "changed while being read (try again when it is stable)",
                   "empty file", "binary content (not text)", "timed out after 60 s"):
        assert scan_exclusion(_record(str(root), "x", "error", reason, 1)) is None
    member = DocumentInfo(**{**_record(str(root), "a.zip!x", "skipped", NOT_FOLLOWED, 1).__dict__,
                             "container": "a.zip"})
    assert scan_exclusion(member) is None


# -- copying never goes through a link the scan did not follow ---------------------------


def test_a_file_replaced_by_a_link_to_outside_after_the_scan_is_not_copied(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "keep.txt").write_text(prose(1))
    (root / "swap.txt").write_text(prose(2))
    store = FakeStore.from_files([str(root)])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "same.txt").write_text(prose(2))  # the very bytes the scan hashed
    os.remove(root / "swap.txt")
    os.symlink(elsewhere / "same.txt", root / "swap.txt")
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), threshold=0.9, reports=()))
    assert [f.target for f in result.failed] == ["src/swap.txt"]
    assert "symbolic link" in result.failed[0].reason and "outside the scanned folders" in result.failed[0].reason
    assert set(payload(dest)) == {"src", "src/keep.txt"}


def test_transfer_file_refuses_a_link_or_a_fifo_without_roots(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "real.txt").write_text("bytes")
    os.symlink("real.txt", src / "link.txt")
    os.mkfifo(src / "fifo")
    dest = tmp_path / "out"
    dest.mkdir()
    guard = WriteGuard(str(dest), [str(src)])
    digest = sha256_of(str(src / "real.txt"))
    with pytest.raises(FileProblem, match="symbolic link"):
        transfer_file(str(src / "link.txt"), str(dest / "a"), digest, 0, mode="copy", guard=guard)
    with pytest.raises(FileProblem, match="no longer a regular file"):
        transfer_file(str(src / "fifo"), str(dest / "b"), None, 0, mode="copy", guard=guard)
    t = transfer_file(str(src / "real.txt"), str(dest / "c"), digest, 0, mode="copy", guard=guard)
    assert t.how == "copied" and (dest / "c").read_text() == "bytes"
    assert os.listdir(dest) == ["c"]


def store_from_walk(roots: list[str], follow: bool) -> FakeStore:
    """A store as a scan with ``walk(follow_symlinks=follow)`` would fill it: the store
    builds each document's path as root/relpath (the link's own path for a followed link)."""
    store = FakeStore([Root(r) for r in roots], [], {}, [], [])
    problems = []
    for entry in walk(roots, follow_symlinks=follow, on_error=problems.append):
        did = len(store.docs) + 1
        with open(entry.abspath, "rb") as fh:
            data = fh.read()
        store.docs.append(DocumentInfo(
            did, entry.root, entry.relpath, os.path.join(entry.root, *entry.relpath.split("/")), None,
            entry.size, entry.mtime_ns, None, "txt", "x", hashlib.sha256(data).hexdigest(), len(data),
            "ok", "", False))
        store.texts[did] = data.decode("utf-8")
    for p in problems:
        store.docs.append(_record(p.root, p.relpath, p.status, p.reason, len(store.docs) + 1))
    return store


@pytest.mark.parametrize("mode", ["copy", "hardlink"])
def test_links_a_scan_followed_inside_the_roots_are_still_exported(tmp_path, mode):
    one, two = tmp_path / "one", tmp_path / "two"
    (one / "real").mkdir(parents=True)
    two.mkdir()
    (one / "real" / "a.txt").write_text(prose(1))
    (two / "b.txt").write_text(prose(2))
    (tmp_path / "outside.txt").write_text(prose(3))
    os.symlink(os.path.join("real", "a.txt"), one / "alias.txt")  # a file link inside the root
    os.symlink(two, one / "to_two")  # a folder link to the other root
    os.symlink(tmp_path / "outside.txt", one / "escape.txt")  # not followed: outside
    store = store_from_walk([str(one), str(two)], follow=True)
    by_path = {d.relpath: d for d in store.docs}
    assert by_path["alias.txt"].status == "ok" and by_path["to_two/b.txt"].status == "ok"
    assert by_path["escape.txt"].reason == "symbolic link points outside the chosen folders"
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), threshold=0.99, mode=mode, reports=()))
    assert result.ok and result.failed == [], result.failed
    files = payload(dest)
    assert {"one/alias.txt", "one/real/a.txt", "one/to_two/b.txt"} <= set(files)
    assert not any(stat.S_ISLNK(s.st_mode) for s in files.values())
    assert "one/escape.txt" not in files
    # the second root was reached first through the link, so the walk listed it as an alias
    assert {i.target: i.reason for i in result.not_files} == {
        "one/escape.txt": "symbolic link points outside the chosen folders",
        "two": "folder already scanned under another root",
    }
    assert (dest / "one" / "alias.txt").read_text() == prose(1)
    if mode == "hardlink":  # linked to the file the link leads to, never to the link itself
        assert files["one/alias.txt"].st_ino == os.stat(one / "real" / "a.txt").st_ino
        assert files["one/to_two/b.txt"].st_ino == os.stat(two / "b.txt").st_ino
