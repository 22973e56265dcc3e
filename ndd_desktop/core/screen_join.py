"""Pairs of a few documents with a whole collection, on the sets' screening signatures.

The banded search of :mod:`core.set_lsh` bands every document of a collection in rounds
of its own. A rescan that changed a few documents of a large collection need not do that
again for all of them: the pairs of two unchanged documents are those it found before, and
each document keeps its screening signature (one one-permutation round of SCREEN_BINS
bins, :func:`core.oph.oph_signatures`). The changed documents are then compared with all
on those signatures alone: bands of ``r`` bins of the one round (two sets agree in a bin
with probability about their Jaccard similarity J, so a band with probability J^r, and
with ``bins // r`` bands a pair at the design similarity becomes a candidate with
probability >= ``target``), then the screen of :func:`core.set_lsh.screen_candidates` on
the same signature. The caller verifies what is left exactly, as after the banded search.
"""

from __future__ import annotations

import numpy as np

from .lsh import feature_keys
from .oph_kernel import agreements
from .set_lsh import SCREEN_BINS, choose_bands, screen_mask
from .unique import sorted_unique

#: Documents whose band keys are made and looked up at once (their chance candidates, some
#: 6 % of 42 bands x fresh documents each, are held until screened: ~100 MB at 2,000 fresh).
ROWS_AT_ONCE = 25_000


def fresh_candidates(sig: np.ndarray, sizes: np.ndarray, fresh: np.ndarray, jaccard: float,
                     target: float = 0.995) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) of rows of ``sig`` with at least one of ``fresh`` among them, whose
    signatures agree in a whole band and pass the screen at ``jaccard``: every such pair of
    Jaccard similarity ``jaccard`` or more with probability >= ``target``.

    ``sig`` is (documents, bins) uint32 (:func:`core.oph.oph_signatures`), ``sizes`` each
    document's number of set values (a document without any is never paired, as in the
    banded search)."""
    n, bins = sig.shape
    fresh = np.asarray(fresh, dtype=np.int64)
    fresh = fresh[sizes[fresh] > 0]
    if n < 2 or fresh.shape[0] == 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    bands, r = choose_bands(bins, max(float(jaccard), 1e-3), target)
    mine = feature_keys(sig[fresh], bands, r)  # band k: bins k*r .. k*r + r - 1, and k
    owners = np.repeat(fresh, bands)
    mine = mine.reshape(-1)
    order = np.argsort(mine, kind="stable")
    mine, owners = mine[order], owners[order]
    live = np.flatnonzero(sizes > 0)
    need = least_agreements(jaccard, bins)
    found = []
    for start in range(0, live.shape[0], ROWS_AT_ONCE):  # memory: a slice of the collection's keys at a time
        rows = live[start : start + ROWS_AT_ONCE]
        flat = feature_keys(sig[rows], bands, r).reshape(-1)
        lo = np.searchsorted(mine, flat, side="left")  # a binary search in the few fresh keys
        hit = np.flatnonzero(mine[np.minimum(lo, mine.shape[0] - 1)] == flat)
        lo = lo[hit]
        counts = np.searchsorted(mine, flat[hit], side="right") - lo
        other = np.repeat(rows[hit // bands], counts)
        partner = owners[np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))]
        # screened before anything else: most of these are chance agreements of unrelated
        # texts (5.7 % of fresh x all on the bench's English-like texts), which grow with the
        # collection; a pair found in several bands is screened as often, and few are
        agree = agreements(sig, other, partner)
        keep = (agree >= need[np.minimum(np.minimum(sizes[other], sizes[partner]), bins)]) & (other != partner)
        a, c = other[keep], partner[keep]
        found.append(np.minimum(a, c) * n + np.maximum(a, c))
    codes = sorted_unique(np.concatenate(found)) if found else np.empty(0, np.int64)
    return codes // n, codes % n


def least_agreements(jaccard: float, bins: int) -> np.ndarray:
    """For each number of bins a pair's smaller set fills (0 .. ``bins``), the fewest equal
    bins of ``bins`` with which it passes :func:`core.set_lsh.screen_mask`."""
    agree = np.arange(bins + 1)
    eff = np.arange(bins + 1)
    passes = screen_mask(agree[None, :], eff[:, None], eff[:, None], jaccard, bins)
    return np.where(passes.any(axis=1), np.argmax(passes, axis=1), bins + 1)


__all__ = ["SCREEN_BINS", "fresh_candidates", "least_agreements"]
