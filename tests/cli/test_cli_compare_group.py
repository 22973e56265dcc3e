"""``ndd compare`` and ``ndd group`` on a hand-made collection whose passage places are known."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "ingest"))  # the test file builders
from ingest_makers import make_pdf, make_xlsx  # noqa: E402

from ndd_desktop.cli import main  # noqa: E402
from cli_run import run

VOCAB = ("archive record letter council minute budget harbour school river bridge market tax road church mill "
         "farm court clerk deed lease survey map plan rent wage fund loan grant ledger quay cargo").split()
LETTER = "We regret to tell the council that the bridge over the river will close for repairs in May"


def paragraphs(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(VOCAB) for _ in range(15)) + "." for _ in range(n)]


def pdf_pages(pages: list[list[str]]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for lines in pages:
        writer.add_page(PdfReader(io.BytesIO(make_pdf(lines))).pages[0])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    """A report (PDF, the letter on page 2), the letter, a workbook quoting it, and three
    versions of one text (v2 changes a word of paragraph 3, v3 adds a paragraph)."""
    tmp = tmp_path_factory.mktemp("passages")
    folder = tmp / "docs"
    folder.mkdir()
    filler = paragraphs(1, 6)
    (folder / "report.pdf").write_bytes(pdf_pages([filler[:2], [filler[2], LETTER], filler[3:]]))
    (folder / "letter.txt").write_text(LETTER + "\n")
    (folder / "budget.xlsx").write_bytes(make_xlsx({"Costs": [["item", "cost"], ["rent", 100]],
                                                    "Notes": [["see below"], [LETTER]]}))
    base = paragraphs(2, 6)
    v2 = list(base)
    words = v2[2].split()
    words[7] = "zeppelin"
    v2[2] = " ".join(words)
    v3 = v2 + ["An added closing paragraph about the new ferry timetable and its fares."]
    for name, text in (("v1.txt", base), ("v2.txt", v2), ("v3.txt", v3)):
        (folder / name).write_text("\n\n".join(text) + "\n")
    db = tmp / "c.ndd"
    assert main(["scan", str(folder), "--db", str(db), "-q", "--workers", "0"]) == 0
    return db, folder


def test_letter_is_contained_in_the_report_on_page_two(capsys, collection):
    db, folder = collection
    status, out, err = run(capsys, "compare", "--db", db, folder / "letter.txt", "report.pdf", "--format", "json")
    assert status == 0, err
    data = json.loads(out)
    assert data["share_a_in_b"] == 1.0 and data["share_b_in_a"] < 0.3
    assert data["contained"] == "A lies wholly in B at p. 2"
    assert [(p["a_place"], p["b_place"]) for p in data["passages"]] == [("¶ 1", "p. 2")]
    status, out, err = run(capsys, "compare", "--db", db, "letter.txt", "report.pdf")
    assert status == 0, err
    assert "A lies wholly in B at p. 2" in out and "1 shared passage" in out


def test_letter_in_a_workbook_is_placed_by_sheet_and_row(capsys, collection):
    db, _ = collection
    status, out, err = run(capsys, "compare", "--db", db, "budget.xlsx", "letter.txt", "--format", "json")
    assert status == 0, err
    data = json.loads(out)
    assert data["contained"] == "B lies wholly in A at Notes row 2"
    assert data["passages"][0]["a_place"] == "Notes row 2"


def test_unknown_path_and_group_are_one_line_errors(capsys, collection):
    db, _ = collection
    status, out, err = run(capsys, "compare", "--db", db, "letter.txt", "nowhere.txt")
    assert status == 2 and err.count("\n") == 1 and "nowhere.txt is not a document of the collection" in err
    status, out, err = run(capsys, "group", "--db", db, "--id", "99")
    assert status == 2 and err.count("\n") == 1 and "no group 99" in err


def test_group_view_shows_only_the_differences(capsys, collection):
    db, _ = collection
    status, out, err = run(capsys, "clusters", "--db", db, "--format", "json")
    assert status == 0, err
    groups = json.loads(out)
    text = json.dumps(groups)
    assert "v1.txt" in text
    gid = next(g["group"] for g in groups if any(m["path"] == "v1.txt" for m in g["members"])) \
        if isinstance(groups, list) and groups and "members" in groups[0] else None
    if gid is None:  # one row per document
        gid = next(r["group"] for r in groups if r["path"] == "v1.txt")
    status, out, err = run(capsys, "group", "--db", db, "--id", gid, "--reference", "v1.txt")
    assert status == 0, err
    data = json.loads(out)
    assert data["reference"]["path"] == "v1.txt"
    members = {m["path"]: m for m in data["members"]}
    assert set(members) == {"v2.txt", "v3.txt"}
    v2 = members["v2.txt"]
    assert [(c["kind"], c["reference_place"], c["member_place"]) for c in v2["changes"]] == [("changed", "¶ 3", "¶ 3")]
    assert "zeppelin" in v2["changes"][0]["member_text"] and "zeppelin" not in v2["changes"][0]["reference_text"]
    v3 = members["v3.txt"]
    assert [(c["kind"], c["member_place"]) for c in v3["changes"]] == [("changed", "¶ 3"), ("added", "¶ 7")]
    assert "ferry timetable" in v3["changes"][1]["member_text"]
    assert v3["size"] > v2["size"] and v2["score"] is not None
    assert v2["modified"].endswith("Z") and len(v2["modified"]) == 20  # ISO 8601, as 'ndd clusters'

    status, out, err = run(capsys, "group", "--db", db, "--id", gid, "--reference", "v1.txt", "--format", "html")
    assert status == 0, err
    assert out.startswith("<!doctype html>") and "zeppelin" in out and "<h2>v3.txt</h2>" in out
    status, out, err = run(capsys, "group", "--db", db, "--id", gid, "--reference", "letter.txt")
    assert status == 2 and "not a member of group" in err


def test_a_member_whose_file_changed_since_the_scan_is_said_to_have_no_text(capsys, collection):
    """Its text is its file, which no longer holds what was scanned: the view had shown
    0 % shared, one passage "added" and "complete", and said nothing."""
    db, folder = collection
    status, out, _ = run(capsys, "clusters", "--db", db, "--format", "json")
    gid = next(g["group"] for g in json.loads(out) if any(m["path"] == "v1.txt" for m in g["members"]))
    v3 = folder / "v3.txt"
    before = v3.read_bytes()
    try:
        v3.write_bytes(before + b"A line added after the scan.\n")
        status, out, err = run(capsys, "group", "--db", db, "--id", gid, "--reference", "v1.txt")
        assert status == 0, err
        members = {m["path"]: m for m in json.loads(out)["members"]}
        assert "changed since the scan" in members["v3.txt"]["text_missing"]
        assert members["v3.txt"]["complete"] is False and members["v3.txt"]["identical"] is False
        assert members["v2.txt"]["text_missing"] == "" and members["v2.txt"]["complete"] is True
        assert "ndd: note: v3.txt has no text: its text is read from" in err
        status, out, err = run(capsys, "group", "--db", db, "--id", gid, "--reference", "v1.txt", "--format", "html")
        assert "not compared: it has no text" in out
    finally:
        v3.write_bytes(before)
