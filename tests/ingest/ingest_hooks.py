"""Stand-in extractors for the pool tests (module level, so worker processes can import them)."""

from __future__ import annotations

import os
import signal
import time

from ndd_desktop.ingest.extract import extract_entry


def misbehave(entry, limits):
    """Hang on files named *hang*, die on *crash*, raise on *raise*; else extract."""
    name = os.path.basename(entry.relpath)
    if "hang" in name:
        time.sleep(3600)
    if "crash" in name:
        os.kill(os.getpid(), signal.SIGKILL)
    if "exit" in name:
        os._exit(3)
    return extract_entry(entry, limits)


def slow(entry, limits):
    """Extract after a short pause, so several files are in flight at once."""
    time.sleep(0.2)
    return extract_entry(entry, limits)


def _exit_at_once(code: int) -> None:
    os._exit(code)


class DiesOnArrival:
    """An extractor whose worker process dies as it receives it, before any file (its
    unpickling exits the process): a worker that cannot start."""

    def __reduce__(self):
        return _exit_at_once, (5,)


def tell_process_name(entry, limits):
    """Extract, then put the name the process list shows for the worker (Linux's
    /proc/self/comm) in the document's reason."""
    docs = extract_entry(entry, limits)
    with open("/proc/self/comm", encoding="utf-8") as fh:
        docs[0].reason = fh.read().strip()
    return docs


def tell_niceness(entry, limits):
    """Extract, then put the worker's niceness in the document's reason (POSIX)."""
    docs = extract_entry(entry, limits)
    docs[0].reason = str(os.getpriority(os.PRIO_PROCESS, 0))
    return docs
