"""``python -m ndd_desktop.cli``: the same as the ``ndd`` command."""

import sys

from . import main

if __name__ == "__main__":
    sys.exit(main())
