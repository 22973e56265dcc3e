"""The collection store: SQLAlchemy 2.0 on SQLite, one file per collection.

See docs/store.md. ``Store.open(path)`` runs the packaged migrations; everything that
comes out is a plain dataclass from :mod:`ndd_desktop.store.types`.
"""

from .scanwrite import DocWrite, KnownDocument, KnownFile
from .store import Store
from .types import (
    Decision,
    DocumentInfo,
    PairArrays,
    PairRow,
    PairSet,
    Root,
    ScanRun,
    StoreDamaged,
    StoreError,
    StoreFull,
    StoreReadOnly,
)

__all__ = [
    "Decision",
    "DocWrite",
    "DocumentInfo",
    "KnownDocument",
    "KnownFile",
    "PairArrays",
    "PairRow",
    "PairSet",
    "Root",
    "ScanRun",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
]
