"""What ``ndd scan`` says beyond its counts: review decisions that stopped applying, a
folder that emptied (a drive not mounted), documents read only in part, and the advice
when a collection's folder lies inside the one scanned now."""

from __future__ import annotations

import csv
import io
import random

import pytest

from ndd_desktop.store import Store
from cli_run import run

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road church mill "
         "farm court clerk deed lease survey map plan rent wage fund loan grant ledger quay cargo").split()


def text(seed: int, n: int = 120) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n)) + "\n"


@pytest.fixture
def folder(tmp_path):
    """Two pairs of near copies: a1 ~ a2, b1 ~ b2 (one word apart), in docs/ and docs/sub/."""
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "a1.txt").write_text(text(1))
    (docs / "a2.txt").write_text(text(1).replace(" ", " extra ", 1))
    (docs / "sub" / "b1.txt").write_text(text(2))
    (docs / "sub" / "b2.txt").write_text(text(2).replace(" ", " extra ", 1))
    return docs


def ids(db) -> dict[str, int]:
    with Store.open(str(db)) as s:
        return {d.relpath: d.id for d in s.documents.all()}


def test_decisions_that_no_longer_apply_are_named(capsys, folder, tmp_path):
    """A keeper's file edited: the scan said "1 changed" and the keeper moved to another
    document without a word."""
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db)[0] == 0
    doc = ids(db)
    with Store.open(str(db)) as s:
        s.review.set_keeper(doc["a2.txt"], True)
        s.review.set_verdict(doc["a1.txt"], doc["a2.txt"], "duplicate")
        s.review.set_verdict(doc["sub/b1.txt"], doc["sub/b2.txt"], "not_duplicate")
    with (folder / "a2.txt").open("a") as fh:
        fh.write("one more line\n")
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 0, err
    assert "1 changed" in err
    assert ("ndd: note: 2 review decisions no longer apply: their documents changed since they were made "
            "(a2.txt); review them again\n") in err
    # an unchanged rescan: nothing more lapses
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 0 and "no longer apply" not in err
    with Store.open(str(db)) as s:
        s.review.set_keeper(doc["a1.txt"], True)
    (folder / "a1.txt").write_text(text(1).replace(" ", " other ", 1))
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert ("ndd: note: 1 review decision no longer applies: its document changed since it was made (a1.txt); "
            "review it again\n") in err


def test_decisions_carried_to_their_content_do_not_count_as_lapsed(capsys, folder, tmp_path):
    """Two files swapped by name: the decisions follow their content (re-attached)."""
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db)[0] == 0
    with Store.open(str(db)) as s:
        s.review.set_keeper(ids(db)["a2.txt"], True)
    a1, a2 = (folder / "a1.txt").read_text(), (folder / "a2.txt").read_text()
    (folder / "a1.txt").write_text(a2)
    (folder / "a2.txt").write_text(a1)
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 0, err
    assert "re-attached" in err and "no longer apply" not in err


def test_a_folder_that_now_holds_nothing_is_warned_about(capsys, folder, tmp_path):
    """A drive not mounted leaves its mount point, empty: every document of the folder was
    removed, exit 0, and nothing said why."""
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "-q")[0] == 0
    away = tmp_path / "away"
    folder.rename(away)
    folder.mkdir()
    status, _, err = run(capsys, "scan", folder, "--db", db, "-q")
    assert status == 0
    assert (f"ndd: warning: {folder} held 4 documents and now holds none: is a drive not mounted? Their "
            "documents were removed from the collection (the files were not touched); scan again once the "
            "folder holds them: their review decisions come back with the files\n") == err
    folder.rmdir()
    away.rename(folder)
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 0 and "4 new" in err and "warning" not in err


def test_a_folder_that_keeps_some_documents_is_not_warned_about(capsys, folder, tmp_path):
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "-q")[0] == 0
    for name in ("a1.txt", "a2.txt", "sub/b1.txt"):
        (folder / name).unlink()
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 0 and "3 removed" in err and "warning" not in err


