"""Names an exported file may carry that Windows or a FAT/exFAT drive cannot hold
(export.portable_names): named in the reports and before the set is handed on, copied as
they are."""

from __future__ import annotations

import csv

from export_support import prose, scan, write

from ndd_desktop.export import ExportOptions, run_export
from ndd_desktop.export.portable_names import name_problem, windows_problems
from ndd_desktop.store import Store


def test_the_names_windows_refuses():
    assert name_problem("minutes: draft?.txt") == "a character Windows does not allow in a name (':', '?')"
    assert name_problem("tab\there.txt") == "a character Windows does not allow in a name (U+0009)"
    assert name_problem("notes.") == "a name ending in a dot or a space"
    assert name_problem("draft ") == "a name ending in a dot or a space"
    assert name_problem("CON.txt") == "a name Windows keeps for a device (CON)"
    assert name_problem("lpt1") == "a name Windows keeps for a device (lpt1)"
    for fine in ("CONSOLE.txt", "con-minutes.txt", "résumé (2).txt", ".hidden", "a.b.c"):
        assert name_problem(fine) == "", fine


def test_paths_that_differ_only_in_case_name_all_but_the_first():
    found = windows_problems(["box/Report.txt", "box/report.txt", "BOX/report.txt", "box/other.txt",
                              "x/aux.txt/in.txt"])
    assert found == {
        "box/Report.txt": "differs only in case from BOX/report.txt",
        "box/report.txt": "differs only in case from BOX/report.txt",
        "x/aux.txt/in.txt": "a name Windows keeps for a device (aux)",
    }


def test_an_export_names_them_and_copies_them_as_they_are(tmp_path):
    root = tmp_path / "deposit"
    names = ["minutes: draft?.txt", "CON.txt", "notes.", "Report.txt", "report.txt", "plain.txt"]
    for k, name in enumerate(names):
        write(root / name, prose(100 + k))  # unrelated texts: every file is kept
    dest = tmp_path / "out"
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [str(root)], "exact")
        result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert result.ok and result.copied == len(names)
    assert result.not_portable == 4  # Report.txt is the first of its two: report.txt is named
    said = [s for s in result.to_read_first() if "Windows" in s]
    assert len(said) == 1 and said[0].startswith("4 exported files have names that Windows")
    for name in names:
        assert (dest / "deposit" / name).read_text(encoding="utf-8") == (root / name).read_text(encoding="utf-8")
    with open(dest / "_ndd_reports" / "documents.csv", newline="", encoding="utf-8") as fh:
        notes = {row["path"]: row["note"] for row in csv.DictReader(fh)}
    assert notes["deposit/CON.txt"] == "name Windows cannot hold: a name Windows keeps for a device (CON)"
    assert notes["deposit/report.txt"] == "name Windows cannot hold: differs only in case from deposit/Report.txt"
    assert notes["deposit/Report.txt"] == notes["deposit/plain.txt"] == ""


def test_an_export_of_ordinary_names_says_nothing_of_windows(tmp_path):
    root = tmp_path / "deposit"
    for k in range(3):
        write(root / f"letter {k}.txt", prose(200 + k))
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [str(root)], "exact")
        result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
    assert result.not_portable == 0 and not any("Windows" in s for s in result.to_read_first())
