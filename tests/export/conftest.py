"""Fixtures of the export tests; the helpers live in export_support.py (a unique module name,
because every test folder's conftest.py would otherwise be the same module "conftest")."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from export_support import collection, forbid_source_writes, scanned  # noqa: E402,F401
