"""The scan as a job: ingest -> core -> store, incremental, with progress and cancel.

The window and the command line both drive :class:`ScanJob`; see docs/store.md for what
a scan keeps and how it resumes.
"""

from ..ingest.limits import Limits
from ..ingest.options import HTML_READINGS, ExtractOptions
from .cancel import CancelToken, ScanCancelled
from .config import DEFAULT_FLOOR, ScanConfig, ScanError, ScanStopped, ScanSummary
from .job import ScanJob
from .progress import STAGES, Progress, ProgressMeter

__all__ = [
    "DEFAULT_FLOOR",
    "HTML_READINGS",
    "STAGES",
    "CancelToken",
    "ExtractOptions",
    "Limits",
    "Progress",
    "ProgressMeter",
    "ScanCancelled",
    "ScanConfig",
    "ScanError",
    "ScanStopped",
    "ScanJob",
    "ScanSummary",
]
