"""The start of ``ndd scan`` that runs before the rest of the command line is imported.

A scan into a new collection reads every file, and its workers are forked from a server
that first imports the readers (most of a second). The command line starts that server as
soon as its arguments are parsed and its folders checked, before it imports the commands
and the store with SQLAlchemy (0.3 s), so the two imports run side by side; the scan job
asks for the server again later and finds it running. Only the standard library and the
pool's worker module are imported here.
"""

from __future__ import annotations

import argparse
import os

from . import UsageError

#: The module of the scan's extractor (``pipeline.worker_sketch``), named without importing it.
SCAN_EXTRACTOR_MODULE = "ndd_desktop.pipeline.worker_sketch"


def check_folders(args: argparse.Namespace) -> None:
    """Refuse a path that is a file or no folder at all (before anything starts)."""
    for path in [*args.paths, *args.reference]:
        if os.path.isfile(path):
            folder = os.path.dirname(os.path.abspath(path))
            raise UsageError(f"{path} is a file; ndd scan takes folders (a collection is one or more folders): "
                             f"scan its folder {folder}")
        if not os.path.isdir(path):
            raise UsageError(f"no such folder: {path}")


def start(args: argparse.Namespace) -> None:
    """Check the folders, then start the workers' server when the scan will read every file
    (a new collection, local workers); a server already running is left as it is."""
    check_folders(args)
    if args.engine != "dask" and args.workers != 0 and not os.path.exists(args.db):
        from ..core.methods import DEFAULT_METHOD
        from ..ingest.pool_server import prestart
        from ..pipeline.kernel_preload import modules_for

        prestart(SCAN_EXTRACTOR_MODULE, modules_for(args.method or DEFAULT_METHOD))
