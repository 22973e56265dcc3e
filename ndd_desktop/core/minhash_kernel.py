"""The compiled path of MinHash word sketches (:mod:`core.minhash_sketch`): from the tokens'
places in the texts' bytes to each document's row, one loop per document; and the token
keys alone (:func:`token_keys`), which the verification's runs of words are made of.

numpy makes a batch's word sketches in about twenty array passes over its tokens and
shingles (token keys piece by piece, shingle polynomials, a row-wise sort for the distinct
count, and for each of the t permutations a multiply and a ``minimum.reduceat``): 30-35
us a 4 KB document. Here each document is one pass over its tokens: the token keys and
shingle values as :mod:`core.batch_hashing` defines them, the distinct values counted in a
small hash table, and each value multiplied by the t multipliers with the running minima
in a row the CPU keeps in its cache. The rows are those of
:func:`core.minhash_sketch.sketch_matrix` bit for bit
(``tests/core/test_minhash_kernel.py`` compares them on texts made to reach every branch).

The functions are plain Python (never run as such: numpy's path is the reference);
:data:`compiled` are their numba versions (``core.kernel_load``: compiled once per machine, cached beside
the module where that folder is writable, run without the GIL). Where the package's C
extension is built, its versions of the same two functions serve instead (``core.native``:
the same rows, ready in every process at no cost). Else the scan's workers use numba's
when their server loaded them before forking (``pipeline.server_kernels``), and any
caller whose batch is large enough to pay numba's load (:data:`FROM_TEXTS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import native
from .hashing import MIX_K1, MIX_K2, POLY_BASE, SHORT_TAG
from .kernel_load import Compiled, KernelLoader

# the batch hashing's constants, as the compiled code's globals (constants to numba)
_K1, _K2, _POLY, _SHORT_TAG = MIX_K1, MIX_K2, POLY_BASE, np.uint64(SHORT_TAG)
_S32 = np.uint64(32)
_EMPTY = np.uint32(0xFFFFFFFF)
_ONE = np.uint64(1)

#: From this many texts in one call, a process that has not loaded the compiled functions
#: loads them (numba's import and the cached code: ~0.3 s once per process).
FROM_TEXTS = 20_000


def _mix(z: np.uint64) -> np.uint64:
    """core.batch_hashing's mixer: multiply, xor-shift, multiply (modulo 2^64)."""
    z = z * _K1
    z = z ^ (z >> _S32)
    return z * _K2


def _u64_at(words: np.ndarray, pos: int, n: int) -> np.uint64:
    """The ``n`` (1..8) bytes at byte ``pos`` of ``words`` (the bytes as little-endian
    uint64) read as a little-endian integer: from the two words they straddle."""
    q = pos >> 3
    shift = np.uint64((pos & 7) << 3)
    # w << (64 - shift) without a shift by 64 (which the hardware takes as 0)
    key = (words[q] >> shift) | ((words[q + 1] << _ONE) << (np.uint64(63) - shift))
    if n < 8:
        key &= (_ONE << np.uint64(8 * n)) - _ONE
    return key


def _token_key(words: np.ndarray, start: int, length: int) -> np.uint64:
    """core.batch_hashing's token key: the bytes up to 8, each further 8-byte piece folded
    in through the mixer, the whole mixed once."""
    key = _u64_at(words, start, min(length, 8))
    k = 1
    while length > 8 * k:
        key = _mix(key) ^ _u64_at(words, start + 8 * k, min(length - 8 * k, 8))
        k += 1
    return _mix(key)


def token_keys(words: np.ndarray, tok_starts: np.ndarray, tok_lens: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (uint64) with the key of each token (``core.batch_hashing``'s
    ``WordSpans.keys``; places in ``words`` as :func:`sketch_spans` takes them)."""
    for k in range(tok_starts.shape[0]):
        out[k] = _token_key(words, tok_starts[k], tok_lens[k])


def _odd_high(z: np.uint64) -> np.uint32:
    """The value of a shingle key: the high 32 bits of its mix, forced odd."""
    return np.uint32((_mix(z) >> _S32) | _ONE)


def sketch_spans(words: np.ndarray, tok_starts: np.ndarray, tok_lens: np.ndarray, first: np.ndarray,
                 counts: np.ndarray, w: int, multipliers: np.ndarray, out: np.ndarray) -> None:
    """Fill ``out`` (documents, t + 1; uint32): document d's tokens are
    ``tok_starts/tok_lens[first[d] : first[d] + counts[d]]``, byte places in ``words`` (the
    texts' bytes as little-endian uint64, one whole word of zeros or more after the last);
    its row is the minima of its w-token shingle values under the t ``multipliers`` and,
    last, the number of distinct values (as ``core.minhash_sketch.sketch_matrix``)."""
    t = multipliers.shape[0]
    widest = 1
    for d in range(counts.shape[0]):
        widest = max(widest, counts[d])
    keys = np.empty(widest, dtype=np.uint64)
    values = np.empty(widest, dtype=np.uint32)
    size = 16
    while size < 2 * widest:
        size *= 2
    table = np.zeros(size, dtype=np.uint32)
    mins = np.empty(t, dtype=np.uint32)
    for d in range(counts.shape[0]):
        n = counts[d]
        f = first[d]
        for k in range(n):
            keys[k] = _token_key(words, tok_starts[f + k], tok_lens[f + k])
        if n >= w:
            m = n - w + 1
            for k in range(m):
                s = keys[k]
                for j in range(1, w):
                    s = s * _POLY + keys[k + j]
                values[k] = _odd_high(s)
        elif n > 0:  # fewer tokens than a shingle: one value of all of them
            m = 1
            s = keys[0]
            for j in range(1, w - 1):
                if n > j:
                    s = s * _POLY + keys[j]
            values[0] = _odd_high(s ^ (_SHORT_TAG * np.uint64(n + 1)))
        else:
            m = 0
        # distinct values: an open-addressing table (the values are odd, 0 is a free slot)
        cells = 16
        while cells < 2 * m:
            cells *= 2
        mask = cells - 1
        for k in range(cells):
            table[k] = 0
        distinct = 0
        for k in range(m):
            v = values[k]
            h = np.int64(v >> np.uint32(1)) & mask
            while table[h] != 0 and table[h] != v:
                h = (h + 1) & mask
            if table[h] == 0:
                table[h] = v
                distinct += 1
        # (in 32-bit arithmetic with a branch-free minimum, which the compiler turns into
        # vector instructions: a third of the time of the same loop in 64 bits)
        for i in range(t):
            mins[i] = _EMPTY
        for k in range(m):
            v = values[k]
            for i in range(t):
                mins[i] = min(mins[i], np.uint32(v * multipliers[i]))
        for i in range(t):
            out[d, i] = mins[i]
        out[d, t] = np.uint32(distinct)


#: the functions numba compiles (each calls the others' compiled versions)
compiled = Compiled(globals(), ('_mix', '_u64_at', '_token_key', 'token_keys', '_odd_high', 'sketch_spans'))


def _warm() -> None:
    k = compiled()
    one = np.zeros(1, dtype=np.int64)
    k.sketch_spans(np.zeros(2, dtype=np.uint64), one, np.ones(1, dtype=np.int64), one, np.ones(1, dtype=np.int64), 3,
                   np.ones(2, dtype=np.uint32), np.empty((1, 3), dtype=np.uint32))
    k.token_keys(np.zeros(2, dtype=np.uint64), one, np.ones(1, dtype=np.int64), np.empty(1, dtype=np.uint64))


#: Load the compiled functions (from numba's cache) now, without SciPy's BLAS.
load = KernelLoader(_warm)
_FAILED: list[BaseException] = []  # a load that failed is not tried again in this process


def ready() -> Any:
    """The functions this process has ready, without loading anything: the C versions
    where the package's extension is built (``core.native``), numba's once loaded; else
    None."""
    if native.LOOPS is not None:
        return native.WordSketches
    return compiled() if load.is_loaded() else None


def loaded() -> bool:
    """Whether this process has the compiled functions ready (:func:`ready`)."""
    return ready() is not None


def functions(texts: int) -> Any:
    """The compiled functions, when this process has them or ``texts`` is worth loading
    numba's for (:data:`FROM_TEXTS`); None: take numpy's path."""
    kernel = ready()
    if kernel is not None:
        return kernel
    if texts < FROM_TEXTS or _FAILED:
        return None
    try:
        load()
    except Exception as exc:  # noqa: BLE001 - no numba here, or it cannot compile: numpy's path
        _FAILED.append(exc)
        return None
    return compiled()
