"""The CSV, JSON and HTML reports and the left-out list, through a real scan."""

from __future__ import annotations

import csv
import html
import json
import re

import pytest

from export_support import HOSTILE, doc_id
from ndd_desktop.export import ExportOptions, run_export
from ndd_desktop.export.report_data import COLUMNS, LEFT_OUT_COLUMNS


@pytest.fixture
def exported(scanned, tmp_path):
    """An exact-method export with a reviewer's decisions, and its report folder."""
    store, coll = scanned
    b, hostile = doc_id(store, "notes/b.txt"), doc_id(store, HOSTILE)
    store.review.set_verdict(b, hostile, "duplicate", reviewer="ann", note="same minutes")
    store.review.set_keeper(b, True, reviewer="ann")
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", closest_pairs=10))
    return store, coll, result, dest / "_ndd_reports"


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_csv_has_one_row_per_document_with_the_columns(exported):
    store, coll, result, reports = exported
    rows = read_csv(reports / "documents.csv")
    assert tuple(rows[0]) == COLUMNS
    docs = {d.id: d for d in store.documents.all(status=None)}
    assert sorted(int(r["document_id"]) for r in rows) == sorted(docs)
    for r in rows:
        d = docs[int(r["document_id"])]
        assert r["sha256"] == d.sha256 and int(r["size"]) == d.size and r["source"] == d.abspath
        assert r["method"] == "exact" and json.loads(r["parameters"]) == {"ignore": ""}  # only the parameter every method has
        assert r["role"] in ("keeper", "duplicate", "unique")
        assert (r["export_status"] == "copied") == (r["role"] != "duplicate")
    roles = [r["role"] for r in rows]
    assert roles.count("keeper") == 2 and roles.count("duplicate") == 3 and roles.count("unique") == 3
    grouped = [r for r in rows if r["group_id"]]
    assert all(r["principal"] and float(r["score"]) == 1.0 for r in grouped)


def test_decisions_show_with_reviewer_and_time(exported):
    _store, _coll, _result, reports = exported
    rows = {r["path"]: r for r in read_csv(reports / "documents.csv")}
    keeper = rows["archive/notes/b.txt"]
    assert keeper["role"] == "keeper" and keeper["verdict"] == "keeper" and keeper["reviewer"] == "ann"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", keeper["decided_at"])
    dup = rows[f"archive/notes/{HOSTILE}"]
    assert dup["role"] == "duplicate" and dup["verdict"] == "duplicate" and dup["reviewer"] == "ann"


def test_left_out_list_names_every_duplicate(exported):
    store, _coll, result, reports = exported
    rows = read_csv(reports / "left_out.csv")
    assert tuple(rows[0]) == LEFT_OUT_COLUMNS
    assert len(rows) == 3
    assert {r["path"] for r in rows} >= {f"archive/notes/{HOSTILE}"}
    for r in rows:
        assert r["keeper"] and r["still_exported_in_container"] == "no"
        assert float(r["score_to_keeper"]) == 1.0  # the exact method: each is a copy of its keeper
        assert r["source"].startswith(("/", "\\")) or ":" in r["source"]


def test_json_carries_summary_groups_documents_and_left_out(exported):
    store, _coll, result, reports = exported
    body = json.loads((reports / "documents.json").read_text(encoding="utf-8"))
    s = body["summary"]
    assert (s["documents"], s["groups"], s["left_out"], s["files_exported"]) == (8, 2, 3, 5)
    assert s["method"] == "exact" and s["threshold"] == 0.5
    assert [r["name"] for r in s["roots"]] == ["archive", "archive-2"]
    assert len(body["documents"]) == 8 and set(body["documents"][0]) == set(COLUMNS)
    assert sorted(len(g["members"]) for g in body["groups"]) == [2, 3]
    assert len(body["left_out"]) == 3


def test_html_is_self_contained_and_escapes_everything(exported):
    _store, _coll, _result, reports = exported
    page = (reports / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower()  # neither ours nor the document's
    assert "<img" not in page.lower()  # the hostile file name stayed text
    assert html.escape(HOSTILE, quote=True) in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page  # the document's text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page.lower()
    for label in ("Documents", "Duplicate groups", "Left out", "Method", "Threshold"):
        assert f"<th>{label}" in page
    assert page.count('<div class="side">') == 2 * 4  # 4 pairs at threshold 1.0 (3 in a's group, 1 in b's)
    assert page.count("<details>") == 2


def test_only_the_asked_reports_are_written(scanned, tmp_path):
    store, _ = scanned
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact", reports="json"))
    names = sorted(p.rsplit("/", 1)[-1] for p in (r.replace("\\", "/") for r in result.reports))
    assert names == ["documents.json", "left_out.csv"]
