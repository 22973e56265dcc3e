"""The scan on a Dask cluster (the optional extra ``ndd-desktop[cluster]``).

``DaskEngine`` plugs into ``pipeline.ScanJob(..., engine=...)``; Dask itself is imported
only when an engine starts, so importing this package needs nothing beyond the core install.
"""

from .connect import INSTALL_HINT, ClusterError
from .engine import SUPPORTED_METHODS, DaskEngine

__all__ = ["INSTALL_HINT", "SUPPORTED_METHODS", "ClusterError", "DaskEngine"]
