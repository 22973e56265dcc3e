"""The compiled inner loops of :mod:`core.oph`: one-permutation rounds, their densification
and whole band keys, document by document.

numpy needs one scattered minimum per value and round (``np.minimum.at``, ~10 ns each, the
larger part of a 100,000-document scan); here a document's row of bins stays in the cache
while all its values are permuted into it, and all r rounds of a band group are folded into
the band keys in the same pass, so the (documents x bins) rounds are never materialised.
The results are bit for bit those of the numpy formulation (``tests/core/test_oph_kernel.py``
keeps a plain reference). Compiled once per machine (cached beside the module where that
folder is writable) and without the GIL, so a window's event loop keeps running while a
worker thread searches.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_EMPTY = np.uint32(0xFFFFFFFF)
_GOLDEN32 = np.uint32(0x9E3779B1)
_F1, _F2 = np.uint32(0x85EBCA6B), np.uint32(0xC2B2AE35)
_FNV = np.uint64(0x100000001B3)
_GOLDEN64 = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def _fmix32(h: np.uint32) -> np.uint32:
    """MurmurHash3's 32-bit finaliser (as ``core.oph.fmix32``)."""
    h = np.uint32(h ^ (h >> np.uint32(16)))
    h = np.uint32(h * _F1)
    h = np.uint32(h ^ (h >> np.uint32(13)))
    h = np.uint32(h * _F2)
    return np.uint32(h ^ (h >> np.uint32(16)))


@njit(cache=True, nogil=True)
def _densify_row(row: np.ndarray) -> None:
    """Each empty bin (2^32 - 1) of ``row`` takes the value of the next filled bin
    (circularly) at distance d, mixed: fmix32(value + d * golden); a row with no filled bin
    is left alone. The row's length is a power of two."""
    bins = row.shape[0]
    first = -1
    for b in range(bins):
        if row[b] != _EMPTY:
            first = b
            break
    if first < 0:
        return
    # walk backwards from a filled bin: every empty bin borrows the nearest filled bin after it
    mask = bins - 1
    nxt = first
    for s in range(1, bins):
        p = (first - s) & mask
        if row[p] != _EMPTY:
            nxt = p
        else:
            dist = np.uint32((nxt - p) & mask)
            row[p] = _fmix32(np.uint32(row[nxt] + np.uint32(dist * _GOLDEN32)))


@njit(cache=True, nogil=True)
def densify_rows(rows: np.ndarray) -> None:
    """In place, each row of ``rows`` (documents, bins) uint32 as :func:`_densify_row`."""
    for d in range(rows.shape[0]):
        _densify_row(rows[d])


@njit(cache=True, nogil=True)
def _round_row(flat: np.ndarray, a0: int, a1: int, seed: np.uint32, shift: np.uint32, row: np.ndarray) -> None:
    """Into ``row`` (bins): one densified one-permutation round of the values flat[a0:a1]."""
    row[:] = _EMPTY
    for x in range(a0, a1):
        h = np.uint32(flat[x] * seed)
        b = h >> shift
        row[b] = min(row[b], h)  # no branch: a new minimum is a coin toss
    _densify_row(row)


@njit(cache=True, nogil=True)
def round_rows(flat: np.ndarray, off: np.ndarray, seed: np.uint32, shift: np.uint32, out: np.ndarray) -> None:
    """Into ``out`` (documents, bins) uint32: the round of seed ``seed`` of each document,
    whose values are flat[off[d]:off[d + 1]] (``core.oph.flat_round``)."""
    for d in range(out.shape[0]):
        _round_row(flat, off[d], off[d + 1], seed, shift, out[d])


@njit(cache=True, nogil=True)
def band_key_rows(flat: np.ndarray, off: np.ndarray, seeds: np.ndarray, shift: np.uint32, mix_add: np.uint64,
                  docs: np.ndarray, doc_bits: np.uint64, out: np.ndarray) -> None:
    """Into ``out`` (documents, bins) uint64: the band keys of each document for the rounds
    of ``seeds`` (``core.set_lsh.band_keys``): the rounds folded bin by bin with the FNV
    prime, the bin number xor-ed in, then SplitMix64's finaliser with ``mix_add`` added.
    With ``doc_bits`` > 0 the low ``doc_bits`` bits of a key are replaced by the document
    number ``docs[d]`` (the packed words of ``core.band_words``)."""
    bins = out.shape[1]
    low = (np.uint64(1) << doc_bits) - np.uint64(1)
    row = np.empty(bins, dtype=np.uint32)
    for d in range(out.shape[0]):
        keys = out[d]
        keys[:] = 0
        for k in range(seeds.shape[0]):
            _round_row(flat, off[d], off[d + 1], seeds[k], shift, row)
            for b in range(bins):
                keys[b] = keys[b] * _FNV + np.uint64(row[b])
        for b in range(bins):
            z = (keys[b] ^ np.uint64(b)) + mix_add
            z = (z ^ (z >> np.uint64(30))) * _M1
            z = (z ^ (z >> np.uint64(27))) * _M2
            keys[b] = ((z ^ (z >> np.uint64(31))) & ~low) | (np.uint64(docs[d]) & low)


@njit(cache=True, nogil=True)
def agreements(sig: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each k: in how many bins rows a[k] and b[k] of ``sig`` (signatures) agree."""
    out = np.zeros(a.shape[0], dtype=np.int64)
    bins = sig.shape[1]
    for k in range(a.shape[0]):
        x, y = sig[a[k]], sig[b[k]]
        c = 0
        for t in range(bins):
            c += 1 if x[t] == y[t] else 0
        out[k] = c
    return out
