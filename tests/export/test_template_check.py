"""An export names the left-out documents whose likeness is a shared template."""

from __future__ import annotations

import csv
import random

from export_support import scan

from ndd_desktop.export import ExportOptions, plan_export, run_export
from ndd_desktop.store import Store

WORDS = ("harbour council minutes lease quay repair budget ledger survey clerk river bridge toll warden "
         "cargo market mill school road tenant rent grant loan deed map plan church farm court").split()


def prose(seed: int, n: int) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n)) + "."


def test_letters_on_one_footer_are_named_and_versions_are_not(tmp_path, capsys):
    footer = "\n\n" + prose(999, 150)  # one long footer: most of each letter
    letters = tmp_path / "src" / "letters"
    drafts = tmp_path / "src" / "drafts"
    letters.mkdir(parents=True)
    drafts.mkdir(parents=True)
    for k in range(8):
        (letters / f"letter_{k}.txt").write_text(prose(k, 60) + footer)
    base = prose(500, 300).split()
    for k in range(6):  # six versions of one report, each with 12 words of its own, scattered
        words = list(base)
        for i in range(12):
            words[(k * 7 + i * 25) % len(words)] = f"edit{k}x{i}"
        (drafts / f"draft_{k}.txt").write_text(" ".join(words))
    store = Store.open(str(tmp_path / "c.ndd"))
    scan(store, [str(tmp_path / "src")], "qgram")
    options = ExportOptions(dest=str(tmp_path / "out"), method="qgram", threshold=0.5, reports=("csv",))
    plan = plan_export(store, options)
    rows = {r.relpath: r for r in plan.rows}
    left_letters = [p for p in rows if p.startswith("letters/") and rows[p].doc_id in plan.left_out]
    assert len(left_letters) == 7  # the footer makes them one group: what is left out is unchanged
    assert {rows[p].doc_id for p in left_letters} == set(plan.suspects)
    group_id, holders, own = plan.suspects[rows[left_letters[0]].doc_id]
    assert holders == 8 and 0.2 <= own <= 0.5
    assert rows[left_letters[0]].note.startswith("check before deleting the original: its likeness is mostly a "
                                                 "passage found in 8 documents of group")
    left_drafts = [p for p in rows if p.startswith("drafts/") and rows[p].doc_id in plan.left_out]
    assert left_drafts and not any(rows[p].note for p in left_drafts)  # versions: no template
    result = run_export(store, options)
    assert result.to_check == plan.suspects
    with open(tmp_path / "out" / "_ndd_reports" / "documents.csv", encoding="utf-8") as fh:
        notes = {r["path"]: r["note"] for r in csv.DictReader(fh)}
    assert sum(1 for n in notes.values() if n.startswith("check before deleting")) == 7
    store.close()
    from cli_run import run

    status, _, err = run(capsys, "export", "--db", tmp_path / "c.ndd", "--to", tmp_path / "out2",
                         "--method", "qgram", "--threshold", "0.5")
    assert status == 0, err
    assert (f"ndd: note: 7 documents left out may differ in their own text from what was kept: they are alike "
            f"through a passage common to their group (a letterhead, footer or disclaimer?). Check group {group_id} "
            "(the reports' note column; ndd group --id N) before deleting originals") in err


def test_a_letter_that_goes_with_its_folder_keeps_its_warning(tmp_path):
    """old/ and new/ hold 6 different letters each on one long footer: every letter has a
    match in the other folder through the footer, so with --leave-out-covered-folders one
    folder goes. Its letter that was the group's keeper (so never "a duplicate" the check
    looked at) was left out held by a letter of the other folder, its body in no exported
    file, with no warning."""
    import os

    footer = "\n\n" + prose(999, 150)
    for folder, seed, stamp in (("old", 0, 1_500_000_000), ("new", 100, 1_600_000_000)):
        (tmp_path / "src" / folder).mkdir(parents=True)
        for k in range(6):
            path = tmp_path / "src" / folder / f"letter_{k}.txt"
            path.write_text(prose(seed + k, 60) + footer)
            os.utime(path, (stamp + k, stamp + k))
    store = Store.open(str(tmp_path / "c.ndd"))
    scan(store, [str(tmp_path / "src")], "qgram")
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", threshold=0.5,
                                            keeper_rule="oldest", leave_out_covered_folders=True))
    rows = {r.relpath: r for r in plan.rows}
    gone = [p for p, r in rows.items() if "is covered by" in r.note]
    assert gone, "a folder is left out"
    assert all(rows[p].doc_id in plan.suspects for p in gone)
    assert all(rows[p].note.startswith("check before deleting the original") for p in gone)
    store.close()
