"""Walking the chosen roots: deterministic, bounded, and never out of the roots.

- ``os.scandir`` based; entries sorted by their bytes, files of a folder before its
  subfolders, so two walks of the same tree give the same order.
- Symbolic links are not followed by default (each is reported as skipped). With
  ``follow_symlinks=True`` a link is followed only when its target lies inside one of
  the roots, and every folder is entered at most once (by ``(st_dev, st_ino)``), so
  link loops and aliases end at once.
- FIFOs, sockets and devices are reported and never opened.
- Names that are not valid UTF-8 keep their bytes via surrogateescape (see
  :mod:`ndd_desktop.ingest.document`); names with newlines pass through unchanged.
"""

from __future__ import annotations

import operator
import os
import stat
from collections.abc import Callable, Iterable, Iterator

from ndd_desktop.ingest import reasons as R
from ndd_desktop.ingest.document import (
    STATUS_ERROR, STATUS_SKIPPED, ExtractedDocument, FileEntry, problem,
)
from ndd_desktop.ingest.walked import WalkedFiles

OnError = Callable[[ExtractedDocument], None]


def walk(
    roots: Iterable[str | os.PathLike],
    *,
    follow_symlinks: bool = False,
    on_error: OnError | None = None,
) -> Iterator[FileEntry]:
    """Regular files under ``roots`` (folders, recursively, or single files).

    Anything that is not yielded for a reason (unreadable folder, symbolic link, FIFO,
    missing root, file vanished) is passed to ``on_error`` as an ExtractedDocument with
    status "error" or "skipped" and a reason.
    """
    out = WalkedFiles()
    for _ in _walking(roots, follow_symlinks, on_error, out):
        yield from out.take()


def walk_files(
    roots: Iterable[str | os.PathLike],
    *,
    follow_symlinks: bool = False,
    on_error: OnError | None = None,
    on_folder: Callable[[WalkedFiles], None] | None = None,
) -> WalkedFiles:
    """:func:`walk`'s files as columns (no object per file: a rescan's walk); ``on_folder``
    is called with what was found so far after each folder (progress, a cancel)."""
    out = WalkedFiles()
    for _ in _walking(roots, follow_symlinks, on_error, out):
        if on_folder is not None:
            on_folder(out)
    return out


def _walking(roots, follow_symlinks: bool, on_error: OnError | None, out: WalkedFiles) -> Iterator[None]:
    """Walk ``roots`` into ``out``, yielding after each folder and each single-file root."""
    roots = [os.path.abspath(os.fspath(r)) for r in roots]
    real_roots = [os.path.realpath(r) for r in roots]
    visited: set[tuple[int, int]] = set()

    def report(root: str, relpath: str, status: str, reason: str) -> None:
        if on_error is not None:
            on_error(problem(None, status, reason, root=root, relpath=relpath))

    for root in roots:
        try:
            st = os.stat(root)
        except FileNotFoundError:
            report(root, "", STATUS_ERROR, R.ROOT_NOT_FOUND)
            continue
        except OSError as exc:
            report(root, "", STATUS_ERROR, f"{R.ROOT_UNREADABLE} {exc.strerror or exc}")
            continue
        if stat.S_ISREG(st.st_mode):
            parent, name = os.path.split(root)
            out.add(FileEntry(parent, name, root, st.st_size, st.st_mtime_ns))
            yield None
        elif stat.S_ISDIR(st.st_mode):
            yield from _walk_dir(root, real_roots, follow_symlinks, visited, report, out)
        else:
            report(root, "", STATUS_SKIPPED, f"{R.NOT_REGULAR} or folder")


def _walk_dir(root, real_roots, follow, visited, report, out: WalkedFiles) -> Iterator[None]:
    """The folders of ``root``'s tree into ``out``, one at a time (yielding after each)."""
    st = os.stat(root)
    if (st.st_dev, st.st_ino) in visited:
        report(root, "", STATUS_SKIPPED, R.FOLDER_OTHER_ROOT)
        return
    out.start_root(root)
    # the plain files go straight into the columns (no object per file)
    add_rel, add_size, add_mtime = out.relpaths.append, out.sizes.append, out.mtimes.append
    # Folders reached through a symbolic link wait until the real tree is done, so a
    # folder is listed under its real path and the link is the one reported as an alias.
    stack: list[tuple[str, str, tuple[int, int]]] = [(root, "", (st.st_dev, st.st_ino))]
    linked: list[tuple[str, str, tuple[int, int]]] = []
    while stack or linked:
        folder, prefix, key = stack.pop() if stack else linked.pop(0)
        if key in visited:
            report(root, prefix, STATUS_SKIPPED, R.FOLDER_VISITED)
            continue
        visited.add(key)
        try:
            fd, entries = _listing(folder)
        except OSError as exc:
            report(root, prefix, STATUS_ERROR, _failure(exc, R.FOLDER_VANISHED, R.UNREADABLE_FOLDER))
            continue
        subfolders = []
        pre = f"{prefix}/" if prefix else ""
        base = os.path.join(folder, "")  # the folder with one separator at its end
        try:
            if fd is not None and _plain_files_at_once(fd, entries, pre, out):
                entries = ()  # every entry a plain file, in the columns already
            for entry in entries:
                name = entry.name
                rel = pre + name
                try:
                    # most entries are plain files: found here, without _classify's call (the
                    # entry keeps its stat, so a folder is not asked twice)
                    if not entry.is_symlink():
                        st = entry.stat(follow_symlinks=False)
                        if stat.S_ISREG(st.st_mode):
                            add_rel(rel)
                            add_size(st.st_size)
                            add_mtime(st.st_mtime_ns)
                            continue
                    found = _classify(entry, base + name, rel, root, real_roots, follow, report)
                except OSError as exc:
                    report(root, rel, STATUS_ERROR, _failure(exc, R.VANISHED, R.UNREADABLE))
                    continue
                if isinstance(found, FileEntry):  # reached through a link: its own path
                    out.add(found)
                elif found is not None:
                    path, sub_key, is_link = found
                    (linked if is_link else subfolders).append((path, rel, sub_key))
        finally:
            if fd is not None:
                os.close(fd)
        stack.extend(reversed(subfolders))
        yield None


