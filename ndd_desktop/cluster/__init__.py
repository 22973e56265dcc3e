"""The scan on a Dask cluster (the optional extra ``ndd-desktop[cluster]``).

``DaskEngine`` plugs into ``pipeline.ScanJob(..., engine=...)``; Dask itself is imported
only when an engine starts, so importing this package needs nothing beyond the core install.
The engine's modules (and the banded search's compiled kernels they use) load when
``DaskEngine`` or ``SUPPORTED_METHODS`` is first asked for: every ``ndd scan`` imports
this package for its ``ClusterError``, and a local scan needs none of them.
"""

from typing import Any

from .connect import INSTALL_HINT, ClusterError

__all__ = ["INSTALL_HINT", "SUPPORTED_METHODS", "ClusterError", "DaskEngine"]


def __getattr__(name: str) -> Any:
    if name in ("DaskEngine", "SUPPORTED_METHODS"):
        from . import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
