"""`ndd scan` keeps a collection whole: other folders, a second scan, its own file, bad input."""

from __future__ import annotations

import os
import zipfile

import pytest

from ndd_desktop.pipeline.job import own_files_inside
from ndd_desktop.pipeline.scan_lock import scan_lock
from ndd_desktop.store import Store
from cli_run import run

TEXT = "the harbour board agreed to repair the north pier before the winter storms arrive in the bay"


def relpaths(db) -> list[str]:
    store = Store.open(str(db))
    try:
        return sorted(d.relpath for d in store.documents.all(status=None))
    finally:
        store.close()


@pytest.fixture
def two_folders(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.txt").write_text(f"{TEXT} ({name})")
    return tmp_path


def test_a_scan_naming_fewer_folders_is_refused_unless_replace(capsys, two_folders):
    db = two_folders / "c.ndd"
    assert run(capsys, "scan", two_folders / "a", two_folders / "b", "--db", db)[0] == 0
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", db)
    assert status == 2
    assert str(two_folders / "b") in err and "--replace" in err
    assert f"this folder: {two_folders / 'b'}. A scan's folders" in err and err.count("\n") == 1
    assert relpaths(db) == ["a.txt", "b.txt"]  # nothing dropped
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", db, "--replace")
    assert status == 0
    assert "1 removed" in err
    assert relpaths(db) == ["a.txt"]


def test_a_second_scan_of_the_same_collection_is_refused_while_one_runs(capsys, two_folders):
    db = two_folders / "c.ndd"
    assert run(capsys, "scan", two_folders / "a", "--db", db)[0] == 0
    with scan_lock(str(db)):  # as another scan holds it
        status, _, err = run(capsys, "scan", two_folders / "a", "--db", db)
    assert status == 2
    assert "another scan of this collection is running" in err and f"process {os.getpid()}" in err
    assert run(capsys, "scan", two_folders / "a", "--db", db)[0] == 0  # the lock went with it


def test_a_collection_named_through_a_link_is_locked_as_itself(capsys, two_folders):
    db = two_folders / "c.ndd"
    link = two_folders / "link.ndd"
    assert run(capsys, "scan", two_folders / "a", "--db", db)[0] == 0
    link.symlink_to(db)
    with scan_lock(str(db)):  # a scan through the real name holds it
        status, _, err = run(capsys, "scan", two_folders / "a", "--db", link)
    assert status == 2 and "another scan of this collection is running" in err
    assert not (two_folders / "link.ndd.lock").exists()


def test_the_collection_file_inside_a_scanned_folder_is_not_a_document(capsys, two_folders):
    db = two_folders / "a" / "c.ndd"
    assert run(capsys, "scan", two_folders / "a", "--db", db)[0] == 0
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", db)
    assert status == 0 and "0 changed" in err
    assert relpaths(db) == ["a.txt"]  # not c.ndd, c.ndd-wal, c.ndd.lock ...
    with Store.open(str(db)) as store:  # a decision writes the review's copy beside the file
        store.review.set_keeper(store.documents.all()[0].id, True)
    assert (two_folders / "a" / "c.ndd.review.json").exists()
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", db)
    assert status == 0 and "0 new" in err
    assert relpaths(db) == ["a.txt"]  # nor the review's copy


def test_the_collection_file_is_no_document_when_its_folder_is_scanned_through_a_link(capsys, two_folders):
    # the folder named is a symbolic link to the folder that holds the collection file,
    # which the scan is told by that folder's real path: the file is still recognised
    link = two_folders / "link"
    link.symlink_to(two_folders / "a", target_is_directory=True)
    db = two_folders / "a" / "c.ndd"
    assert run(capsys, "scan", link, "--db", db)[0] == 0
    status, _, err = run(capsys, "scan", link, "--db", db)
    assert status == 0 and "0 new, 0 changed" in err
    assert relpaths(db) == ["a.txt"]


def test_only_a_collection_file_inside_a_scanned_folder_is_looked_for(two_folders):
    link = two_folders / "link"
    link.symlink_to(two_folders / "a", target_is_directory=True)
    inside = own_files_inside(str(two_folders / "a" / "c.ndd"), [str(link)])
    assert str((two_folders / "a" / "c.ndd").resolve()) in inside
    assert str((two_folders / "a" / "c.ndd-wal").resolve()) in inside
    assert own_files_inside(str(two_folders / "c.ndd"), [str(link), str(two_folders / "b")]) == set()
    # a folder whose name only begins like the one holding the file does not hold it
    assert own_files_inside(str(two_folders / "ab" / "c.ndd"), [str(link)]) == set()


def test_zip_members_of_one_name_and_a_file_named_like_a_member_all_stay(capsys, tmp_path):
    folder = tmp_path / "box"
    folder.mkdir()
    with zipfile.ZipFile(folder / "box.zip", "w") as z, pytest.warns(UserWarning, match="Duplicate name"):
        z.writestr("x.txt", TEXT + " first")
        z.writestr("x.txt", TEXT + " second")  # ZIP allows a name twice
        z.writestr("y!z.txt", TEXT + " third")
    (folder / "box.zip!x.txt").write_text(TEXT + " a file on disk")
    db = tmp_path / "c.ndd"
    for _ in range(2):  # the names are the same on a rescan
        status, _, err = run(capsys, "scan", folder, "--db", db, "--workers", "0")
        assert status == 0, err
        assert relpaths(db) == ["box.zip!x (2).txt", "box.zip!x (3).txt", "box.zip!x.txt", "box.zip!y_z.txt"]
    store = Store.open(str(db))
    try:
        docs = {d.relpath: d for d in store.documents.all(status=None)}
    finally:
        store.close()
    assert docs["box.zip!x.txt"].container is None  # the file on disk kept its own name
    assert {docs[n].container for n in ("box.zip!x (2).txt", "box.zip!x (3).txt", "box.zip!y_z.txt")} == {"box.zip"}


def test_negative_workers_are_refused(capsys, two_folders):
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", two_folders / "c.ndd", "--workers", "-3")
    assert status == 2 and "must be 0 or more" in err


def test_sigterm_cancels_a_scan_like_ctrl_c():
    import signal

    from ndd_desktop.cli.scan_cmd import _cancel_on_sigint
    from ndd_desktop.pipeline import CancelToken

    token = CancelToken()
    before = signal.getsignal(signal.SIGTERM)
    with _cancel_on_sigint(token):
        os.kill(os.getpid(), signal.SIGTERM)  # handled at once, in this (the main) thread
        assert token.cancelled
    assert signal.getsignal(signal.SIGTERM) == before


def test_fingerprint_is_completed_by_the_word_search_and_says_from_where(capsys, two_folders):
    db = two_folders / "c.ndd"
    status, _, err = run(capsys, "scan", two_folders / "a", two_folders / "b", "--db", db, "--method", "fingerprint")
    assert status == 0, err
    # its Hamming search stops at radius 24 (near-identical texts); the word search finds
    # every pair sharing 0.44 of its text or more, so at the default 0.5 nothing is missing
    assert "happened to find" not in err
    status, _, err = run(capsys, "pairs", "--db", db, "--method", "fingerprint", "--threshold", "0.4")
    assert status == 0 and "pairs below 0.44 are only those it happened to find" in err


def test_a_newline_in_a_file_name_stays_on_one_line_of_output(capsys, tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "two\nlines.bin").write_bytes(bytes(range(256)) * 4)  # skipped: not text
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd")
    assert status == 0
    line = next(x for x in err.splitlines() if x.startswith("skipped:"))
    assert "two\\nlines.bin" in line


def test_a_folder_named_twice_through_a_link_is_named_in_the_skipped_line(capsys, two_folders):
    link = two_folders / "again"
    link.symlink_to(two_folders / "a", target_is_directory=True)
    status, _, err = run(capsys, "scan", two_folders / "a", link, "--db", two_folders / "c.ndd")
    assert status == 0
    assert f"skipped: {link}: folder already scanned under another root" in err.splitlines()
    assert "1 document and 1 skipped or failed" in err


def test_pairs_asked_while_the_first_scan_runs_say_so(capsys, two_folders):
    """It advised to scan, while a scan was running."""
    db = two_folders / "c.ndd"
    assert run(capsys, "scan", two_folders / "a", "--db", db, "--method", "exact")[0] == 0
    with scan_lock(str(db)):  # as a first scan with another method holds it
        status, _, err = run(capsys, "pairs", "--db", db, "--method", "qgram")
    assert status != 0 and "a scan of it is running, and its pairs are stored when it ends" in err
    status, _, err = run(capsys, "pairs", "--db", db, "--method", "qgram")
    assert "(scan with --method qgram)" in err


def test_a_collection_path_that_cannot_be_is_refused_before_any_work(capsys, two_folders):
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", two_folders / "nowhere" / "c.ndd")
    assert status == 2 and f"folder {two_folders / 'nowhere'} does not exist" in err
    status, _, err = run(capsys, "scan", two_folders / "a", "--db", two_folders / "b")
    assert status == 2 and "is a folder, not a collection file" in err
    assert not (two_folders / "nowhere").exists()


def test_folders_given_twice_or_nested_are_refused_before_the_collection_file_is_made(capsys, two_folders):
    """Both were refused (exit 2) only after an empty collection file and its lock were made,
    which a later command then called 'not scanned yet'."""
    a = two_folders / "a"
    (a / "inner").mkdir()
    for n, extra in enumerate((["--reference", a], ["--reference", a / "inner"])):
        db = two_folders / f"z{n}.ndd"
        status, _, err = run(capsys, "scan", a, "--db", db, *extra)
        assert status == 2, err
        assert "given both as a folder to scan and as a reference" in err or "is inside" in err
        assert not db.exists() and not (two_folders / f"z{n}.ndd.lock").exists()
