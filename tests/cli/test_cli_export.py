"""``ndd export`` when files changed after the scan: what it names and what it advises."""

from __future__ import annotations

import os

from cli_run import run


def _corpus(tmp_path):
    """Two copies of a letter (one left out by an exact export) and an unrelated note."""
    src = tmp_path / "src"
    src.mkdir()
    text = "the council met on tuesday to discuss the new bridge over the river and the harbour works\n"
    (src / "letter.txt").write_text(text)
    (src / "letter-copy.txt").write_text(text)
    (src / "note.txt").write_text("a recipe for apple pie with cinnamon, butter and a crisp lattice crust\n")
    return src, tmp_path / "c.ndd"


def _scan(capsys, tmp_path):
    src, db = _corpus(tmp_path)
    status, _, err = run(capsys, "scan", src, "--db", db, "--method", "exact")
    assert status == 0, err
    return src, db


def test_a_bag_with_a_changed_file_advises_a_rescan_and_names_no_unwritten_report(capsys, tmp_path):
    """It advised "run the same export again" (which can never succeed) and named
    _ndd_reports/left_out.csv, which a bag that was not made does not have."""
    src, db = _scan(capsys, tmp_path)
    with open(src / "note.txt", "a", encoding="utf-8") as fh:
        fh.write("edited after the scan\n")
    dest = tmp_path / "bag"
    status, _, err = run(capsys, "export", "--db", db, "--to", dest, "--bagit")
    assert status == 1, err
    assert "rescan (ndd scan), then export to a new folder" in err
    assert "run the same export again" not in err
    assert "left_out.csv" not in err and not (dest / "_ndd_reports").exists()
    assert "1 document left out" in err


def test_a_left_out_file_that_changed_fails_the_export(capsys, tmp_path):
    src, db = _scan(capsys, tmp_path)
    with open(src / "letter-copy.txt", "a", encoding="utf-8") as fh:
        fh.write("new text written after the scan, found nowhere else\n")
    with open(src / "letter.txt", "a", encoding="utf-8") as fh:  # whichever of the two is left out
        fh.write("other new text written after the scan\n")
    dest = tmp_path / "out"
    status, _, err = run(capsys, "export", "--db", db, "--to", dest)
    assert status == 1, err
    assert "left out as a duplicate, but changed since the scan (size differs): rescan first" in err
    assert "1 left-out file changed or vanished since the scan" in err
    assert "rescan (ndd scan), then export to a new folder" in err
    assert os.path.exists(dest / "_ndd_reports" / "left_out.csv")


def test_a_kept_document_that_failed_is_noted_for_its_duplicates(capsys, tmp_path):
    src, db = _scan(capsys, tmp_path)
    for name in ("letter.txt", "letter-copy.txt"):  # the kept one fails its copy; the other is left out
        p = src / name
        st = os.stat(p)
        p.write_text(p.read_text().replace("council", "COUNCIL"))
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))  # same size and time: only its bytes differ
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "out")
    assert status == 1, err
    assert "1 document left out duplicates a document that failed to export" in err
    assert "keep its original" in err


def test_a_destination_that_cannot_be_created_is_a_usage_error(capsys, tmp_path):
    _src, db = _scan(capsys, tmp_path)
    (tmp_path / "afile").write_text("x")
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "afile" / "out")
    assert status == 2 and "cannot create the destination folder" in err and "Errno" not in err, err


def test_entries_the_scan_could_not_read_are_not_counted_as_failed_files():
    """"exported 24 of 24 files" stood next to "2 files failed", where the two were entries
    the scan could not read, never among the files planned."""
    from ndd_desktop.cli.export_cmd import _incomplete
    from ndd_desktop.export import ExportResult, FileIssue

    result = ExportResult(dest="/out", payload_dir="/out", plan_id="x", files_planned=24, copied=24,
                          plan_failures=2, failed=[FileIssue("r/a", "/src/r/a", "the scan could not read it: unreadable"),
                                                   FileIssue("r/b", "/src/r/b", "the scan could not read it: unreadable")])
    why = _incomplete(result)
    assert why == ("export incomplete: 2 entries of the scan were not exported (listed above; a rescan may "
                   "read them)")
    assert "files failed" not in why


def test_documents_left_out_with_text_of_their_own_are_counted(capsys, tmp_path):
    # two revisions of one draft, each with a paragraph of its own: near-duplicates at the
    # default 0.5, and the export that keeps one left the other's paragraph out with no word
    import random

    rng = random.Random(4)
    words = "council bridge river harbour budget mayor clerk market tower street school mill".split()
    base = " ".join(rng.choice(words) for _ in range(300))
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.txt", "b.txt"):
        own = " ".join(rng.choice(words + ["fire", "inspector", "exit"]) for _ in range(60))
        (src / name).write_text(base + "\n" + own + "\n")
    (src / "copy.txt").write_text((src / "a.txt").read_text())  # a's text: nothing of its own
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", src, "--db", db)[0] == 0
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "out", "--keeper-rule", "oldest")
    assert status == 0, err
    assert ("ndd: note: 1 document left out has a tenth or more of its text in no document it is left out "
            "for (found_in_duplicate_of under 0.9 in left_out.csv)") in err


def test_e_mails_left_out_as_near_duplicates_are_counted_with_the_way_to_keep_them(capsys, tmp_path):
    # a thread's last message, a line of its own above the whole quote, was left out as a
    # near-duplicate of the message it answers, with no note (its line was a tenth of it)
    import random

    rng = random.Random(8)
    words = "council bridge river harbour budget mayor clerk market tower street school mill".split()
    body = "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(16))
    src = tmp_path / "mail"
    src.mkdir()
    from mail_files import quote, write_message

    write_message(src / "a.eml", sender="ann@example.org", subject="Pier", mid="a@x",
                  date="1 Mar 2021 10:00:00 +0000", body=body)
    write_message(src / "b.eml", sender="bob@example.org", subject="Re: Pier", mid="b@x", in_reply_to="a@x",
                  date="2 Mar 2021 10:00:00 +0000", body=f"Fine by me.\n\n{quote(body)}")
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", src, "--db", db)[0] == 0
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "out")
    assert status == 0, err
    assert "ndd: note: 1 e-mail left out as a near-duplicate of what is kept" in err
    assert "--emails inclusive (Only inclusive e-mails in the window) keeps every message" in err
    status, _, err = run(capsys, "export", "--db", db, "--to", tmp_path / "out2", "--emails", "inclusive")
    assert status == 0 and "left out as a near-duplicate" not in err
