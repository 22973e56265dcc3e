"""One scan at a time per collection file: an exclusive lock on ``<collection>.lock``.

Two scans writing one collection would each take the other's new documents for their own
(the store matches documents by path before its write transaction). The lock is taken
without waiting; the second scan is refused with a clear message. The operating system
drops the lock when its process ends, however it ends, so a crashed scan never leaves a
stale lock behind. The small lock file itself stays beside the collection file.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

from .config import ScanError

LOCK_SUFFIX = ".lock"


@contextlib.contextmanager
def scan_lock(store_path: str) -> Iterator[None]:
    """Hold the scan lock of the collection at ``store_path`` (nothing for ":memory:").

    Raises:
        ScanError: another scan of this collection holds the lock.
    """
    if not store_path or store_path == ":memory:":
        yield
        return
    path = lock_path(store_path)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ScanError(f"cannot create the scan lock {path}: {exc.strerror or exc}") from None
    try:
        if not _try_lock(fd):
            raise ScanError(f"another scan of this collection is running ({_holder(fd)}); "
                            "wait for it to finish or cancel it")
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def lock_path(store_path: str) -> str:
    """The lock file of a collection: beside its real file, so that a collection named
    through a symbolic link is the same collection."""
    return os.path.realpath(store_path) + LOCK_SUFFIX


def scan_running(store_path: str) -> bool:
    """Whether a scan of the collection at ``store_path`` holds its lock now (asked
    without taking it for longer than the question)."""
    if not store_path or store_path == ":memory:":
        return False
    try:
        fd = os.open(lock_path(store_path), os.O_RDWR)
    except OSError:
        return False  # no lock file: no scan ever ran here
    try:
        if _try_lock(fd):
            _unlock(fd)
            return False
        return True
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        pid = os.pread(fd, 32, 0).decode().strip()
    except (OSError, AttributeError, UnicodeDecodeError):
        pid = ""
    return f"process {pid}" if pid.isdigit() else "another process"


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
