"""Where the group-by of a banded candidate search runs, without the core knowing its caller.

The banded searches (:func:`core.set_lsh.band_pairs` for set sketches such as ``qgram``'s,
:func:`core.lsh.bucket_pairs` for ``minhash``'s features) give every document band keys
and pair the documents that share a key. On one machine that is a sort. A caller that can
do it elsewhere (the Dask engine: keys computed on the workers, shuffled so that equal
keys meet) installs a :class:`BandGrouper` for its thread with :func:`band_grouping`; the
core then hands it exactly the inputs of its own computation, and the grouper must
return exactly what the local code would, so the answers do not depend on where it ran,
or None to leave a group-by to the local code (one too small to be worth sending away).
Nothing is installed by default, and then the check costs one thread-local lookup (as
:mod:`core.checkpoint`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol, Sequence

import numpy as np

from .thread_slot import ThreadSlot


class BandGrouper(Protocol):
    """Runs the group-by of a banded search somewhere else; both calls return what the
    local code computes for the same inputs, or None: the local code groups it."""

    def set_band_codes(self, sketches: Sequence[np.ndarray], live: np.ndarray, groups: int, r: int,
                       bins: int) -> np.ndarray | None:
        """Sorted distinct codes ``a * n + b`` (a < b, n = len(sketches)) of the documents
        ``live`` that share a band key (:func:`core.set_lsh.band_keys`) in one of ``groups``
        groups of ``r`` rounds; keys compared as :func:`core.band_words.band_match_keys` says."""
        ...

    def feature_pairs(self, keys: np.ndarray, r: int, max_bucket: int | None) -> np.ndarray | None:
        """Pairs (m, 2) int64, i < j, of rows of ``keys`` (N, k) sharing >= r keys, as
        :func:`core.lsh.bucket_pairs` finds them."""
        ...


_slot: ThreadSlot[BandGrouper] = ThreadSlot()


def installed() -> BandGrouper | None:
    """This thread's installed grouper, or None (the search groups locally)."""
    return _slot.get()


def band_grouping(grouper: BandGrouper) -> AbstractContextManager[None]:
    """Install ``grouper`` for this thread during the ``with`` block."""
    return _slot.installed(grouper)
