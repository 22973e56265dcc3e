"""Stand-in extractors for the worker's memory cap (module level, so workers import them).

Imported in a worker process, this module reserves RESERVE_BYTES of address space, as
some libraries do when imported (pypdfium2 4.x's PDFium reserves 32 GB). A worker
imports it when it unpickles its extractor, before it sets its memory cap. The
reservation commits no memory (a private read-only mapping, never touched).
"""

from __future__ import annotations

import mmap
import multiprocessing

from ndd_desktop.ingest.extract import extract_entry

RESERVE_BYTES = 6 * 1024**3
_RESERVED = []
if multiprocessing.current_process().name != "MainProcess":
    _RESERVED.append(mmap.mmap(-1, RESERVE_BYTES, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                               prot=mmap.PROT_READ))


def extract(entry, limits):
    """Extract as the scan does (in a worker holding the reservation)."""
    return extract_entry(entry, limits)


def greedy(entry, limits):
    """On a file named *big*: allocate and touch 1.5x the worker's memory cap first."""
    if "big" in entry.relpath:
        block = bytearray(int(limits.max_worker_memory_bytes * 1.5))
        block[::4096] = b"x" * len(range(0, len(block), 4096))
    return extract_entry(entry, limits)
