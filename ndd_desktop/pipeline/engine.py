"""The engine seam of a scan: where files are read and sketched, and where pairs are found.

:class:`~ndd_desktop.pipeline.job.ScanJob` walks, plans, writes and stores on the calling
machine whatever the engine; an engine supplies the two stages that can run elsewhere.
:class:`LocalEngine` is the process pool and the in-process pair search of one machine
(the default); the Dask engine (``ndd_desktop.cluster``) runs the same code on a cluster's
workers and gives the same answers.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from ..core.method import Method
from ..store import DocumentInfo, Store
from .cancel import CancelToken
from .extract_stage import ExtractStage
from .pair_stage import compute_pairs
from .plan import ScanPlan
from .progress import ProgressMeter


class ScanEngine(Protocol):
    """What a scan asks of an engine (see the module docstring)."""

    name: str

    def check(self, method: Method, params: Any) -> None:
        """Raise ``ScanError`` when this engine cannot run the method (before anything is written)."""
        ...

    def extract_stage(self, store: Store, method: Method, params: Any, sketch_key: str, plan: ScanPlan,
                      meter: ProgressMeter, cancel: CancelToken,
                      on_error: Callable[[DocumentInfo], None] | None) -> ExtractStage:
        """The stage that reads and sketches the plan's files and writes them batch by batch."""
        ...

    def compute_pairs(self, store: Store, method: Method, params: Any, params_dict: dict, floor: float,
                      meter: ProgressMeter, cancel: CancelToken, reading: str = "") -> int:
        """Find, verify and store the method's pairs (as ``pair_stage.compute_pairs``)."""
        ...


class LocalEngine:
    """One machine: the extraction process pool and the in-process pair search."""

    name = "local"

    def check(self, method: Method, params: Any) -> None:
        """Every method runs locally."""

    def extract_stage(self, store, method, params, sketch_key, plan, meter, cancel, on_error) -> ExtractStage:
        """The process-pool extract stage (``pipeline.extract_stage``)."""
        return ExtractStage(store, method, params, sketch_key, plan, meter, cancel, on_error)

    def compute_pairs(self, store, method, params, params_dict, floor, meter, cancel, reading: str = "") -> int:
        """``pair_stage.compute_pairs`` in this process."""
        return compute_pairs(store, method, params, params_dict, floor, meter, cancel, reading=reading)
