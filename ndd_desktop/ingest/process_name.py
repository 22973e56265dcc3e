"""The name a scan's own processes show in the system's process list.

A scan runs beside its own process an extraction worker per core and verification
helpers; all of them are the same Python program, so ``top``, ``ps -e`` or a system
monitor would list a row of "python" with nothing to tell which is which. Each names
itself for its role (``WORKER``, ``HELPER``): a person watching the machine sees what a
scan is doing, and can tell a worker stuck on one file from a helper. On Linux the name
is the thread name of the process's main thread (``prctl(PR_SET_NAME)``, at most 15
bytes), which is what those tools show and ``/proc/PID/comm`` holds; the command line
(``ps aux``) is unchanged. Elsewhere nothing is renamed.
"""

from __future__ import annotations

import sys

#: An extraction worker (``ingest.pool_worker``).
WORKER = "ndd-worker"
#: A verification helper or its twin (``pipeline.verify_helpers``).
HELPER = "ndd-verify"
_PR_SET_NAME = 15
_MAX_BYTES = 15


def name_process(name: str) -> None:
    """Show this process as ``name`` (cut to 15 bytes) in the process list, on Linux;
    nothing elsewhere or where the system refuses."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None).prctl(_PR_SET_NAME, name.encode("utf-8")[:_MAX_BYTES], 0, 0, 0)
    except (OSError, AttributeError):
        pass
