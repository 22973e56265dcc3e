"""The collection store: SQLAlchemy 2.0 on SQLite, one file per collection.

See docs/store.md. ``Store.open(path)`` runs the packaged migrations; reads and writes go
through its interfaces by concern (``store.documents``, ``store.pairs``, ``store.sketches``,
``store.scans``, ``store.review``, ``store.settings``, ``store.emails``); everything that
comes out is a plain dataclass from :mod:`ndd_desktop.store.types`.

The names above are imported on first use, not with the package: the extraction
workers use ``store.originals`` and ``store.text_codec``, which need no SQLAlchemy, and its
import (0.2 s) would otherwise delay the server the workers are forked from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy_names import lazy_names

#: Where each public name lives (imported on first use: see the module docstring).
_HOME = {
    "DocumentTable": ".document_table",
    "Documents": ".documents",
    "Emails": ".email",
    "Facts": ".facts",
    "Pairs": ".pairs",
    "Review": ".review",
    "KnownDocument": ".scans",
    "KnownFile": ".scans",
    "Listing": ".scans",
    "Scans": ".scans",
    "DocWrite": ".scanwrite",
    "Settings": ".settings",
    "Sketches": ".sketches",
    "Store": ".store",
    "Decision": ".types",
    "DocumentInfo": ".types",
    "PairArrays": ".types",
    "PairRow": ".types",
    "PairSet": ".types",
    "Root": ".types",
    "ScanRun": ".types",
    "StoreDamaged": ".types",
    "StoreError": ".types",
    "StoreFull": ".types",
    "StoreNotThere": ".types",
    "StoreReadOnly": ".types",
}
__all__ = sorted(_HOME)

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from .document_table import DocumentTable  # noqa: F401
    from .documents import Documents  # noqa: F401
    from .email import Emails  # noqa: F401
    from .facts import Facts  # noqa: F401
    from .pairs import Pairs  # noqa: F401
    from .review import Review  # noqa: F401
    from .scans import KnownDocument, KnownFile, Listing, Scans  # noqa: F401
    from .scanwrite import DocWrite  # noqa: F401
    from .settings import Settings  # noqa: F401
    from .sketches import Sketches  # noqa: F401
    from .store import Store  # noqa: F401
    from .types import (  # noqa: F401
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
        StoreNotThere,
        StoreReadOnly,
    )


__getattr__, __dir__ = lazy_names(__name__, _HOME)
