"""Reading and sketching files on the workers of a Dask cluster.

The plan's files are cut into partitions (a number of files or of bytes, whichever comes
first); a task reads and sketches one partition on a worker with the local engine's own
code (``ingest.pool.extract_many`` in the worker's process, with
``pipeline.worker_sketch.SketchingExtractor``), and the documents come back to the client
as tasks finish, where :class:`DaskExtractStage` batches and writes them exactly as the
local extract stage does. Only a bounded number of partitions is in flight, so the
client's memory stays flat whatever the collection's size.

A worker that dies takes its tasks with it; the scheduler runs them again elsewhere. A
partition that keeps killing its workers (a file that crashes the reader) is split into
one task per file, and a file that still kills its worker is recorded as "extractor
crashed", as the local pool records it. The workers must see the files at the paths the
client walked (a shared file system mounted at the same place).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from ..ingest import reasons as R
from ..ingest.document import STATUS_ERROR, ExtractedDocument, FileEntry, problem
from ..ingest.limits import Limits
from ..pipeline.extract_stage import ExtractStage
from ..pipeline.worker_sketch import SketchingExtractor
from .connect import ClusterError, cluster_lost, is_lost, worker_count

#: Files and bytes in one partition (one task). Each task costs the worker and the
#: scheduler a few milliseconds of bookkeeping on top of its files: 64 files a task made the
#: extraction of 20,000 documents on 2 local workers 15.2 s, 512 files 12.5 s.
PART_FILES = 512
PART_BYTES = 64 << 20
#: Partitions in flight per worker.
IN_FLIGHT_PER_WORKER = 3
#: Seconds between looks at the partitions in flight (their futures say when they are done)
#: and, while none is, at the cancel token and at the cluster.
STEP_S = 0.02
POLL_S = 0.5
#: Seconds a scan waits for a cluster with no worker (none started, or all of them died and
#: none came back) before it stops; it waited for ever.
NO_WORKERS_S = 30.0


#: Modules a worker imports before its first partition (the local pool's forkserver
#: preloads the same): a worker's first files would otherwise pay for them. pandas and the
#: band module serve the pair stage's group-by (pandas alone took a worker most of a second
#: to import, on the pair stage's critical path).
PRELOAD = ("ndd_desktop.ingest.extract", "ndd_desktop.pipeline.worker_sketch", "trafilatura", "pandas",
           "ndd_desktop.cluster.bands")


def warm_up() -> None:
    """On a worker: import what reading, sketching and the band group-by need (see
    PRELOAD), and load the band kernel on a tiny input (numba loads a compiled kernel on
    its first call), so a scan's first tasks do not wait for either."""
    import importlib

    from ..core.allocator import keep_freed_memory

    keep_freed_memory()  # the worker's batches reuse their buffers (core.allocator)
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # the reader then says so per file, as locally
            pass
    try:
        import numpy as np

        from .bands import set_band_rows

        set_band_rows((np.arange(2, dtype=np.int64), np.arange(16, dtype=np.uint32), np.array([8, 8], np.int64)),
                      1, 2, 8, 2)
    except Exception:  # the first band task then loads it
        pass


def worker_view(roots: list[str]) -> dict:
    """On a worker: what it needs to read the scan's files as the client would: the
    ``roots`` it cannot see (a folder not mounted there, or mounted elsewhere), its
    ndd-desktop version, and the readers it cannot import (a library missing from its
    environment). A worker blind to the folder reported every file "vanished during the
    scan", and one without a reader's library failed those files for good, both with exit 0."""
    import importlib
    import os

    from .. import __version__
    from ..ingest.extract import READER_MODULES

    missing = [r for r in roots if not os.path.isdir(r) or not os.access(r, os.R_OK | os.X_OK)]
    broken = []
    for name in READER_MODULES:
        try:
            importlib.import_module(name)
        except Exception as exc:  # ImportError, or a library that fails as it loads
            broken.append(f"{name.rsplit('.', 1)[-1]} ({type(exc).__name__}: {exc})")
    return {"missing": missing, "version": __version__, "broken": broken}


def read_partition(entries: list[FileEntry], limits: Limits, extractor: SketchingExtractor) -> list[list[ExtractedDocument]]:
    """On a worker: the documents of each file of a partition (one list per file), read and
    sketched in the worker's own process."""
    from ..ingest.pool import extract_many

    return list(extract_many(entries, limits, workers=0, extractor=extractor))


