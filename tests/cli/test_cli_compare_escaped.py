"""``ndd compare`` takes a path spelled as ``ndd pairs`` prints it: a name that is not valid
UTF-8 is printed with ``\\xNN`` escapes, and that spelling was refused ("not a document")."""

from __future__ import annotations

import csv
import io
import os

from cli_run import run

TEXT = "the harbour board agreed to repair the north pier before the winter storms arrive in the bay " * 4


def test_compare_takes_the_escaped_spelling_that_pairs_prints(capsys, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "normal.txt").write_text(TEXT)
    with open(os.path.join(os.fsencode(docs), b"bad_\xff.txt"), "w") as fh:
        fh.write(TEXT)
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", docs, "--db", db, "-q")[0] == 0
    status, out, _ = run(capsys, "pairs", "--db", db, "--format", "csv")
    (row,) = csv.DictReader(io.StringIO(out))
    listed = row["a"] if row["a"] != "normal.txt" else row["b"]
    assert listed == "bad_\\xff.txt"
    status, out, err = run(capsys, "compare", "--db", db, listed, "normal.txt")
    assert status == 0, err
    assert out.startswith("A: bad_\\xff.txt  (")
    # the full path spelled alike, and the name as it is on disk, work too
    assert run(capsys, "compare", "--db", db, str(docs / listed), "normal.txt")[0] == 0
    assert run(capsys, "compare", "--db", db, "bad_\udcff.txt", "normal.txt")[0] == 0
    status, _, err = run(capsys, "compare", "--db", db, "bad_\\xfe.txt", "normal.txt")
    assert status == 2 and "bad_\\xfe.txt is not a document of the collection" in err
