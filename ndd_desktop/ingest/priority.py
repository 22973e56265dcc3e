"""The priority a scan's own processes (extraction workers, verification helpers) run at.

A scan started from the window reads files on every core, and the window's process must
still answer at once: its workers run below it (``Limits.worker_niceness``), so the
system gives the window the CPU whenever it asks for it and the workers the rest. A
process it starts (tesseract for OCR) inherits that priority. The command line keeps them
at its own priority (0).
"""

from __future__ import annotations

import os


def lower_priority(niceness: int) -> None:
    """Run this process ``niceness`` steps below the priority it has (POSIX: its niceness
    raised by that much; Windows: below normal priority for any value above 0). Nothing
    for 0, and nothing where the system refuses."""
    if niceness <= 0:
        return
    if hasattr(os, "nice"):
        try:
            os.nice(niceness)
        except OSError:
            pass
        return
    import psutil  # Windows: no niceness, but priority classes

    try:
        psutil.Process().nice(psutil.BELOW_NORMAL_PRIORITY_CLASS)
    except (OSError, AttributeError, psutil.Error):
        pass
