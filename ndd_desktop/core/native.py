"""The C versions of the scan's hot loops (``core/_native.c``), when this installation
built them: the word sketches and token keys of :mod:`core.minhash_kernel` and the sorted
runs and covered words of :mod:`core.share_kernel` (both also compiled by numba), and
loops with no numba version: bottomk's sketches and fingerprint's block checksums (numpy's
paths are the reference: ``core.methods``) and the walk's stat of a folder's files
(``ingest.walk``).

The results are those of the other versions bit for bit (``tests/core/test_native.py``,
``tests/core/test_minhash_kernel.py``). What C adds over numba is the load: a process
that uses a numba kernel first imports numba and loads the machine code from its cache,
0.25-0.3 s of CPU, which a scan's workers' server paid before it could fork its first
worker; this module is loaded with the package's other modules, in about a millisecond.

setup.py builds the extension where a C compiler is found (``optional``: a build without
one goes on, and numba's and numpy's versions serve). ``NDD_NATIVE_KERNELS=0`` in the
environment leaves it unused, to compare the two or to rule it out.

:data:`LOOPS` is None where the extension is missing or turned off; otherwise the
functions below take the arrays the other versions take (converted to the dtypes the C
code reads, which costs nothing when they already are).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType

import numpy as np

from .hashing import _M1, _M2, MIX_K1, MIX_K2, POLY_BASE, RUN_SEED_OFFSET, SHORT_TAG, seed_offset


def _turned_off() -> bool:
    return os.environ.get("NDD_NATIVE_KERNELS", "1") == "0"


def _load() -> ModuleType | None:
    if _turned_off() or not np.little_endian:
        return None  # (the loops read a token's bytes as little-endian words)
    try:
        from . import _native
    except ImportError:
        return None
    _native.configure(int(MIX_K1), int(MIX_K2), int(POLY_BASE), SHORT_TAG, int(RUN_SEED_OFFSET), int(_M1), int(_M2))
    return _native


#: The configured extension module, or None (not built here, or turned off).
LOOPS = _load()


def describe() -> str:
    """Which loops this process runs, for ``ndd scan --verbose``: a scan without the C ones
    is slower to start (numba's load) and to sketch with bottomk and fingerprint."""
    if LOOPS is not None:
        return "C (ndd_desktop/core/_native)"
    if _turned_off():
        return "numba and numpy (the C loops are turned off: NDD_NATIVE_KERNELS=0)"
    return ("numba and numpy (the C loops are not built: no C compiler when ndd was installed; "
            "see docs/install.md, The C loops)")


def _i64(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


class WordSketches:
    """:mod:`core.minhash_kernel`'s two functions, in C (the same arguments)."""

    @staticmethod
    def token_keys(words: np.ndarray, tok_starts: np.ndarray, tok_lens: np.ndarray, out: np.ndarray) -> None:
        LOOPS.token_keys(np.ascontiguousarray(words, dtype=np.uint64), _i64(tok_starts), _i64(tok_lens), out)

    @staticmethod
    def sketch_spans(words: np.ndarray, tok_starts: np.ndarray, tok_lens: np.ndarray, first: np.ndarray,
                     counts: np.ndarray, w: int, multipliers: np.ndarray, out: np.ndarray) -> None:
        LOOPS.sketch_spans(np.ascontiguousarray(words, dtype=np.uint64), _i64(tok_starts), _i64(tok_lens),
                           _i64(first), _i64(counts), int(w), np.ascontiguousarray(multipliers, dtype=np.uint32),
                           out)


def sorted_runs(tokens: np.ndarray, starts: np.ndarray, counts: np.ndarray,
                w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`core.share_kernel.sorted_runs`, in C."""
    counts = _i64(counts)
    off = np.zeros(counts.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.maximum(counts - (w - 1), 0), out=off[1:])
    srt = np.empty(int(off[-1]), dtype=np.uint64)
    pos = np.empty(int(off[-1]), dtype=np.int64)
    LOOPS.sorted_runs(np.ascontiguousarray(tokens, dtype=np.uint64), _i64(starts), counts, int(w), off, srt, pos)
    return srt, pos, off


def covered_batch(srt: np.ndarray, pos: np.ndarray, off: np.ndarray, pi: np.ndarray, pj: np.ndarray,
                  w: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`core.share_kernel.covered_batch`, in C."""
    pi, pj = _i64(pi), _i64(pj)
    ci = np.empty(pi.shape[0], dtype=np.int64)
    cj = np.empty(pi.shape[0], dtype=np.int64)
    LOOPS.covered_batch(np.ascontiguousarray(srt, dtype=np.uint64), _i64(pos), _i64(off), pi, pj, int(w), ci, cj)
    return ci, cj


def bottom_k_grams(texts: Sequence[str], n: int, k: int, seed: int = 0) -> list[np.ndarray]:
    """:func:`core.methods.bottomk.bottom_k` of ``core.hashing.hash_char_ngrams(text, n,
    seed)`` for each text, in C (one loop a text: the windows hashed by a rolling update,
    the k smallest distinct values kept); views of one buffer."""
    count = len(texts)
    encoded = [t.encode("utf-32-le", "surrogatepass") for t in texts]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=count) // 4
    starts = np.zeros(count, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    cps = np.frombuffer(b"".join(encoded), dtype=np.uint32)
    out = np.empty(count * k, dtype=np.uint64)
    counts = np.empty(count, dtype=np.int64)
    LOOPS.bottom_k_grams(cps, starts, lengths, int(n), int(k), int(seed_offset(seed)), out, counts)
    return [out[d * k : d * k + c] for d, c in enumerate(counts.tolist())]


def window_checks(data: bytes, window: int, seed: int = 0) -> np.ndarray:
    """The high 32 bits of ``core.hashing.hash_bytes_windows(data, window, seed)``
    (uint32), in C: fingerprint's block checksums."""
    if len(data) < window:
        return np.empty(0, dtype=np.uint32)
    out = np.empty(len(data) - window + 1, dtype=np.uint32)
    LOOPS.window_checks(data, int(window), int(seed_offset(seed)), out)
    return out


def stat_names(dir_fd: int, names: list[str]) -> tuple[list[int], list[int], list[int], list[int]] | None:
    """(modes, sizes, modification times in ns, errnos) of the entries ``names`` of the
    folder open as ``dir_fd``, each asked without following a link (``ingest.walk``); None
    where the C loops are not built or the system has no such call (Windows, whose
    folder listing carries the sizes and times already)."""
    if LOOPS is None or not hasattr(LOOPS, "stat_names"):
        return None
    n = len(names)
    modes = np.empty(n, dtype=np.uint32)
    sizes, mtimes = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    errs = np.empty(n, dtype=np.int32)
    joined = os.fsencode("\0".join(names)) + b"\0" if n else b""
    LOOPS.stat_names(dir_fd, joined, modes, sizes, mtimes, errs)
    return modes.tolist(), sizes.tolist(), mtimes.tolist(), errs.tolist()
