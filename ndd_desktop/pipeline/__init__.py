"""The scan as a job: ingest -> core -> store, incremental, with progress and cancel.

The window and the command line both drive :class:`ScanJob`; see docs/store.md for what
a scan keeps and how it resumes.

The names below are imported on first use, not with the package: the extraction workers
import ``pipeline.worker_sketch`` and ``pipeline.completion``, and the job's modules
would bring the store and SQLAlchemy (0.2 s) into the server they are forked from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_names import lazy_names

#: Where each public name lives (imported on first use).
_HOME = {
    "Limits": "..ingest.limits",
    "HTML_READINGS": "..ingest.options",
    "ExtractOptions": "..ingest.options",
    "CancelToken": ".cancel",
    "ScanCancelled": ".cancel",
    "DEFAULT_FLOOR": ".config",
    "ScanConfig": ".config",
    "ScanError": ".config",
    "ScanStopped": ".config",
    "ScanSummary": ".config",
    "ScanJob": ".job",
    "STAGES": ".progress",
    "Progress": ".progress",
    "ProgressMeter": ".progress",
}
__all__ = sorted(_HOME)

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from ..ingest.limits import Limits  # noqa: F401
    from ..ingest.options import HTML_READINGS, ExtractOptions  # noqa: F401
    from .cancel import CancelToken, ScanCancelled  # noqa: F401
    from .config import DEFAULT_FLOOR, ScanConfig, ScanError, ScanStopped, ScanSummary  # noqa: F401
    from .job import ScanJob  # noqa: F401
    from .progress import STAGES, Progress, ProgressMeter  # noqa: F401


__getattr__, __dir__ = lazy_names(__name__, _HOME)
