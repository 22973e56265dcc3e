"""The review as a file of its own: verdicts, keeper choices and settings, out and in.

A review is the part of a collection no rescan can give back. ``ndd decisions export``
writes it as JSON or CSV, naming each document by its folder, path and content hash
(document ids mean nothing outside their collection file); ``ndd decisions import`` reads
it into any collection of the same files (the same one after a repair, a rebuilt one, a
copy) and finds each document by its content hash, the path telling apart copies of one
content. A decision is applied only where the collection holds no newer decision of its own.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from sqlalchemy import Connection

from ._sql import DOC_COLUMNS, DOC_FROM, chunks, doc_from_row, placeholders
from .pairs import LATEST_DECISIONS
from .types import KEEP, VERDICTS

FORMAT_NAME = "ndd-desktop review"
FORMAT_VERSION = 1
#: The columns of the CSV form: one row per decision; a setting is a row of kind
#: ``setting`` with its key in ``a_path`` and its JSON value in ``value``.
CSV_COLUMNS = ["kind", "a_root", "a_path", "a_xxh128", "b_root", "b_path", "b_xxh128", "value",
               "reviewer", "note", "time"]


@dataclass
class ImportReport:
    """What ``store.review.import_dict`` did with each decision of the file."""

    applied: int = 0
    #: The collection already holds a decision as new or newer about the same documents.
    kept_newer: int = 0
    #: No document of the collection holds the content (or, for copies, the path) named.
    unmatched: int = 0
    #: Each of those as one line ("verdict duplicate: a/x.txt ~ b/y.txt"), for the user to look up.
    unmatched_items: list[str] = field(default_factory=list)
    settings: int = 0
    #: Settings of the file that describe the collection it came from, not its review
    #: (:data:`STATE_KEYS`): left as this collection has them.
    state_ignored: int = 0


#: Settings that record a collection's own state rather than a reviewer's choices: how its
#: files were read (``pipeline.reading.READING_KEY``). A review carried to another
#: collection (or back to an older copy) must not say its web pages were read another way
#: than they were: its next scan would keep texts read with other options, unnoticed.
STATE_KEYS = frozenset({"reading"})


#: The values a decision of each kind may hold ("" clears the decision; JSON null too).
DECISION_VALUES = {"verdict": VERDICTS, "keeper": (KEEP,)}
#: Problems named one by one in a refusal, at most (then how many more).
PROBLEMS_SHOWN = 10
ALLOWED_VALUES = ("a verdict is duplicate or not_duplicate, a keeper is keep, and an empty value clears "
                  "either; kinds are verdict and keeper")


def decision_problems(decisions: Any, places: list[str] | None = None) -> list[str]:
    """What is wrong with the decisions of a review file, one line each (``places``: where
    each decision stands in the file, "line 4"; else "decision N", counted from 1): a kind
    or a value this release does not know. Such a decision would be stored and then
    ignored by every grouping and export, without a word (until 2026-12-07)."""
    if not isinstance(decisions, list):
        return ["'decisions' is not a list"]
    problems = []
    for n, item in enumerate(decisions):
        where = places[n] if places is not None else f"decision {n + 1}"
        if not isinstance(item, dict):
            problems.append(f"{where}: not a decision (an object with kind, a, b, value)")
            continue
        kind, value = item.get("kind"), item.get("value")
        if not isinstance(kind, str) or kind not in DECISION_VALUES:
            problems.append(f"{where}: unknown kind {kind!r}")
        elif value not in (None, "", *DECISION_VALUES[kind]):
            problems.append(f"{where}: {kind} value {value!r}")
    return problems


def decisions_refusal(review: dict[str, Any]) -> str:
    """One line refusing ``review`` for the decisions :func:`decision_problems` finds in
    it ("" when there are none)."""
    places = review.get(_PLACES)
    decisions = review.get("decisions", [])
    if not (isinstance(places, list) and isinstance(decisions, list) and len(places) == len(decisions)):
        places = None
    problems = decision_problems(decisions, places)
    if not problems:
        return ""
    shown = "; ".join(problems[:PROBLEMS_SHOWN])
    more = f"; and {len(problems) - PROBLEMS_SHOWN} more" if len(problems) > PROBLEMS_SHOWN else ""
    return (f"{len(problems)} decision{'' if len(problems) == 1 else 's'} of this review cannot be applied, so "
            f"nothing was imported: {shown}{more} ({ALLOWED_VALUES}); correct the file and import it again")


#: Where each decision of a review read from CSV stands in its file ("line 4"), for the
#: messages about it (a key no JSON review holds).
_PLACES = "_places"


def review_dict(decisions: list[dict[str, Any]], settings: dict[str, Any]) -> dict[str, Any]:
    """A review of these decisions (from :func:`export_decisions`) and settings."""
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "decisions": decisions, "settings": settings}


def export_decisions(conn: Connection) -> list[dict[str, Any]]:
    """The newest decision about each pair and each document (clearing ones too), each
    side named by root, path and content hash, read on ``conn``."""
    rows = conn.exec_driver_sql(
        "SELECT time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note FROM decisions "
        f"WHERE id IN ({LATEST_DECISIONS}) ORDER BY id").fetchall()
    ids = sorted({int(r[3]) for r in rows} | {int(r[4]) for r in rows if r[4] is not None})
    docs = {}
    for part in chunks(ids):  # a query per slice of ids, not per document (the review's copy,
        # written at every decision, took 0.5 s a verdict with 10,000 in the review)
        for row in conn.exec_driver_sql(
                f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.id IN ({placeholders(len(part))})", tuple(part)):
            doc = doc_from_row(row)
            docs[doc.id] = doc

    def side(doc_id, recorded_hash: str) -> dict[str, Any]:
        doc = docs.get(int(doc_id)) if doc_id is not None else None
        return {"root": doc.root if doc else None, "path": doc.relpath if doc else None,
                "xxh128": recorded_hash or (doc.xxh128 if doc else None)}

    decisions = []
    for time, reviewer, kind, a, b, ha, hb, value, note in rows:
        item = {"kind": kind, "a": side(a, ha), "b": side(b, hb) if b is not None else None, "value": value,
                "reviewer": reviewer, "note": note, "time": time}
        decisions.append(item)
    return decisions


def check_format(review: dict[str, Any]) -> None:
    """Raise ValueError unless ``review`` is a review of the version this code reads, whose
    decisions all have a kind and value it knows (:func:`decision_problems`)."""
    if review.get("format") != FORMAT_NAME or review.get("version") != FORMAT_VERSION:
        raise ValueError(f"not an ndd-desktop review (version {FORMAT_VERSION})")
    refused = decisions_refusal(review)
    if refused:
        raise ValueError(refused)


def import_decisions(conn: Connection, review: dict[str, Any]) -> ImportReport:
    """Apply the decisions of ``review`` in the caller's write transaction (see the module
    docstring); its settings are the caller's to write."""
    report = ImportReport()
    latest = {(k, int(a), None if b is None else int(b)): t for k, a, b, t in conn.exec_driver_sql(
        f"SELECT kind, a, b, time FROM decisions WHERE id IN ({LATEST_DECISIONS})")}

    def find(side: dict | None) -> tuple[int, str] | None:
        """(document id, content hash) of the one ok document that fits."""
        if not side:
            return None
        content, root, path = side.get("xxh128") or "", side.get("root"), side.get("path")
        if content:
            rows = conn.exec_driver_sql(
                f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.xxh128 = ? AND d.status = 'ok'",
                (content,)).fetchall()
        else:  # a decision recorded before content hashes: the path alone
            rows = conn.exec_driver_sql(
                f"SELECT {DOC_COLUMNS} FROM {DOC_FROM} WHERE d.relpath = ? AND d.status = 'ok'",
                (path,)).fetchall()
        docs = [doc_from_row(r) for r in rows]
        if len(docs) > 1:  # copies of one content: the path tells them apart
            docs = [d for d in docs if d.relpath == path and (root is None or d.root == root)] or \
                   [d for d in docs if d.relpath == path]
        return (docs[0].id, docs[0].xxh128 or "") if len(docs) == 1 else None

    for item in review.get("decisions", []):
        kind = item.get("kind")
        a, b = find(item.get("a")), find(item.get("b"))
        if kind not in ("verdict", "keeper") or a is None or (kind == "verdict" and (b is None or a == b)):
            report.unmatched += 1
            report.unmatched_items.append(_describe(item))
            continue
        if kind == "verdict" and b[0] < a[0]:
            a, b = b, a
        key = (kind, a[0], b[0] if kind == "verdict" else None)
        when = float(item.get("time") or 0.0)
        if key in latest and latest[key] >= when:
            report.kept_newer += 1
            continue
        latest[key] = when
        conn.exec_driver_sql(
            "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (when, str(item.get("reviewer") or ""), kind, a[0], key[2], a[1],
             b[1] if kind == "verdict" else "", str(item.get("value") or ""), str(item.get("note") or "")))
        report.applied += 1
    return report


