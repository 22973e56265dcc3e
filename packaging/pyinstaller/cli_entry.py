"""PyInstaller entry point of the ``ndd`` command (the bundle's console executable)."""

import multiprocessing
import sys

if __name__ == "__main__":
    # Extraction runs in worker processes; a frozen program must route them here first.
    multiprocessing.freeze_support()
    from ndd_desktop.cli import run

    sys.exit(run())
