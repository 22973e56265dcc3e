"""Export: the deduplicated set (copies or hard links, verified), reports, BagIt bags.

Reads the store through its public API and the groups through
``pipeline.grouping.groups_at``; never writes, moves or deletes a source file. See
docs/export.md.
"""

from .errors import DestinationRefused, ExportCancelled, ExportError
from .options import MODES, REPORT_FORMATS, ExportOptions
from .plan import DocumentRow, ExportPlan, PlannedFile, plan_export
from .run import EXPORT_STAGES, ExportResult, FileIssue, run_export

__all__ = [
    "EXPORT_STAGES",
    "MODES",
    "REPORT_FORMATS",
    "DocumentRow",
    "DestinationRefused",
    "ExportCancelled",
    "ExportError",
    "ExportOptions",
    "ExportPlan",
    "ExportResult",
    "FileIssue",
    "PlannedFile",
    "plan_export",
    "run_export",
]
