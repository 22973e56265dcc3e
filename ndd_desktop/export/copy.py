"""Copying or hard-linking one file into the destination, verified by SHA-256.

Sources are only ever opened with ``"rb"`` and ``os.stat``-ed; every path written,
renamed or removed is first passed to the :class:`~.layout.WriteGuard`.
"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass

from .errors import ExportCancelled

CHUNK = 1 << 20
#: errno values for which a hard link falls back to a copy.
_LINK_REFUSED = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.EACCES, errno.ENOTSUP,
                 getattr(errno, "EOPNOTSUPP", errno.ENOTSUP)}


class FileProblem(Exception):
    """This file cannot be exported (changed since the scan, unreadable, ...); others go on."""


@dataclass(frozen=True)
class Transfer:
    """How one file reached the destination."""

    how: str  # "copied" or "linked"
    sha256: str
    size: int
    note: str = ""


def is_cancelled(cancel) -> bool:
    """True when ``cancel`` (None, or any object with ``cancelled``) asks to stop."""
    if cancel is None:
        return False
    flag = cancel.cancelled
    return bool(flag() if callable(flag) else flag)


def sha256_file(path: str, cancel=None) -> tuple[str, int]:
    """(hex SHA-256, size) of a file, read in chunks; checks ``cancel`` between chunks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while True:
            block = fh.read(CHUNK)
            if not block:
                break
            h.update(block)
            size += len(block)
            if is_cancelled(cancel):
                raise ExportCancelled()
    return h.hexdigest(), size


def _remove(path: str, guard) -> None:
    """Remove one of our own files in the destination, if it is there."""
    guard.check(path)
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def transfer_file(source: str, target: str, expected: str | None, scanned_mtime_ns: int,
                  *, mode: str, guard, cancel=None, keep_writable: bool = False) -> Transfer:
    """Copy (or hard-link) ``source`` to the absolute path ``target`` and verify it.

    Args:
        expected: the store's SHA-256 of the whole file; None when the store has none
            (then the file must still have the scanned modification time, and the copy
            is verified against the bytes read from the source now).
        mode: ``"copy"`` or ``"hardlink"``; a refused link falls back to a copy (noted).
        keep_writable: copy instead of linking a source we may not write, so that the
            exported file is writable (the bag tool requires it) without ever changing
            the permissions of the original it would share an inode with.

    Raises:
        FileProblem: this file cannot be exported; nothing of it is left in DEST.
        ExportCancelled: ``cancel`` was set; the partial copy is removed.
    """
    try:
        st = os.stat(source)
    except OSError as exc:
        raise FileProblem(f"cannot read the source: {exc.strerror or exc}") from None
    if not os.path.isfile(source):
        raise FileProblem("the source is no longer a regular file")
    if expected is None and st.st_mtime_ns != scanned_mtime_ns:
        raise FileProblem("changed since the scan (modification time differs); rescan first")
    parent = os.path.dirname(target)
    guard.check(parent)
    os.makedirs(parent, exist_ok=True)
    if os.path.lexists(target):
        raise FileProblem("the target already exists (names that differ only in case on a "
                          "case-insensitive destination?)")
    note = ""
    if mode == "hardlink":
        if keep_writable and not os.access(source, os.W_OK):
            note = "read-only source copied, not linked (the bag needs writable payload files)"
        else:
            guard.check(target)
            try:
                os.link(source, target)
            except OSError as exc:
                if exc.errno not in _LINK_REFUSED:
                    raise FileProblem(f"cannot link: {exc.strerror or exc}") from None
                note = f"hard link refused ({exc.strerror or exc.errno}); copied instead"
            else:
                try:
                    digest, size = sha256_file(target, cancel)
                except BaseException:
                    _remove(target, guard)  # unlinks our name only; the original keeps its own
                    raise
                if expected is not None and digest != expected:
                    _remove(target, guard)
                    raise FileProblem("changed since the scan: its SHA-256 differs from the store's")
                return Transfer("linked", digest, size)
    return _copy(source, target, expected, st, guard, cancel, note)


def _copy(source, target, expected, st, guard, cancel, note) -> Transfer:
    """Copy through a temporary file next to the target, verify, then rename into place."""
    part = os.path.join(os.path.dirname(target),
                        ".ndd-part-" + hashlib.sha1(target.encode("utf-8", "surrogateescape")).hexdigest()[:16])
    _remove(part, guard)
    src_hash = hashlib.sha256()
    try:
        with open(source, "rb") as src, open(guard.check(part), "xb") as out:
            while True:
                block = src.read(CHUNK)
                if not block:
                    break
                src_hash.update(block)
                out.write(block)
                if is_cancelled(cancel):
                    raise ExportCancelled()
            out.flush()
            os.fsync(out.fileno())
        src_digest = src_hash.hexdigest()
        if expected is not None and src_digest != expected:
            raise FileProblem("changed since the scan: its SHA-256 differs from the store's")
        after = os.stat(source)
        if (after.st_mtime_ns, after.st_size) != (st.st_mtime_ns, st.st_size):
            raise FileProblem("changed while it was being copied")
        copy_digest, size = sha256_file(part, cancel)
        if copy_digest != src_digest:
            raise FileProblem("the copy does not match its source (a write error?)")
        os.utime(guard.check(part), ns=(st.st_atime_ns, st.st_mtime_ns))
        if os.path.lexists(target):
            raise FileProblem("the target already exists")
        os.rename(part, guard.check(target))
    except OSError as exc:
        _remove(part, guard)
        raise FileProblem(f"cannot copy: {exc.strerror or exc}") from None
    except BaseException:
        _remove(part, guard)
        raise
    return Transfer("copied", copy_digest, size, note)