#: The file-kind bits of a mode, and those of a plain file.
_KIND, _REGULAR = 0o170000, stat.S_IFREG


def _plain_files_at_once(fd: int, entries: list, pre: str, out: WalkedFiles) -> bool:
    """When every entry of the folder open as ``fd`` is a plain file (most folders of an
    archive's files), put them all into ``out``'s columns at once and say so; otherwise
    leave them to the walk's own loop, entry by entry. The entries are asked by the C
    loop of ``core.native`` (the same stat call as ``DirEntry.stat``, without a Python
    object per entry: 20,000 files in 10-13 ms against 18 with the objects); without it
    (not built, Windows) the loop asks them."""
    from ndd_desktop.core import native

    names = [e.name for e in entries]
    asked = native.stat_names(fd, names) if names else None
    if asked is None:
        return False
    modes, sizes, mtimes, _ = asked
    if not all(m & _KIND == _REGULAR for m in modes):  # (a failed stat has the mode 0)
        return False
    out.relpaths.extend([pre + name for name in names])
    out.sizes.extend(sizes)
    out.mtimes.extend(mtimes)
    return True


def _failure(exc: OSError, vanished: str, unreadable: str) -> str:
    """The reason a folder or entry could not be asked: ``vanished`` when it is gone, else
    ``unreadable`` with the system's words."""
    if isinstance(exc, FileNotFoundError):
        return vanished
    return f"{unreadable} {exc.strerror or exc}"


#: Whether a folder can be listed through its descriptor: each entry's stat then names the
#: entry alone, not its whole path, which the system looks up component by component (a
#: tenth of a rescan's walk). Windows lists by path.
_BY_DESCRIPTOR = os.scandir in os.supports_fd and hasattr(os, "O_DIRECTORY")


def _listing(folder: str) -> tuple[int | None, list]:
    """(the open descriptor the entries stat through, or None; the entries of ``folder`` in
    the order of their names' bytes). The caller closes the descriptor once it has asked
    every entry: a descriptor closed earlier could be reused by another open, and an entry
    would then stat in the wrong folder."""
    if not _BY_DESCRIPTOR:
        with os.scandir(folder) as it:
            return None, _in_byte_order(it)
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with os.scandir(fd) as it:
            return fd, _in_byte_order(it)
    except BaseException:
        os.close(fd)
        raise


def _in_byte_order(entries) -> list:
    """Folder entries in the order of their names' bytes (the same on every platform)."""
    entries = list(entries)
    # all names ASCII (one test of them joined): the bytes' order is the characters' order
    if "".join(map(_NAME, entries)).isascii():
        entries.sort(key=_NAME)
    else:
        entries.sort(key=lambda e: os.fsencode(e.name))
    return entries


_NAME = operator.attrgetter("name")


def _classify(entry, path, rel, root, real_roots, follow, report):
    """A FileEntry, (folder path, (dev, ino), via link) to enter, or None (reported);
    ``path``: the entry's full path."""
    is_link = entry.is_symlink()
    if is_link:
        if not follow:
            report(root, rel, STATUS_SKIPPED, R.LINK_NOT_FOLLOWED)
            return None
        target = os.path.realpath(path)
        if not any(path_inside(target, r) for r in real_roots):
            report(root, rel, STATUS_SKIPPED, R.LINK_OUTSIDE)
            return None
        try:
            st = os.stat(target)
        except FileNotFoundError:
            report(root, rel, STATUS_SKIPPED, R.BROKEN_LINK)
            return None
        file_path = target
    else:
        st = entry.stat(follow_symlinks=False)
        file_path = path
    if stat.S_ISDIR(st.st_mode):
        return path, (st.st_dev, st.st_ino), is_link
    if stat.S_ISREG(st.st_mode):
        return FileEntry(root, rel, file_path, st.st_size, st.st_mtime_ns)
    kind = "FIFO" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "device"
    report(root, rel, STATUS_SKIPPED, f"{R.NOT_REGULAR} ({kind})")
    return None


def path_inside(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or lies below it (both absolute, as given)."""
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # different drives on Windows
        return False
