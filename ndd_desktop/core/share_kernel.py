"""The compiled inner loop of :mod:`core.text_share`: the words of each text of a pair that
lie in runs found in the other, for a whole batch of pairs in one call.

Each document's runs come sorted by hash with their positions (once per document); a pair
is one linear merge of the two sorted lists that marks the matching runs of both texts,
then one pass over each text's marks in text order. Numba compiles it once per machine
(cached beside the module where that folder is writable); it is what makes verifying
hundreds of thousands of candidates affordable (numpy needed ~15 array calls a pair, 20x
slower; see docs/performance.md).

The loops are written here as plain Python (never run as such) and compiled by numba
(``core.kernel_load``); where the package's C extension is built, its versions of the
same loops run instead (``core.native``: the same results, without numba's import and
load, 0.25-0.3 s of CPU a process). Loading numba's versions hides SciPy's BLAS, as
``core.kernel_load`` says why.
"""

from __future__ import annotations

import numpy as np

from . import native
from .hashing import _M1, _M2, POLY_BASE, RUN_SEED_OFFSET
from .kernel_load import Compiled, KernelLoader


def covered_batch(srt: np.ndarray, pos: np.ndarray, off: np.ndarray,
                  pi: np.ndarray, pj: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_covered_batch`: in C where it is built (``core.native``), else compiled by
    numba, loaded on the first call without SciPy's BLAS (see the module docstring)."""
    if native.LOOPS is not None:
        return native.covered_batch(srt, pos, off, pi, pj, w)
    load()
    return compiled()._covered_batch(srt, pos, off, pi, pj, w)


def sorted_runs(tokens: np.ndarray, starts: np.ndarray, counts: np.ndarray,
                w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The runs of ``w`` words of many documents, sorted by hash document by document:
    ``(srt, pos, off)`` as :func:`covered_batch` takes them.

    Document d's words are ``tokens[starts[d] : starts[d] + counts[d]]`` (64-bit token
    hashes); a run's hash is that of ``core.text_share.Runs.at``. One compiled call for the
    batch: a dozen array calls and a sort a document cost the verification more than the
    comparison itself."""
    if native.LOOPS is not None:
        return native.sorted_runs(tokens, starts, counts, w)
    load()
    return compiled()._sorted_runs(np.ascontiguousarray(tokens, dtype=np.uint64), np.asarray(starts, dtype=np.int64),
                                   np.asarray(counts, dtype=np.int64), w)


def prepare() -> None:
    """Make the loops ready in this process now, what the first call would do: nothing
    where the C versions are built, numba's loaded otherwise."""
    if native.LOOPS is None:
        load()


def is_loaded() -> bool:
    """Whether this process has the loops ready: the C ones, or numba's loaded."""
    return native.LOOPS is not None or load.is_loaded()


def _covered(hit: np.ndarray, w: int) -> int:
    """Words covered by the runs marked in ``hit`` (run k covers words k .. k + w - 1)."""
    total = 0
    last_end = 0
    for k in range(hit.shape[0]):
        if hit[k]:
            end = k + w
            total += end - (k if k > last_end else last_end)
            last_end = end
    return total


def _covered_batch(srt: np.ndarray, pos: np.ndarray, off: np.ndarray,
                  pi: np.ndarray, pj: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    """For each pair (pi[k], pj[k]), the words of each document covered by runs of ``w``
    words found in the other: ``(covered of i, covered of j)``.

    Document d's run hashes, sorted, are ``srt[off[d]:off[d + 1]]`` and ``pos`` holds the
    position in the text of each of them.
    """
    n = pi.shape[0]
    ci = np.zeros(n, dtype=np.int64)
    cj = np.zeros(n, dtype=np.int64)
    for k in range(n):
        a0, a1 = off[pi[k]], off[pi[k] + 1]
        b0, b1 = off[pj[k]], off[pj[k] + 1]
        hit_a = np.zeros(a1 - a0, dtype=np.bool_)
        hit_b = np.zeros(b1 - b0, dtype=np.bool_)
        x, y = a0, b0
        while x < a1 and y < b1:
            hx, hy = srt[x], srt[y]
            if hx < hy:
                x += 1
            elif hy < hx:
                y += 1
            else:
                while x < a1 and srt[x] == hx:
                    hit_a[pos[x]] = True
                    x += 1
                while y < b1 and srt[y] == hx:
                    hit_b[pos[y]] = True
                    y += 1
        ci[k] = _covered(hit_a, w)
        cj[k] = _covered(hit_b, w)
    return ci, cj


# core.hashing.mix64 with seed 7 (what Runs.at uses), its constants taken from there
_POLY = POLY_BASE
_SEED7 = RUN_SEED_OFFSET
_MIX1, _MIX2 = _M1, _M2


#: Below this many runs a document's runs are sorted by insertion alone.
_SMALL = 48


def _sorted_runs(tokens: np.ndarray, starts: np.ndarray, counts: np.ndarray,
                 w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`sorted_runs`, compiled.

    A document's runs are ordered by a radix sort on the top 32 bits of their hashes (four
    passes of a byte, stable, the positions carried along), then by insertion on the whole
    hash, which the top bits leave almost in order (the hashes are well mixed: two runs of a
    document share their top 32 bits about once in 2^32 / n^2). numba's ``argsort`` (a
    quicksort through an index array) took four times as long, most of the verification."""
    n = counts.shape[0]
    off = np.zeros(n + 1, dtype=np.int64)
    big = 0
    for d in range(n):
        m = max(counts[d] - w + 1, 0)
        off[d + 1] = off[d] + m
        big = max(big, m)
    srt = np.empty(off[n], dtype=np.uint64)
    pos = np.empty(off[n], dtype=np.int64)
    tag = np.uint64(w)
    s30, s27, s31 = np.uint64(30), np.uint64(27), np.uint64(31)
    key_a, key_b = np.empty(big, dtype=np.uint64), np.empty(big, dtype=np.uint64)
    pos_a, pos_b = np.empty(big, dtype=np.int64), np.empty(big, dtype=np.int64)
    count = np.empty(256, dtype=np.int64)
    low_byte = np.uint64(255)
    for d in range(n):
        m = off[d + 1] - off[d]
        if m <= 0:
            continue
        s = starts[d]
        for p in range(m):
            h = tokens[s + p]
            for k in range(1, w):
                h = h * _POLY + tokens[s + p + k]
            z = (h ^ tag) + _SEED7
            z = (z ^ (z >> s30)) * _MIX1
            z = (z ^ (z >> s27)) * _MIX2
            key_a[p] = z ^ (z >> s31)
            pos_a[p] = p
        src_k, src_p, dst_k, dst_p = key_a, pos_a, key_b, pos_b
        if m >= _SMALL:
            for shift in range(32, 64, 8):
                sh = np.uint64(shift)
                count[:] = 0
                for p in range(m):
                    count[(src_k[p] >> sh) & low_byte] += 1
                total = 0
                for b in range(256):
                    c = count[b]
                    count[b] = total
                    total += c
                for p in range(m):
                    b = (src_k[p] >> sh) & low_byte
                    q = count[b]
                    count[b] = q + 1
                    dst_k[q] = src_k[p]
                    dst_p[q] = src_p[p]
                src_k, dst_k = dst_k, src_k
                src_p, dst_p = dst_p, src_p
        o = off[d]
        for p in range(m):  # insertion into srt[o:o + p + 1], in order of the whole hash
            key, at = src_k[p], src_p[p]
            q = o + p
            while q > o and srt[q - 1] > key:
                srt[q] = srt[q - 1]
                pos[q] = pos[q - 1]
                q -= 1
            srt[q] = key
            pos[q] = at
    return srt, pos, off


#: the functions numba compiles (``_covered_batch`` calls ``_covered``'s compiled version)
compiled = Compiled(globals(), ("_covered", "_covered_batch", "_sorted_runs"))


def _warm() -> None:
    k = compiled()
    empty = np.empty(0, dtype=np.int64)
    k._covered_batch(np.empty(0, dtype=np.uint64), empty, np.zeros(1, dtype=np.int64), empty, empty, 5)
    k._sorted_runs(np.empty(0, dtype=np.uint64), empty, empty, 5)


#: Load numba's versions (from its cache) now, without SciPy's BLAS; what the first call
#: does where the C loops are not built.
load = KernelLoader(_warm)
