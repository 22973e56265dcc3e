"""The walk: deterministic, no symlink following by default, loops end, odd names survive."""

from __future__ import annotations

import importlib
import os
import threading

from ingest_support import entry_for, walk_all
from ndd_desktop.ingest import Limits, display_path, extract_entry, walk
from ndd_desktop.ingest import extract as extract_module


def make_tree(root):
    (root / "b").mkdir(parents=True)
    (root / "a").mkdir()
    (root / "z.txt").write_text("z")
    (root / "b" / "2.txt").write_text("two")
    (root / "b" / "1.txt").write_text("one")
    (root / "a" / "x.txt").write_text("x")


def test_walk_is_deterministic_posix_and_relative(tmp_path):
    make_tree(tmp_path / "r")
    entries, problems = walk_all([tmp_path / "r"])
    assert [e.relpath for e in entries] == ["z.txt", "a/x.txt", "b/1.txt", "b/2.txt"]
    assert problems == []
    e = entries[2]
    assert e.root == str(tmp_path / "r") and e.abspath == str(tmp_path / "r" / "b" / "1.txt")
    assert e.size == 3 and e.mtime_ns == os.stat(e.abspath).st_mtime_ns
    assert [x.relpath for x in walk([tmp_path / "r"])] == [x.relpath for x in entries]


def test_listing_by_descriptor_or_by_path_gives_the_same_walk(tmp_path, monkeypatch):
    make_tree(tmp_path / "r")
    os.symlink(tmp_path / "r" / "a", tmp_path / "r" / "link")
    walk_module = importlib.import_module("ndd_desktop.ingest.walk")
    got = {}
    for by_descriptor in (True, False):  # (Windows lists by path)
        monkeypatch.setattr(walk_module, "_BY_DESCRIPTOR", by_descriptor)
        entries, problems = walk_all([tmp_path / "r"])
        followed = list(walk([tmp_path / "r"], follow_symlinks=True))
        got[by_descriptor] = ([(e.relpath, e.abspath, e.size, e.mtime_ns) for e in entries],
                              [(p.relpath, p.reason) for p in problems], [e.abspath for e in followed])
    assert got[True] == got[False]
    assert got[True][1] == [("link", "symbolic link (not followed)")]
    assert got[True][0][1][:2] == ("a/x.txt", str(tmp_path / "r" / "a" / "x.txt"))


def test_a_walk_left_early_closes_the_folder_it_was_listing(tmp_path):
    for k in range(3):
        (tmp_path / "r" / f"d{k}").mkdir(parents=True)
        for n in range(3):
            (tmp_path / "r" / f"d{k}" / f"{n}.txt").write_text("x")
    before = set(os.listdir("/dev/fd"))
    it = walk([tmp_path / "r"])
    assert next(it).relpath == "d0/0.txt"  # a folder's descriptor is open while it is listed
    it.close()
    assert set(os.listdir("/dev/fd")) == before
    assert len(list(walk([tmp_path / "r"]))) == 9 and set(os.listdir("/dev/fd")) == before


def test_single_file_roots_and_missing_roots(tmp_path):
    f = tmp_path / "one.txt"
    f.write_text("x")
    entries, problems = walk_all([f, tmp_path / "missing"])
    assert [(e.root, e.relpath) for e in entries] == [(str(tmp_path), "one.txt")]
    assert [(p.status, p.reason) for p in problems] == [("error", "root not found")]


def test_symlinks_not_followed_by_default(tmp_path):
    root = tmp_path / "r"
    make_tree(root)
    os.symlink(root / "a", root / "link-dir")
    os.symlink(root / "z.txt", root / "link-file")
    entries, problems = walk_all([root])
    assert "link-file" not in [e.relpath for e in entries]
    assert not any(e.relpath.startswith("link-dir") for e in entries)
    assert sorted((p.relpath, p.status, p.reason) for p in problems) == [
        ("link-dir", "skipped", "symbolic link (not followed)"),
        ("link-file", "skipped", "symbolic link (not followed)"),
    ]


def test_symlink_loop_ends_when_following(tmp_path):
    root = tmp_path / "r"
    make_tree(root)
    os.symlink(root, root / "a" / "loop")
    os.symlink(root / "b", root / "alias")
    result = {}
    worker = threading.Thread(target=lambda: result.update(out=walk_all([root], follow_symlinks=True)))
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "walk hangs on a symlink loop"
    entries, problems = result["out"]
    assert sorted(e.relpath for e in entries) == ["a/x.txt", "b/1.txt", "b/2.txt", "z.txt"]
    reasons = {p.relpath: p.reason for p in problems}
    assert reasons["a/loop"] == "folder already visited (symbolic link loop or alias)"
    assert reasons["alias"] == "folder already visited (symbolic link loop or alias)"