def test_a_document_read_in_part_is_named_by_the_scan(capsys, tmp_path):
    """A text cut at the size limit: the scan said "0 skipped or failed" and named nothing;
    only 'ndd errors' told."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "short.txt").write_text(text(3))
    line = text(4)
    with (docs / "long.txt").open("w") as fh:  # more than the 20,000,000 characters read
        fh.write(line * (20_000_000 // len(line) + 2))
    db = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", docs, "--db", db, "--workers", "0")
    assert status == 0, err
    assert "partial: long.txt: text truncated to 20,000,000 characters\n" in err
    assert "ndd: note: 1 document read only in part: the rest of its content was not compared" in err
    assert "short.txt" not in err
    # an unchanged rescan read nothing again: it names nothing
    status, _, err = run(capsys, "scan", docs, "--db", db, "--workers", "0")
    assert status == 0 and "partial" not in err


def test_the_advice_for_a_folder_inside_the_one_scanned_leads_somewhere(capsys, folder, tmp_path):
    """A collection of docs/sub widened to docs: the refusal said "name them too", and
    naming both was refused in turn (one folder inside another)."""
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder / "sub", "--db", db, "-q")[0] == 0
    with Store.open(str(db)) as s:
        s.review.set_verdict(ids(db)["b1.txt"], ids(db)["b2.txt"], "not_duplicate")
    status, _, err = run(capsys, "scan", folder, "--db", db)
    assert status == 2 and err.count("\n") == 1
    assert f"holds {folder / 'sub'}, which lies inside {folder} given here" in err
    assert "name them too" not in err
    assert "Leave it out and add --replace: the documents still in it are kept" in err
    # the advice holds: the documents of sub stay, with their verdict
    status, _, err = run(capsys, "scan", folder, "--db", db, "--replace")
    assert status == 0, err
    assert sorted(ids(db)) == ["a1.txt", "a2.txt", "sub/b1.txt", "sub/b2.txt"]
    status, out, _ = run(capsys, "pairs", "--db", db, "--format", "csv")
    verdicts = {frozenset((r["a"], r["b"])): r["verdict"] for r in csv.DictReader(io.StringIO(out))}
    assert verdicts[frozenset(("sub/b1.txt", "sub/b2.txt"))] == "not_duplicate"


def test_the_advice_for_narrowing_a_collection_to_a_folder_inside_it(capsys, folder, tmp_path):
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", folder, "--db", db, "-q")[0] == 0
    status, _, err = run(capsys, "scan", folder / "sub", "--db", db)
    assert status == 2 and err.count("\n") == 1
    assert f"holds {folder}, which holds {folder / 'sub'} given here" in err
    assert f"Scan {folder} to keep all of it, or add --replace to keep only {folder / 'sub'}" in err
    assert "name them too" not in err


def test_the_same_folder_through_a_symbolic_link_is_the_collection_s_folder(capsys, folder, tmp_path):
    """Scanned through a link to it, the folder was refused as another ("this collection also
    holds ..."), and with --replace dropped and added again: every file read anew and a keeper
    chosen between two copies lost."""
    db = tmp_path / "c.ndd"
    (folder / "a1 copy.txt").write_text((folder / "a1.txt").read_text())
    assert run(capsys, "scan", folder, "--db", db, "-q")[0] == 0
    before = ids(db)
    with Store.open(str(db)) as s:
        s.review.set_keeper(before["a1 copy.txt"], True, reviewer="ann")
    link = tmp_path / "link"
    link.symlink_to(folder, target_is_directory=True)
    status, _, err = run(capsys, "scan", link, "--db", db)
    assert status == 0, err
    assert "0 new, 0 changed, 0 moved, 0 removed" in err
    assert ids(db) == before
    with Store.open(str(db)) as s:
        assert [r.path for r in s.documents.roots()] == [str(folder)]
        assert s.review.keepers() == {before["a1 copy.txt"]}
