"""What every report says, computed once: the summary and one flat record per document."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from .. import __version__
from .plan import DocumentRow, ExportPlan
from .roles import DUPLICATE

#: ``export_status`` of a left-out document whose kept document was not exported.
NOT_COVERED = "left out, but the document it duplicates was not exported"

#: Columns of the per-document CSV and JSON reports, in order.
COLUMNS = (
    "document_id", "path", "source", "sha256", "size", "format", "status", "group_id",
    "principal", "role", "duplicate_of", "duplicate_score", "found_in_duplicate_of", "score", "containment",
    "method", "parameters", "threshold",
    "verdict", "reviewer", "decided_at", "exported_to", "export_status", "note",
)
#: Columns of the list of left-out duplicates.
LEFT_OUT_COLUMNS = (
    "path", "source", "sha256", "size", "format", "group_id", "duplicate_of", "duplicate_score",
    "found_in_duplicate_of", "keeper", "score_to_keeper", "score",
    "containment", "verdict", "reviewer", "decided_at", "still_exported_in_container", "note",
)


@dataclass
class ReportContext:
    """A plan together with what became of each planned file.

    ``outcomes`` maps a planned file's target to "copied", "linked" or "failed: reason";
    ``left_out_problems`` a left-out document whose file changed or vanished since the
    scan to the reason (``export.left_out_check``).
    """

    plan: ExportPlan
    outcomes: dict[str, str] = field(default_factory=dict)
    generated_at: float = field(default_factory=time.time)
    left_out_problems: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._issues = {i.doc_id: i.reason for i in self.plan.issues}
        self._by_path = {r.path: r for r in self.plan.rows}

    def export_status(self, row: DocumentRow) -> str:
        """What happened to the file carrying ``row``.

        "not exported" also for an entry that is not a regular file (a symbolic link the
        scan did not follow, a FIFO, ...): its note gives the scan's reason. A left-out
        document whose file changed since the scan has failed; one whose kept document
        failed is "left out, but ...": a workflow that deletes the originals of the rows
        "left out" must not take it.
        """
        if row.doc_id in self._issues:
            return f"failed: {self._issues[row.doc_id]}"
        if row.doc_id in self.left_out_problems:
            return f"failed: {self.left_out_problems[row.doc_id]}"
        if row.target:
            return self.outcomes.get(row.target, "not exported")
        if row.role == DUPLICATE:
            return NOT_COVERED if self.not_covered(row) else "left out"
        return "not exported"

    def not_covered(self, row: DocumentRow) -> str:
        """Why the document ``row`` is left out for was not exported ("" when it was, or
        when ``row`` is no left-out duplicate): its copy failed (changed since the scan,
        unreadable), so nothing exported holds this one's content."""
        if row.role != DUPLICATE or not row.duplicate_of:
            return ""
        kept = self._by_path.get(row.duplicate_of)
        if kept is None or kept.doc_id == row.doc_id or kept.role == DUPLICATE:
            return ""
        status = self.export_status(kept)
        return status[len("failed: "):] if status.startswith("failed: ") else ""

    def note(self, row: DocumentRow) -> str:
        """The note of ``row`` in the reports: the plan's, after what the run found."""
        why = self.not_covered(row)
        first = (f"check before deleting the original: the document it duplicates, {row.duplicate_of}, "
                 f"was not exported ({why}); nothing exported holds this one" if why else "")
        return "; ".join(filter(None, (self.left_out_problems.get(row.doc_id, ""), first, row.note)))

    def record(self, row: DocumentRow) -> dict:
        """One document as a flat dict with the keys of :data:`COLUMNS`."""
        o = self.plan.options
        return {
            "document_id": row.doc_id,
            "path": row.path,
            "source": row.source,
            "sha256": row.sha256,
            "size": row.size,
            "format": row.format,
            "status": row.status,
            "group_id": row.group_id,
            "principal": row.principal_path,
            "role": row.role,
            "duplicate_of": row.duplicate_of,
            "duplicate_score": row.duplicate_score,
            "found_in_duplicate_of": row.found_in_duplicate_of,
            "score": row.score,
            "containment": row.containment,
            "method": o.method,
            "parameters": self.plan.params,
            "threshold": o.threshold,
            "verdict": row.verdict,
            "reviewer": row.reviewer,
            "decided_at": row.decided_at,
            "exported_to": row.target if self.export_status(row) in ("copied", "linked") else "",
            "export_status": self.export_status(row),
            "note": self.note(row),
        }

    def left_out_record(self, row: DocumentRow) -> dict:
        """One left-out duplicate with the keys of :data:`LEFT_OUT_COLUMNS`."""
        return {
            "path": row.path,
            "source": row.source,
            "sha256": row.sha256,
            "size": row.size,
            "format": row.format,
            "group_id": row.group_id,
            "duplicate_of": row.duplicate_of,
            "duplicate_score": row.duplicate_score,
            "found_in_duplicate_of": row.found_in_duplicate_of,
            "keeper": row.keeper_path,
            "score_to_keeper": row.score_to_keeper,
            "score": row.score,
            "containment": row.containment,
            "verdict": row.verdict,
            "reviewer": row.reviewer,
            "decided_at": row.decided_at,
            "still_exported_in_container": bool(row.target),
            "note": self.note(row),
        }

    def summary(self) -> dict:
        """The figures the HTML report opens with and the JSON report carries."""
        plan, o = self.plan, self.plan.options
        failed = sum(1 for s in self.outcomes.values() if s.startswith("failed"))
        return {
            "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.generated_at)),
            "application": f"ndd-desktop {__version__}",
            "documents": len(plan.rows),
            "groups": len(plan.groups),
            "left_out": len(plan.left_out),
            "files_planned": len(plan.files),
            "files_exported": sum(1 for s in self.outcomes.values() if s in ("copied", "linked")),
            "files_failed": failed + len({i.path for i in plan.issues}),
            # left-out documents whose file changed or vanished since the scan (a failure),
            # and those whose kept document failed: no exported file holds either
            "left_out_changed": len(self.left_out_problems),
            "left_out_not_covered": sum(1 for r in plan.left_out_rows if self.not_covered(r)),
            "not_regular_files": len(plan.not_files),
            "pairs_at_threshold": plan.pair_count,
            "method": o.method,
            "parameters": plan.params,
            "pairs_key": o.pairs_key,
            "threshold": o.threshold,
            "floor": plan.floor,
            "measure": o.measure,
            "keeper_rule": o.keeper_rule,
            "mode": o.mode,
            "bagit": o.bagit,
            "roots": [
                {"path": r.path, "name": plan.root_names.get(r.path, ""), "reference": bool(r.reference)}
                for r in plan.roots
            ],
        }


def cell(value) -> str:
    """A value as a CSV cell: numbers plainly, dicts as JSON, None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)
