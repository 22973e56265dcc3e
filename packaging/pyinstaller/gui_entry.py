"""PyInstaller entry point of the ``ndd-desktop`` window (the bundle's GUI executable)."""

import multiprocessing
import sys

if __name__ == "__main__":
    # Extraction runs in worker processes; a frozen program must route them here first.
    multiprocessing.freeze_support()
    from ndd_desktop.gui.app import main

    sys.exit(main())