def test_followed_symlinks_never_leave_the_roots(tmp_path):
    root, outside = tmp_path / "r", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "private.txt").write_text("private")
    (root / "inside.txt").write_text("inside")
    os.symlink(outside, root / "out-dir")
    os.symlink(outside / "private.txt", root / "out-file")
    os.symlink(root / "inside.txt", root / "in-file")
    os.symlink(tmp_path / "nowhere", root / "broken")
    entries, problems = walk_all([root], follow_symlinks=True)
    assert sorted(e.relpath for e in entries) == ["in-file", "inside.txt"]
    followed = next(e for e in entries if e.relpath == "in-file")
    assert followed.abspath == str(root / "inside.txt")
    reasons = {p.relpath: p.reason for p in problems}
    assert reasons["out-dir"] == reasons["out-file"] == "symbolic link points outside the chosen folders"
    assert reasons["broken"] == "symbolic link points outside the chosen folders"


def test_fifo_is_reported_not_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "ok.txt").write_text("fine")
    entries, problems = walk_all([tmp_path])
    assert [e.relpath for e in entries] == ["ok.txt"]
    assert [(p.relpath, p.reason) for p in problems] == [("pipe", "not a regular file (FIFO)")]


def test_names_with_newlines_and_invalid_utf8(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/bad-\xff\xfe-name.txt"
    with open(raw, "wb") as fh:
        fh.write(b"odd bytes")
    (tmp_path / "new\nline.txt").write_text("newline")
    entries, problems = walk_all([tmp_path])
    names = [e.relpath for e in entries]
    assert "bad-\udcff\udcfe-name.txt" in names and "new\nline.txt" in names
    assert problems == []
    for e in entries:
        [doc] = extract_entry(e, Limits())
        assert doc.status == "ok"
        assert doc.relpath == e.relpath
    assert display_path("bad-\udcff\udcfe-name.txt") == "bad-\\xff\\xfe-name.txt"
    assert display_path("new\nline.txt") == "new\\nline.txt"
    assert os.fsencode("bad-\udcff\udcfe-name.txt") == b"bad-\xff\xfe-name.txt"


def test_unreadable_file(tmp_path, monkeypatch):
    path = tmp_path / "locked.txt"
    path.write_text("secret")
    entry = entry_for(path)
    if os.geteuid() == 0:  # root reads anything: make the open fail as it would for a user
        real_open = os.open

        def deny(p, *args, **kwargs):
            if os.fspath(p) == str(path):
                raise PermissionError(13, "Permission denied")
            return real_open(p, *args, **kwargs)

        monkeypatch.setattr(extract_module.os, "open", deny)
    else:
        path.chmod(0)
    [doc] = extract_entry(entry, Limits())
    assert (doc.status, doc.reason, doc.format) == ("error", "unreadable: permission denied", "txt")


def test_unreadable_folder(tmp_path, monkeypatch):
    (tmp_path / "closed").mkdir()
    (tmp_path / "closed" / "f.txt").write_text("x")
    walk_module = importlib.import_module("ndd_desktop.ingest.walk")  # the package's walk is the function

    real_scandir, real_open = os.scandir, os.open

    def deny(p, *args):
        if not isinstance(p, int) and os.fspath(p).endswith("closed"):
            raise PermissionError(13, "Permission denied")
        return (real_open if args else real_scandir)(p, *args)

    # (the tests run as root here, whom no mode keeps out) a folder is listed through its
    # descriptor where the system allows, else by its path: both are refused
    monkeypatch.setattr(walk_module.os, "scandir", deny)
    monkeypatch.setattr(walk_module.os, "open", deny)
    entries, problems = walk_all([tmp_path])
    assert entries == []
    assert [(p.relpath, p.status, p.reason) for p in problems] == [
        ("closed", "error", "unreadable folder: Permission denied")]


def test_file_vanishing_after_the_walk(tmp_path):
    (tmp_path / "gone.txt").write_text("soon gone")
    [entry] = walk([tmp_path])
    os.remove(entry.abspath)
    [doc] = extract_entry(entry, Limits())
    assert (doc.status, doc.reason) == ("error", "vanished during the scan (file not found)")


def test_file_changed_after_the_walk_is_read_as_it_is_now(tmp_path):
    path = tmp_path / "grows.txt"
    path.write_text("short")
    [entry] = walk([tmp_path])
    path.write_text("a good deal longer now")
    [doc] = extract_entry(entry, Limits())
    assert (doc.status, doc.text, doc.size) == ("ok", "a good deal longer now", 22)
    assert doc.mtime_ns == os.stat(path).st_mtime_ns


def test_file_changing_while_read(tmp_path, monkeypatch):
    path = tmp_path / "moving.txt"
    path.write_text("being written")
    [entry] = walk([tmp_path])
    real_fstat, calls = os.fstat, []

    def fstat(fd):
        st = real_fstat(fd)
        calls.append(1)
        if len(calls) == 2:  # the second look, after reading, sees a new size
            return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid,
                                   st.st_gid, st.st_size + 10, st.st_atime, st.st_mtime, st.st_ctime))
        return st

    monkeypatch.setattr(extract_module.os, "fstat", fstat)
    [doc] = extract_entry(entry, Limits())
    assert (doc.status, doc.reason) == ("error", "changed while being read (try again when it is stable)")