def _describe(item: dict[str, Any]) -> str:
    """One line naming a decision of a review file: its kind, value and documents."""
    def name(side: Any) -> str:
        if not isinstance(side, dict):
            return "?"
        return "/".join(p for p in (str(side.get("root") or "").rstrip("/"), str(side.get("path") or "")) if p) or "?"

    kind, value = str(item.get("kind") or "?"), str(item.get("value") or "cleared")
    if kind == "verdict":
        return f"verdict {value}: {name(item.get('a'))} ~ {name(item.get('b'))}"
    return f"{kind} {value}: {name(item.get('a'))}"


def review_to_csv(review: dict[str, Any]) -> str:
    """The CSV form of a review (see :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for d in review["decisions"]:
        a, b = d["a"] or {}, d["b"] or {}
        writer.writerow([d["kind"], a.get("root") or "", a.get("path") or "", a.get("xxh128") or "",
                         b.get("root") or "", b.get("path") or "", b.get("xxh128") or "", d["value"],
                         d["reviewer"], d["note"], repr(float(d["time"]))])
    for key, value in review["settings"].items():
        writer.writerow(["setting", "", key, "", "", "", "", json.dumps(value), "", "", ""])
    return out.getvalue()


def review_from_csv(lines: Iterable[str]) -> dict[str, Any]:
    """A review from its CSV form.

    Raises:
        ValueError: the header is not :data:`CSV_COLUMNS`, or a setting is not JSON.
    """
    reader = csv.DictReader(lines)
    if reader.fieldnames != CSV_COLUMNS:
        raise ValueError(f"not an ndd-desktop review: the CSV header must be {','.join(CSV_COLUMNS)}")
    decisions, settings, places = [], {}, []
    for row in reader:
        if row["kind"] == "setting":
            settings[row["a_path"]] = json.loads(row["value"])
            continue

        def side(prefix: str) -> dict | None:
            values = {k: row[f"{prefix}_{k}"] or None for k in ("root", "path", "xxh128")}
            return values if any(values.values()) else None

        decisions.append({"kind": row["kind"], "a": side("a"), "b": side("b"), "value": row["value"],
                          "reviewer": row["reviewer"], "note": row["note"], "time": float(row["time"] or 0)})
        places.append(f"line {reader.line_num}")
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "decisions": decisions, "settings": settings,
            _PLACES: places}
