"""Screening signatures computed once for two askers in one pair stage.

qgram's first scan of a large collection asks for the same one-permutation signature of
its documents twice (``core.oph.oph_signatures``, round and bins alike): the banded
search's screen, for the documents of its candidates, and the records its next rescans
search with (``pipeline.changed_pairs.keep_records``), for every document: 70 ms each at
20,000 documents. Within :func:`signatures_kept` the first asker has them made for every
document of the collection and kept, and the second takes its rows. Only for collections
up to :data:`KEEP_UP_TO` documents: the signatures take 512 bytes a document, held from
the screen to the records (through the completing word search), 100 MB at the limit;
beyond it each asker makes its own as before, batch by batch.

This module holds the slot alone (no numba: the pair stage imports it whatever the method).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from .thread_slot import ThreadSlot

#: The largest collection whose signatures are kept for a second asker.
KEEP_UP_TO = 200_000

_kept: "ThreadSlot[dict[Any, Any]]" = ThreadSlot()


def signatures_kept() -> AbstractContextManager[None]:
    """Within the block, on this thread, ``oph_signatures`` keeps what it makes (see the
    module docstring)."""
    return _kept.installed({})


def kept() -> dict | None:
    """This thread's kept signatures (by sketches and bins), or None outside the block."""
    return _kept.get()
