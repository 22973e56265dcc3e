"""``ndd threads`` and ``ndd export --emails inclusive`` on hand-made mail files, scanned for real."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest

from ndd_desktop.cli import main
from ndd_desktop.store import Store
from cli_run import run

A_TEXT = ("Dear all, the council will meet on Thursday at ten in the small hall to settle the harbour budget.\n"
          "Please bring the survey of the east quay and the figures from last spring.")
B_OWN = "Thursday suits me. I will bring the survey, but the spring figures are still with the treasurer."
C_OWN = "Thanks both. The treasurer sent the figures this morning; see you on Thursday."
M1 = "The minutes of the March meeting are attached to this note for everyone to read before Friday."
M2 = "I have read the minutes and I agree with them, apart from the paragraph on the railway bridge."


def eml(headers: dict, body: str, attachment: tuple[str, str] | None = None) -> str:
    head = "".join(f"{k}: {v}\n" for k, v in headers.items())
    if attachment is None:
        return head + "Content-Type: text/plain; charset=utf-8\n\n" + body + "\n"
    name, text = attachment
    return (head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="XX"\n\n--XX\n'
            "Content-Type: text/plain; charset=utf-8\n\n" + body + "\n--XX\n"
            f'Content-Type: text/plain; name="{name}"\nContent-Disposition: attachment; filename="{name}"\n\n'
            + text + "\n--XX--\n")


def quote(text: str) -> str:
    return "\n".join("> " + line for line in text.split("\n"))


@pytest.fixture
def mail(tmp_path):
    root = tmp_path / "mail"
    root.mkdir()
    (root / "1.eml").write_text(eml({"From": "Alice <alice@example.org>", "Subject": "Harbour budget",
                                     "Date": "Mon, 03 Jan 2022 10:00:00 +0000", "Message-ID": "<a@example.org>"},
                                    A_TEXT, ("budget-notes.txt", "Unique notes on the quay budget " * 20)))
    b_body = f"{B_OWN}\n\nOn Mon, 3 Jan 2022 at 10:00, Alice <alice@example.org> wrote:\n{quote(A_TEXT)}"
    (root / "2.eml").write_text(eml({"From": "Bob <bob@example.org>", "Subject": "Re: Harbour budget",
                                     "Date": "Mon, 03 Jan 2022 12:00:00 +0000", "Message-ID": "<b@example.org>",
                                     "In-Reply-To": "<a@example.org>", "References": "<a@example.org>"}, b_body))
    c_body = (f"{C_OWN}\n\n________________________________\nFrom: Bob <bob@example.org>\n"
              f"Sent: Monday, January 3, 2022 12:00 PM\nTo: Alice\nSubject: Re: Harbour budget\n\n{b_body}")
    (root / "3.eml").write_text(eml({"From": "Carol <carol@example.org>", "Subject": "RE: Harbour budget",
                                     "Date": "Tue, 04 Jan 2022 09:00:00 +0000", "Message-ID": "<c@example.org>",
                                     "In-Reply-To": "<b@example.org>",
                                     "References": "<a@example.org> <b@example.org>"}, c_body))
    # an mbox without Message-IDs, encoded subjects, Thunderbird quoting, and a body line
    # starting with "From " that is no separator (no blank line before it)
    box = ("From alice@example.org Mon Jan  3 10:00:00 2022\n"
           "From: Alice <alice@example.org>\nSubject: =?utf-8?q?R=C3=A9union?=\nDate: Mon, 10 Jan 2022 10:00:00 +0000\n\n"
           f"{M1}\nFrom the clerk's office.\n\n"
           "From bob@example.org Mon Jan 10 11:00:00 2022\n"
           "From: Bob <bob@example.org>\nSubject: Re: =?utf-8?q?R=C3=A9union?=\nDate: Mon, 10 Jan 2022 11:00:00 +0000\n\n"
           f"On 10/01/2022 10:00, Alice wrote:\n{quote(M1)}\n> From the clerk's office.\n\n{M2}\n")
    (root / "box.mbox").write_text(box)
    db = tmp_path / "c.ndd"
    assert main(["scan", str(root), "--db", str(db), "--workers", "0", "-q"]) == 0
    return root, db


def test_threads_csv_and_json(capsys, mail):
    root, db = mail
    status, out, err = run(capsys, "threads", "--db", db)
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    by_path = {r["path"]: r for r in rows}
    assert set(by_path) == {"1.eml", "2.eml", "3.eml", "box.mbox!message-1", "box.mbox!message-2"}
    assert by_path["1.eml"]["thread"] == by_path["2.eml"]["thread"] == by_path["3.eml"]["thread"]
    assert [by_path[p]["position"] for p in ("1.eml", "2.eml", "3.eml")] == ["1", "2", "3"]
    assert [by_path[p]["inclusive"] for p in ("1.eml", "2.eml", "3.eml")] == ["no", "no", "yes"]
    assert by_path["1.eml"]["message_id"] == "<a@example.org>"
    assert "2.eml" in by_path["1.eml"]["reason"]
    m1, m2 = by_path["box.mbox!message-1"], by_path["box.mbox!message-2"]
    assert m1["thread"] == m2["thread"] != by_path["1.eml"]["thread"]
    assert m1["subject"] == "Réunion" and (m1["inclusive"], m2["inclusive"]) == ("no", "yes")
    status, out, _ = run(capsys, "threads", "--db", db, "--format", "json")
    threads = json.loads(out)
    assert len(threads) == 2
    first = threads[0]["messages"]
    assert [m["path"] for m in first] == ["1.eml", "2.eml", "3.eml"]
    assert first[1]["parent"] == first[0]["id"] and first[2]["parent"] == first[1]["id"]


def test_headers_survive_an_unchanged_rescan(capsys, mail):
    root, db = mail
    with Store.open(db) as store:
        before = store.emails.headers()
    assert len(before) == 5
    assert main(["scan", str(root), "--db", str(db), "--workers", "0", "-q"]) == 0
    with Store.open(db) as store:
        assert store.emails.headers() == before
    os.remove(root / "3.eml")  # a removed message takes its headers with it
    assert main(["scan", str(root), "--db", str(db), "--workers", "0", "-q"]) == 0
    with Store.open(db) as store:
        assert sorted(h.relpath for h in store.emails.headers()) == ["1.eml", "2.eml", "box.mbox!message-1",
                                                                    "box.mbox!message-2"]


def test_export_inclusive_emails(capsys, mail, tmp_path):
    root, db = mail
    out_dir = tmp_path / "out"
    status, _, err = run(capsys, "export", "--db", db, "--to", out_dir, "--emails", "inclusive", "--report", "csv")
    assert status == 0, err
    files = {str(p.relative_to(out_dir)).split(os.sep, 1)[1] for p in out_dir.rglob("*") if p.is_file()
             and p.parent != out_dir}
    assert "3.eml" in files and "2.eml" not in files
    # 1.eml is not inclusive, but its attachment appears nowhere else: the file goes out
    assert "1.eml" in files
    assert "box.mbox" in files  # its second message is inclusive
    with open(out_dir / "_ndd_reports" / "documents.csv", newline="", encoding="utf-8") as fh:
        notes = {r["path"].split("/", 1)[1]: r["note"] for r in csv.DictReader(fh)}
    assert notes["2.eml"].startswith("e-mail not inclusive")
    assert notes["1.eml"].startswith("e-mail not inclusive")
    # its file goes out for the attachment: the note says so (the reason of the option hid it)
    assert notes["1.eml"].endswith("; exported inside its container")
    assert "exported inside its container" not in notes["2.eml"]
    assert notes["1.eml!budget-notes.txt"] == ""
    # a message left out names the later message that holds its text, which is exported
    with open(out_dir / "_ndd_reports" / "documents.csv", newline="", encoding="utf-8") as fh:
        rows = {r["path"].split("/", 1)[1]: r for r in csv.DictReader(fh)}
    assert (rows["2.eml"]["role"], rows["2.eml"]["duplicate_of"].split("/", 1)[1]) == ("duplicate", "3.eml")
    assert rows["3.eml"]["export_status"] == "copied" and rows["3.eml"]["duplicate_of"] == ""


def _answers(root) -> None:
    """1.eml and two answers to it, 2.eml and 3.eml, each quoting it whole after a line of
    its own."""
    root.mkdir(parents=True)
    (root / "1.eml").write_text(eml({"From": "Alice <alice@example.org>", "Subject": "Harbour budget",
                                     "Date": "Mon, 03 Jan 2022 10:00:00 +0000", "Message-ID": "<a@example.org>"},
                                    A_TEXT + "\n" + M1 + "\n" + M2))
    full = f"On Mon, 3 Jan 2022 at 10:00, Alice <alice@example.org> wrote:\n{quote(A_TEXT + chr(10) + M1 + chr(10) + M2)}"
    for n, own, hour in ((2, B_OWN, 11), (3, C_OWN, 12)):
        (root / f"{n}.eml").write_text(eml({"From": "Bob <bob@example.org>", "Subject": "Re: Harbour budget",
                                            "Date": f"Mon, 03 Jan 2022 {hour}:00:00 +0000",
                                            "Message-ID": f"<r{n}@example.org>", "In-Reply-To": "<a@example.org>",
                                            "References": "<a@example.org>"}, f"{own}\n\n{full}"))


def test_export_inclusive_keeps_an_inclusive_reply_its_group_left_out(capsys, tmp_path):
    """Two answers to one message, each quoting it whole with a line of its own: the
    second is an inclusive message (no later one holds it), but scores as a near
    duplicate of the first (0.8 of it is the quote they share), which the oldest rule
    keeps. With --emails inclusive it goes out all the same: its own line is in no other
    message. Without the option it is left out, as any near duplicate."""
    root = tmp_path / "mail"
    _answers(root)
    db = tmp_path / "c.ndd"
    assert main(["scan", str(root), "--db", str(db), "--workers", "0", "-q"]) == 0
    for option, want in (([], {"1.eml", "2.eml"}), (["--emails", "inclusive"], {"2.eml", "3.eml"})):
        out_dir = tmp_path / ("out" + "".join(option))
        status, _, err = run(capsys, "export", "--db", db, "--to", out_dir, "--keeper-rule", "oldest", *option)
        assert status == 0, err
        files = {p.name for p in out_dir.rglob("*.eml")}
        assert files == want, option


def test_an_inclusive_reply_saved_twice_is_exported_once(capsys, tmp_path):
    """The same thread in two folders, byte for byte: each copy of 3.eml was put back as
    an inclusive e-mail, each judged against its group's kept message only."""
    _answers(tmp_path / "src" / "mail")
    _answers(tmp_path / "src" / "copy")
    db = tmp_path / "c.ndd"
    assert main(["scan", str(tmp_path / "src"), "--db", str(db), "--workers", "0", "-q"]) == 0
    out_dir = tmp_path / "out"
    status, _, err = run(capsys, "export", "--db", db, "--to", out_dir, "--keeper-rule", "oldest",
                         "--emails", "inclusive")
    assert status == 0, err
    names = sorted(p.name for p in out_dir.rglob("*.eml"))
    assert names == ["2.eml", "3.eml"], names
