"""Fixtures of the ingest tests; the helpers live in ingest_support.py (a unique module name)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from ingest_support import extract_file, one  # noqa: E402,F401
