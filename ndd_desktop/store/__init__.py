"""The collection store: SQLAlchemy 2.0 on SQLite, one file per collection.

See docs/store.md. ``Store.open(path)`` runs the packaged migrations; reads and writes go
through its interfaces by concern (``store.documents``, ``store.pairs``, ``store.sketches``,
``store.scans``, ``store.review``, ``store.settings``, ``store.emails``); everything that
comes out is a plain dataclass from :mod:`ndd_desktop.store.types`.
"""

from .document_table import DocumentTable
from .documents import Documents
from .email import Emails
from .pairs import Pairs
from .review import Review
from .scans import KnownDocument, KnownFile, Scans
from .scanwrite import DocWrite
from .settings import Settings
from .sketches import Sketches
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
    "DocumentTable",
    "Documents",
    "Emails",
    "KnownDocument",
    "KnownFile",
    "PairArrays",
    "PairRow",
    "PairSet",
    "Pairs",
    "Review",
    "Root",
    "ScanRun",
    "Scans",
    "Settings",
    "Sketches",
    "Store",
    "StoreDamaged",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
]
