"""Short garbage collections while a large collection is open.

Python's full (generation 2) collections stop every thread, the window's included, for as
long as they take to walk every container object alive. With 100,000 documents loaded the
window holds ~230,000 of them (one ``DocumentInfo`` each, plus Qt's and the modules'), and a
full collection took 94-184 ms, measured offscreen: a scan's worker thread or a threshold
move sets one off every so often, and the window stalls for that long.

After a large pair set is loaded, :func:`settle` collects once and then freezes
(``gc.freeze``) what is alive, so later full collections only walk objects made since;
:func:`release` (when the collection closes) hands the frozen objects back to the
collector, so nothing of a closed collection stays behind. Objects freed by reference
counting (numpy arrays, most of everything) are freed as usual while frozen; only
reference cycles among frozen objects wait for the next :func:`release` or :func:`settle`.
"""

from __future__ import annotations

import gc

#: Collections with fewer documents are left to Python's defaults (their full collections
#: take a few milliseconds, less than the one :func:`settle` makes).
SETTLE_FROM_DOCUMENTS = 20_000


def settle(documents: int) -> bool:
    """Collect once and freeze the survivors when ``documents`` is large; True if done."""
    if documents < SETTLE_FROM_DOCUMENTS:
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return True


def release() -> None:
    """Give every frozen object back to the collector (a closed collection's included)."""
    gc.unfreeze()