def test_file_replaced_by_a_symlink_after_the_walk_is_not_followed(tmp_path):
    root = tmp_path / "r"
    root.mkdir()
    (tmp_path / "outside.txt").write_text("outside text")
    path = root / "f.txt"
    path.write_text("inside")
    [entry] = walk([root])
    path.unlink()
    os.symlink(tmp_path / "outside.txt", path)
    [doc] = extract_entry(entry, Limits())
    assert (doc.status, doc.reason) == ("skipped", "symbolic link (not followed)")


def test_files_come_in_the_order_of_their_names_bytes(tmp_path):
    ascii_only = tmp_path / "plain"
    mixed = tmp_path / "mixed"
    for folder, names in ((ascii_only, ["b", "B", "_x", "a1", "A"]), (mixed, ["b", "é", "B", "z", "Z1"])):
        folder.mkdir()
        for name in names:
            (folder / name).write_text("x")
    assert [e.relpath for e in walk([ascii_only])] == ["A", "B", "_x", "a1", "b"]
    # é is 0xC3 0xA9 in UTF-8: after every ASCII name
    assert [e.relpath for e in walk([mixed])] == ["B", "Z1", "b", "z", "é"]


def test_a_folder_of_plain_files_asked_at_once_gives_the_walk_entry_by_entry_gives(tmp_path, monkeypatch):
    """A folder whose entries are all plain files is asked in one C call
    (``core.native.stat_names``); a folder with anything else, and a file gone between the
    listing and its stat, take the loop entry by entry: the same walk and reports."""
    from ndd_desktop.core import native
    from ndd_desktop.ingest import reasons as R

    make_tree(tmp_path / "r")
    os.symlink(tmp_path / "r" / "a", tmp_path / "r" / "b" / "link")
    (tmp_path / "r" / "c").mkdir()
    for k in range(50):
        (tmp_path / "r" / "c" / f"f{k:02d}.txt").write_text("x" * k)
    assert native.stat_names(os.open(tmp_path / "r" / "c", os.O_RDONLY), ["f01.txt"]) is not None  # (built here)

    def walked():
        entries, problems = walk_all([tmp_path / "r"])
        return [(e.relpath, e.size, e.mtime_ns) for e in entries], [(p.relpath, p.reason) for p in problems]

    at_once = walked()
    monkeypatch.setattr(native, "stat_names", lambda fd, names: None)
    assert walked() == at_once
    assert [r for r, _, _ in at_once[0]][-3:] == ["c/f47.txt", "c/f48.txt", "c/f49.txt"]
    assert at_once[0][-1][1] == 49 and at_once[1] == [("b/link", "symbolic link (not followed)")]
    monkeypatch.undo()
    real = native.stat_names

    def racing(fd, names):  # a file deleted after the listing, before its stat
        if "f10.txt" in names and (tmp_path / "r" / "c" / "f10.txt").exists():
            (tmp_path / "r" / "c" / "f10.txt").unlink()
        return real(fd, names)

    monkeypatch.setattr(native, "stat_names", racing)
    entries, problems = walk_all([tmp_path / "r"])
    assert "c/f10.txt" not in [e.relpath for e in entries] and len(entries) == 4 + 49
    assert [(p.relpath, p.reason) for p in problems] == [("b/link", "symbolic link (not followed)"),
                                                          ("c/f10.txt", R.VANISHED)]