def partitions(entries: list[FileEntry], max_files: int = PART_FILES, max_bytes: int = PART_BYTES) -> list[list[FileEntry]]:
    """The files cut into partitions of at most ``max_files`` files and about ``max_bytes``."""
    parts: list[list[FileEntry]] = []
    part: list[FileEntry] = []
    size = 0
    for e in entries:
        if part and (len(part) >= max_files or size + e.size > max_bytes):
            parts.append(part)
            part, size = [], 0
        part.append(e)
        size += e.size
    if part:
        parts.append(part)
    return parts


def read_on_cluster(client: Any, entries: list[FileEntry], limits: Limits, extractor: SketchingExtractor,
                    cancel: Any = None, part_files: int = PART_FILES,
                    refresh: Callable[[], SketchingExtractor] | None = None) -> Iterator[list[ExtractedDocument]]:
    """The documents of each file (one list per file), read on the cluster's workers in
    partitions of at most ``part_files`` files, in the order the partitions finish (see
    the module docstring). ``refresh()``, when given, is the extractor for each partition
    submitted from then on (the scan's, with the text dictionary once it is trained: the
    workers then compress the texts, as the local pool's do)."""
    try:
        yield from _read(client, entries, limits, extractor, cancel, part_files, refresh)
    except Exception as exc:
        if is_lost(exc, client):
            raise cluster_lost(exc) from None
        raise


def _read(client, entries, limits, extractor, cancel, part_files, refresh=None) -> Iterator[list[ExtractedDocument]]:
    from distributed.scheduler import KilledWorker

    todo = partitions(entries, part_files)
    todo.reverse()  # popped from the end: the walk's order
    limit = IN_FLIGHT_PER_WORKER * worker_count(client)
    running: dict[Any, list[FileEntry]] = {}

    def submit(part: list[FileEntry]) -> None:
        fut = client.submit(read_partition, part, limits, extractor if refresh is None else refresh(), pure=False)
        running[fut] = part

    def finished() -> Iterator[Any]:
        """The partitions as they finish; between them the cancel token is looked at, and a
        cluster left with no worker for NO_WORKERS_S stops the scan (ClusterError)."""
        alone_since = None
        looked = time.monotonic()
        while running:
            ready = [f for f in running if f.done()]
            if ready:
                alone_since = None
                yield from ready
                continue
            time.sleep(STEP_S)
            if time.monotonic() - looked < POLL_S:
                continue
            looked = time.monotonic()
            if cancel is not None and getattr(cancel, "cancelled", False):
                return
            if _no_workers(client):
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since >= NO_WORKERS_S:
                    raise ClusterError(
                        f"the Dask cluster has had no worker for {NO_WORKERS_S:g} s (none started, or all of "
                        "them stopped): start workers for it, or scan without --engine dask; the documents "
                        "written so far are kept: run the same command again to resume")
            else:
                alone_since = None

    try:
        while todo and len(running) < limit:
            submit(todo.pop())
        for fut in finished():
            part = running.pop(fut)
            try:
                results = fut.result()
            except KilledWorker:
                if len(part) > 1:  # find the file that kills its worker: one task per file
                    for entry in reversed(part):
                        todo.append([entry])
                    results = []
                else:
                    results = [[problem(part[0], STATUS_ERROR, f"{R.CRASHED} (it killed its Dask worker)")]]
            fut.release()
            yield from results
            if cancel is not None and getattr(cancel, "cancelled", False):
                return
            while todo and len(running) < limit:
                submit(todo.pop())
    finally:
        if client.status == "running":
            for fut in running:
                fut.cancel()


def _no_workers(client) -> bool:
    """Whether the scheduler knows no worker now (False when it cannot be asked)."""
    try:
        return not client.scheduler_info().get("workers")
    except Exception:  # the scheduler went away: the next wait says so
        return False


class DaskExtractStage(ExtractStage):
    """The extract stage with the files read and sketched on a Dask cluster; the batches
    are matched and written by the local stage's own code."""

    def __init__(self, client: Any, part_files: int, on_sent: Callable[[int], None] | None, *args: Any) -> None:
        super().__init__(*args)
        self.client, self.part_files, self.on_sent = client, part_files, on_sent

    starting = "reading on the Dask workers"

    def _read(self, extractor: SketchingExtractor, limits, workers: int | None):
        """The documents of the planned files, partition by partition, from the cluster
        (``workers`` is the cluster's business)."""
        if self.on_sent is not None:  # an unchanged rescan hands the workers nothing
            self.on_sent(len(self.plan.to_extract))
        return read_on_cluster(self.client, self.plan.to_extract, limits, extractor, self.cancel, self.part_files,
                               refresh=lambda: self._extractor)
