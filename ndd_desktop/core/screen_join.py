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

from .hashing import mix64
from .oph_kernel import agreements
from .set_lsh import SCREEN_BINS, choose_bands, screen_mask
from .unique import sorted_unique

_FNV = np.uint64(0x100000001B3)


def signature_band_keys(sig: np.ndarray, r: int) -> np.ndarray:
    """(len(sig), bins // r) uint64: band k of a row hashes its bins k*r .. k*r + r - 1
    and k (equal rows of a band give equal keys; unequal ones collide with 2^-64)."""
    bands = sig.shape[1] // r
    keys = np.zeros((sig.shape[0], bands), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(r):
            keys = keys * _FNV + sig[:, k : bands * r : r].astype(np.uint64)
        keys ^= np.arange(bands, dtype=np.uint64) << np.uint64(48)
    return mix64(keys, seed=0x5C4EE7)


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
    b, r = choose_bands(bins, max(float(jaccard), 1e-3), target)
    live = np.flatnonzero(sizes > 0)
    keys = signature_band_keys(sig[live], r)
    mine = signature_band_keys(sig[fresh], r).reshape(-1)
    owners = np.repeat(fresh, keys.shape[1])
    order = np.argsort(mine, kind="stable")
    mine, owners = mine[order], owners[order]
    flat = keys.reshape(-1)
    lo = np.searchsorted(mine, flat, side="left")  # a binary search in the few fresh keys
    hit = np.flatnonzero(mine[np.minimum(lo, mine.shape[0] - 1)] == flat)
    lo = lo[hit]
    hi = np.searchsorted(mine, flat[hit], side="right")
    counts = hi - lo
    other = np.repeat(live[hit // keys.shape[1]], counts)
    starts = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    partner = owners[starts]
    keep = other != partner
    a, c = np.minimum(other[keep], partner[keep]), np.maximum(other[keep], partner[keep])
    codes = sorted_unique(a * n + c)
    i, j = codes // n, codes % n
    if i.shape[0] == 0:
        return i, j
    agree = agreements(sig, i, j)
    ok = screen_mask(agree, sizes[i], sizes[j], jaccard, bins)
    return i[ok], j[ok]


__all__ = ["SCREEN_BINS", "fresh_candidates", "signature_band_keys"]
