"""The CSV and JSON reports (one row per document) and the list of left-out duplicates.

Paths are written exactly as they are, whatever characters they hold (the ``csv`` module
quotes what needs quoting), because a deletion or appraisal workflow must be able to act
on them; a spreadsheet user should import the CSV as text rather than open it directly.
"""

from __future__ import annotations

import csv
import json
import os

from .report_data import COLUMNS, LEFT_OUT_COLUMNS, ReportContext, cell

DOCUMENTS_CSV = "documents.csv"
DOCUMENTS_JSON = "documents.json"
LEFT_OUT_CSV = "left_out.csv"


def _write_csv(path: str, columns, records, guard) -> None:
    with open(guard.check(path), "w", encoding="utf-8", errors="surrogateescape", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\r\n")
        writer.writerow(columns)
        for rec in records:
            writer.writerow([cell(rec[c]) for c in columns])


def write_documents_csv(ctx: ReportContext, folder: str, guard) -> str:
    """Write ``documents.csv`` (columns: :data:`~.report_data.COLUMNS`); return its path.

    File names that are not valid UTF-8 are written as their original bytes.
    """
    path = os.path.join(folder, DOCUMENTS_CSV)
    _write_csv(path, COLUMNS, (ctx.record(r) for r in ctx.plan.rows), guard)
    return path


def write_left_out_csv(ctx: ReportContext, folder: str, guard) -> str:
    """Write ``left_out.csv``, the duplicates left out of the set; return its path."""
    path = os.path.join(folder, LEFT_OUT_CSV)
    _write_csv(path, LEFT_OUT_COLUMNS, (ctx.left_out_record(r) for r in ctx.plan.left_out_rows), guard)
    return path


def write_documents_json(ctx: ReportContext, folder: str, guard) -> str:
    """Write ``documents.json``: summary, documents, groups, left-out list, the failures the
    plan found (``issues``) and the entries that are not regular files (``not_exported``);
    return its path."""
    plan = ctx.plan
    groups = []
    for g in plan.groups:
        groups.append({
            "group_id": int(g.group_id),
            "principal": plan.row(int(g.principal)).path,
            "keeper": plan.row(int(g.keeper)).path,
            "keepers": [plan.row(int(k)).path for k in g.keepers],
            "members": [plan.row(int(m)).path for m in g.members],
        })
    body = {
        "summary": ctx.summary(),
        "documents": [ctx.record(r) for r in plan.rows],
        "groups": groups,
        "left_out": [ctx.left_out_record(r) for r in plan.left_out_rows],
        "issues": [{"path": i.path, "source": i.source, "reason": i.reason} for i in plan.issues],
        "not_exported": [{"path": i.path, "source": i.source, "reason": i.reason} for i in plan.not_files],
    }
    path = os.path.join(folder, DOCUMENTS_JSON)
    with open(guard.check(path), "w", encoding="utf-8") as fh:
        # surrogate escapes (undecodable file names) must survive: ensure_ascii escapes them
        json.dump(body, fh, ensure_ascii=True, indent=1, allow_nan=False, default=str)
    return path
