"""The worker side of the extraction pool (:mod:`ingest.pool`): the process a worker is
started in, and the loop it runs there.

How workers start is :mod:`ingest.pool_server`'s (``forkserver`` on Linux, which preloads
the readers once in the server; ``spawn`` elsewhere). A worker (:func:`worker_main`)
receives a chunk of files at a time, runs it through :func:`run_chunk` and sends the
documents back in one message, writing which file it is on into a shared array so that
the pool can tell a file that hangs or crashes it.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable

from ndd_desktop.core.allocator import keep_freed_memory
from ndd_desktop.ingest.document import STATUS_ERROR, ExtractedDocument, FileEntry, problem
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.ingest.priority import lower_priority
from ndd_desktop.ingest.process_name import WORKER, name_process

Extractor = Callable[[FileEntry, Limits], list[ExtractedDocument]]
#: Position a worker writes while its chunk is in the extractor's ``finish`` step.
_FINISHING = -1.0


def run_chunk(extractor: Extractor, entries: list[FileEntry], limits: Limits,
              mark: Callable[[float], None] | None = None) -> list[list[ExtractedDocument]]:
    """The documents of each entry of a chunk, in order.

    An extractor with the two optional methods ``extract(entry, limits)`` (one file) and
    ``finish(results)`` (the whole chunk's documents, changed in place: e.g. sketched in
    one call) is run in those two steps; any other is called once per file. ``mark(k)``
    is told the position of the file being extracted, then ``_FINISHING``.
    """
    one = getattr(extractor, "extract", None)
    finish = getattr(extractor, "finish", None)
    if one is None or finish is None:
        one, finish = extractor, None
    results = []
    for k, entry in enumerate(entries):
        if mark is not None:
            mark(float(k))
        results.append(one(entry, limits))
    if finish is not None:
        if mark is not None:
            mark(_FINISHING)
        finish(results)
    return results


def worker_main(conn, limits: Limits, extractor: Extractor, where) -> None:
    """Loop of a worker process: receive a chunk of entries, send back their documents."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    name_process(WORKER)
    lower_priority(limits.worker_niceness)
    limit_memory(limits.max_worker_memory_bytes)
    keep_freed_memory()  # core.allocator: the batches' buffers stay mapped

    def mark(pos: float) -> None:
        where[1] = time.monotonic()  # the time first: a reader seeing the new position sees it too
        where[0] = pos

    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        chunk, update = chunk
        if update is not None:
            extractor = update
        results = run_chunk(extractor, chunk, limits, mark)
        try:
            conn.send(results)
        except (EOFError, OSError):
            return
        except Exception as exc:  # e.g. a result too odd to pickle
            conn.send([[problem(e, STATUS_ERROR, f"result could not be sent: {exc}")] for e in chunk])


def limit_memory(limit: int | None) -> None:
    """Cap this worker's address space at ``limit`` bytes beyond what it holds now.

    Counted from the worker's start, not from zero: some libraries reserve address space
    they never fill (pypdfium2 4.x's PDFium reserves 32 GB when imported), and a cap below
    that reservation made every later allocation fail, so every file came back with
    "extractor failed: MemoryError". What a file can make the worker allocate is the same.
    """
    if not limit:
        return
    try:
        import resource

        held = _address_space()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = held + limit
        if hard == resource.RLIM_INFINITY or hard > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass


def _address_space() -> int:
    """Bytes of address space this process holds (its virtual size)."""
    import psutil

    return int(psutil.Process().memory_info().vms)
