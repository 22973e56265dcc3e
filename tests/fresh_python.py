"""A short script run in a fresh interpreter.

Tests of what a process imports or starts (which modules a command loads, whether numba
is loaded, what a new process's workers preload) need a process of their own: the test
run's process has imported and loaded much already.
"""

from __future__ import annotations

import subprocess
import sys


def fresh_python(script: str, timeout: float = 120) -> str:
    """The standard output of ``script`` run by this interpreter in a new process; the
    test fails with the script's standard error when the script fails."""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout
