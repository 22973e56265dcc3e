"""``python -m ndd_desktop.cli``: the same as the ``ndd`` command."""

import sys

from . import run

if __name__ == "__main__":
    sys.exit(run())
