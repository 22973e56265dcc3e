"""Schema 0008: text lengths a rescan recorded as 0 are taken again from the texts."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "pipeline"))
from pipehelp import make_corpus  # noqa: E402

from ndd_desktop.pipeline import ScanConfig, ScanJob  # noqa: E402
from ndd_desktop.store import Root, Store  # noqa: E402


def test_an_0007_file_with_lengths_lost_gets_them_back(tmp_path):
    folder = tmp_path / "docs"
    plain = make_corpus(folder / "plain", n=6)  # texts read from their files (marks)
    kept = make_corpus(folder / "kept", n=6, seed=1, kept=True)  # texts stored compressed
    path = tmp_path / "c.ndd"
    with Store.open(path) as s:
        ScanJob(s, ScanConfig([Root(str(folder))], "qgram", {}, 0.3, workers=0)).run()
        ids = {d.relpath: d.id for d in s.documents.all()}
    want = {f"plain/{n}": len(t) for n, t in plain.items()} | {f"kept/{n}": len(t) for n, t in kept.items()}
    lost = ["plain/doc001.txt", "kept/doc002.txt", "kept/doc004.txt"]
    (folder / "plain" / "doc003.txt").write_text("changed since the scan")  # its file no longer serves
    con = sqlite3.connect(path)
    con.executemany("UPDATE documents SET text_length = 0 WHERE id = ?",
                    [(ids[n],) for n in lost + ["plain/doc003.txt"]])
    # what 0009 added goes, as in a file written by the release of 0008
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")
    con.execute("DROP TABLE content_facts")
    con.execute("UPDATE alembic_version SET version_num = '0007'")
    con.commit()
    con.close()
    with Store.open(path) as s:
        assert s.schema_revision() == "0009"
        got = {d.relpath: d.text_length for d in s.documents.all()}
    assert {n: got[n] for n in lost} == {n: want[n] for n in lost}
    assert got["plain/doc003.txt"] == 0  # nothing to take the length from: left as it was
    assert {n: got[n] for n in want if n not in lost and n != "plain/doc003.txt"} == \
        {n: want[n] for n in want if n not in lost and n != "plain/doc003.txt"}
