"""Copying or hard-linking one file into the destination, verified by SHA-256.

Sources are only ever ``lstat``-ed and opened read-only, without following a symbolic
link in the last step and without blocking (see :func:`resolve_source`: a path is read
through a link only when it leads to a regular file inside the scanned folders, as the
walk follows links); every path written, renamed or removed is first passed to the
:class:`~.layout.WriteGuard`.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass

from ..ingest.walk import path_inside
from .errors import ExportCancelled

CHUNK = 1 << 20
#: errno values for which a hard link falls back to a copy.
_LINK_REFUSED = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.EACCES, errno.ENOTSUP,
                 getattr(errno, "EOPNOTSUPP", errno.ENOTSUP)}
#: How a source is opened: read-only, never through a link in the last step, never
#: waiting on a FIFO or device that took the file's place.
_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class FileProblem(Exception):
    """This file cannot be exported (changed since the scan, unreadable, ...); others go on."""


#: The end of every message of a file that changed since the scan. The same export run
#: again cannot succeed (it checks against the old scan), and after a rescan the plan
#: differs, so the way on is a rescan and a new destination folder.
RESCAN_FIRST = "rescan first"
_HASH_DIFFERS = f"changed since the scan: its SHA-256 differs from the store's; {RESCAN_FIRST}"


def needs_rescan(reason: str) -> bool:
    """Whether a failure's ``reason`` says the file changed since the scan."""
    return RESCAN_FIRST in reason


@dataclass(frozen=True)
class Transfer:
    """How one file reached the destination."""

    how: str  # "copied" or "linked"
    sha256: str
    size: int
    note: str = ""
    #: the modification time the file in DEST has (a copy gets the source's): a rerun
    #: copies again a file whose time differs (a copy edited in place keeps its size)
    mtime_ns: int | None = None


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


def resolve_source(source: str, roots: Iterable[str] | None = None) -> tuple[str, os.stat_result]:
    """The path to read for ``source`` and its ``lstat``: a regular file, never a link.

    When ``source`` or one of its folders is a symbolic link, it is followed only if
    ``roots`` are given and its real path lies inside the real path of one of them: the
    rule by which the walk follows links (``walk(follow_symlinks=True)`` stores a file
    reached through a link under the link's path). A link a scan did not follow has no
    document record to export (see :mod:`.scan_records`); a file replaced by a link after
    the scan is refused when the link leads outside the scanned folders. Without
    ``roots`` a source that is itself a link is refused.

    Raises:
        FileProblem: the source is missing, not a regular file, or a refused link.
    """
    try:
        st = os.lstat(source)
    except OSError as exc:
        raise FileProblem(f"cannot read the source: {exc.strerror or exc}") from None
    path = os.path.abspath(source)
    real = os.path.realpath(path)
    if roots is None:
        if stat.S_ISLNK(st.st_mode):
            raise FileProblem("the source is now a symbolic link; it is not followed")
    elif real != path:
        if not any(path_inside(real, os.path.realpath(r)) for r in roots):
            raise FileProblem("the source is now reached through a symbolic link that leads outside "
                              "the scanned folders; it is not followed")
        try:
            st = os.lstat(real)
        except OSError as exc:
            raise FileProblem(f"cannot read the source: {exc.strerror or exc}") from None
        path = real
    if not stat.S_ISREG(st.st_mode):
        raise FileProblem("the source is no longer a regular file")
    return path, st


def _open_source(path: str, st: os.stat_result) -> int:
    """A read-only descriptor of ``path``, which must still be the file ``st`` describes."""
    fd = os.open(path, _READ_FLAGS)
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise FileProblem("the source was replaced during the export")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _remove(path: str, guard) -> None:
    """Remove one of our own files in the destination, if it is there."""
    guard.check(path)
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def transfer_file(source: str, target: str, expected: str | None, scanned_mtime_ns: int,
                  *, mode: str, guard, cancel=None, keep_writable: bool = False,
                  roots: Iterable[str] | None = None) -> Transfer:
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
    source, st = resolve_source(source, roots)
    if expected is None and st.st_mtime_ns != scanned_mtime_ns:
        raise FileProblem(f"changed since the scan (modification time differs); {RESCAN_FIRST}")
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
                linked = os.lstat(target)
                if (linked.st_dev, linked.st_ino) != (st.st_dev, st.st_ino):
                    _remove(target, guard)
                    raise FileProblem("the source was replaced during the export")
                try:
                    digest, size = sha256_file(target, cancel)
                except BaseException:
                    _remove(target, guard)  # unlinks our name only; the original keeps its own
                    raise
                if expected is not None and digest != expected:
                    _remove(target, guard)
                    raise FileProblem(_HASH_DIFFERS)
                return Transfer("linked", digest, size, mtime_ns=linked.st_mtime_ns)
    return _copy(source, target, expected, st, guard, cancel, note)


def _copy(source, target, expected, st, guard, cancel, note) -> Transfer:
    """Copy through a temporary file next to the target, verify, then rename into place."""
    part = os.path.join(os.path.dirname(target),
                        ".ndd-part-" + hashlib.sha1(target.encode("utf-8", "surrogateescape")).hexdigest()[:16])
    _remove(part, guard)
    src_hash = hashlib.sha256()
    try:
        with os.fdopen(_open_source(source, st), "rb") as src, open(guard.check(part), "xb") as out:
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
            after = os.fstat(src.fileno())
        src_digest = src_hash.hexdigest()
        if expected is not None and src_digest != expected:
            raise FileProblem(_HASH_DIFFERS)
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
        if exc.errno == errno.ENOSPC:  # the destination is full: every further copy fails alike
            raise
        raise FileProblem(f"cannot copy: {exc.strerror or exc}") from None
    except BaseException:
        _remove(part, guard)
        raise
    return Transfer("copied", copy_digest, size, note, mtime_ns=st.st_mtime_ns)
