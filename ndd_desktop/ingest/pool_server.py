"""How the extraction pool's workers start (:mod:`ingest.pool`): the start method, what the
server they are forked from imports first, and :func:`prestart`, which starts that server
early.

Importing it brings the standard library's ``multiprocessing`` and the ``ingest`` package's
entry points (0.04 s), not numpy, the pipeline or the store: the command line
starts the server before it imports anything else (``cli.scan_start``), and each 0.01 s
spent before is 0.01 s later for every worker.
"""

from __future__ import annotations

import inspect
import multiprocessing
import sys
from collections.abc import Callable


def context(method: str | None, extractor: Callable | None = None, own: str | None = None,
            readers: tuple[str, ...] | None = None, extra: tuple[str, ...] | None = None):
    """The multiprocessing context workers start in; a forkserver preloads ``readers``
    (reader modules; default: all of them), the extractor's module and the modules
    ``extra`` (default: what the extractor names as its ``server_modules``)."""
    if method is None:
        method = "forkserver" if sys.platform.startswith("linux") else "spawn"
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        if own is None:
            if extractor is None:
                own = "ndd_desktop.ingest.extract"
            else:
                own = extractor.__module__ if inspect.isfunction(extractor) else type(extractor).__module__
        if extra is None:
            extra = tuple(getattr(extractor, "server_modules", ()))
        ctx.set_forkserver_preload(server_preload(own, readers, extra))
    return ctx


#: Always preloaded, whatever the readers asked for: PDFium reserves address space when it
#: is loaded (32 GB with pypdfium2 4.x), which a worker's cap (``pool_worker.limit_memory``, counted
#: from the worker's start) must already hold; loaded later, every PDF of the worker failed
#: with a MemoryError. It costs the server 0.04 s.
ADDRESS_SPACE_READER = "ndd_desktop.ingest.formats.pdf"
#: The readers a server started before the walk preloads (:func:`prestart`): the formats
#: are not known yet, and all readers with trafilatura cost the server most of a second
#: before it forks any worker (the whole of a scan's start on a small folder). The plain
#: text reader is light; a worker imports any other reader when it meets its format (one
#: import in every worker at once, instead of all of them in the server before any starts).
PRESTART_READERS = ("ndd_desktop.ingest.formats.txt",)


def server_preload(own: str, readers: tuple[str, ...] | None = None, extra: tuple[str, ...] = ()) -> list[str]:
    """The modules the workers' server imports before it forks any: the readers (those
    given, else all; trafilatura with the web page reader; the PDF reader always:
    :data:`ADDRESS_SPACE_READER`), the extractor's module
    ``own`` (the scan's: the methods), and ``extra`` (the scan's compiled kernels:
    ``pipeline.kernel_preload``), once in the server instead of once per worker (a
    server already running keeps what it preloaded)."""
    if readers is None:
        from ndd_desktop.ingest.extract import READER_MODULES

        readers = READER_MODULES
    modules = ["ndd_desktop.ingest.extract", *readers]
    if ADDRESS_SPACE_READER not in modules:
        modules.append(ADDRESS_SPACE_READER)
    if "ndd_desktop.ingest.formats.html" in readers:
        modules.append("trafilatura")
    if own.startswith("ndd_desktop.") and own not in modules:
        modules.append(own)
    modules += [m for m in extra if m not in modules]
    return modules


def prestart(extractor_module: str, extra: tuple[str, ...] = ()) -> None:
    """Start the server the workers are forked from now, with what an extractor of
    ``extractor_module`` preloads, :data:`PRESTART_READERS` and the modules ``extra``,
    so that it is ready when :func:`extract_many` starts its first worker. Nothing where
    workers are spawned instead."""
    ctx = context(None, own=extractor_module, readers=PRESTART_READERS, extra=extra)
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()
