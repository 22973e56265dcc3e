"""``python -m ndd_desktop``: start the desktop application (``ndd-desktop``)."""

import sys

from .gui.app import main

if __name__ == "__main__":
    sys.exit(main())
