"""A file saved again with the same content is not read again, but its documents take its
new time where their date was the file's time (the version order and the keeper rule
``latest`` read those dates); a date from inside a document stays."""

from __future__ import annotations

import os
from datetime import datetime, timezone

from pipehelp import scan

MAIL = (
    "From: a@example.org\r\nTo: b@example.org\r\nSubject: minutes\r\n"
    "Date: Mon, 01 Jan 2001 10:00:00 +0000\r\nMessage-ID: <m1@example.org>\r\n\r\n"
    "the minutes of the meeting on the first day of the year, read and approved\r\n"
)


def _set_time(path, when: datetime) -> int:
    ns = int(when.timestamp()) * 1_000_000_000
    os.utime(path, ns=(ns, ns))
    return ns


def test_a_file_saved_again_unchanged_takes_its_new_time(store, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.txt").write_text("a note about the budget of the year, with its figures and remarks")
    (folder / "mail.eml").write_bytes(MAIL.encode("ascii"))
    first = datetime(2020, 3, 1, tzinfo=timezone.utc)
    for name in ("note.txt", "mail.eml"):
        _set_time(folder / name, first)
    scan(store, [folder])
    before = {d.relpath: d for d in store.documents.all(status=None)}
    assert before["note.txt"].date == first.timestamp()
    mail_date = datetime(2001, 1, 1, 10, tzinfo=timezone.utc).timestamp()
    assert before["mail.eml"].date == mail_date

    later = datetime(2024, 6, 1, tzinfo=timezone.utc)
    ns = {name: _set_time(folder / name, later) for name in ("note.txt", "mail.eml")}
    summary = scan(store, [folder])
    assert summary.changed == 0 and summary.new == 0  # the same bytes: not read again
    after = {d.relpath: d for d in store.documents.all(status=None)}
    assert after["note.txt"].date == later.timestamp()  # dated by its file: the new time
    assert after["note.txt"].mtime_ns == ns["note.txt"]
    assert after["mail.eml"].date == mail_date  # its own Date header stays
    assert after["mail.eml"].mtime_ns == ns["mail.eml"]
    assert {d.relpath: d.id for d in after.values()} == {d.relpath: d.id for d in before.values()}
