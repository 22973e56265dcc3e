"""``WalkedFiles``: the regular files a walk found, as columns instead of one object each.

A rescan's walk of a million files made a million :class:`FileEntry` objects (and a full
path string for each) before it could tell that nothing had changed. Its columns are the
root of each run of files, then each file's relative path, size and modification time; a
file's full path is its root joined with its relative path, except for a file reached
through a followed link, whose real path is kept apart. :meth:`WalkedFiles.entries` makes
the FileEntry objects when a plan needs them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from ndd_desktop.ingest.document import FileEntry


def _under(root: str) -> str:
    """What a relative path is appended to for its full path: ``root`` and one separator."""
    return os.path.join(root, "")


def _full(under: str, rel: str) -> str:
    """The full path of ``rel`` under ``under`` (:func:`_under`), with the system's separators."""
    return under + (rel if os.sep == "/" else rel.replace("/", os.sep))


class WalkedFiles:
    """Regular files in the walk's order (see the module docstring)."""

    def __init__(self) -> None:
        #: (index of its first file, root path) of each run of files of one root
        self.roots: list[tuple[int, str]] = []
        self.relpaths: list[str] = []  # POSIX, relative to the root
        self.sizes: list[int] = []
        self.mtimes: list[int] = []
        #: index -> full path of a file that does not lie at its root joined with its path
        self.elsewhere: dict[int, str] = {}

    @classmethod
    def of(cls, entries: Iterable[FileEntry]) -> "WalkedFiles":
        """The columns of ``entries``."""
        out = cls()
        for e in entries:
            out.add(e)
        return out

    def __len__(self) -> int:
        return len(self.relpaths)

    def start_root(self, root: str) -> None:
        """The files added next belong to ``root``."""
        if not self.roots or self.roots[-1][1] != root:
            self.roots.append((len(self.relpaths), root))

    def add(self, entry: FileEntry) -> None:
        """Add one file (the walk's loop appends plain files to the columns itself)."""
        self.start_root(entry.root)
        if entry.abspath != _full(_under(entry.root), entry.relpath):
            self.elsewhere[len(self.relpaths)] = entry.abspath
        self.relpaths.append(entry.relpath)
        self.sizes.append(entry.size)
        self.mtimes.append(entry.mtime_ns)

    def runs(self) -> list[tuple[str, int, int]]:
        """(root, first index, end index) of each run of files of one root."""
        ends = [start for start, _ in self.roots[1:]] + [len(self.relpaths)]
        return [(root, start, end) for (start, root), end in zip(self.roots, ends)]

    def path(self, k: int) -> str:
        """The full path of the file at index ``k``."""
        if k in self.elsewhere:
            return self.elsewhere[k]
        root = next(root for start, root in reversed(self.roots) if start <= k)
        return _full(_under(root), self.relpaths[k])

    def entries(self) -> list[FileEntry]:
        """The files as FileEntry objects, in order."""
        out = []
        for root, start, end in self.runs():
            under = _under(root)
            for k in range(start, end):
                rel = self.relpaths[k]
                path = self.elsewhere.get(k) or _full(under, rel)
                out.append(FileEntry(root, rel, path, self.sizes[k], self.mtimes[k]))
        return out

    def take(self) -> list[FileEntry]:
        """:meth:`entries`, then forget them (the current root stays for the next files).
        The columns are emptied in place: a walk appends to them through bound methods."""
        taken = self.entries()
        del self.roots[:-1], self.relpaths[:], self.sizes[:], self.mtimes[:]
        if self.roots:
            self.roots[0] = (0, self.roots[0][1])
        self.elsewhere.clear()
        return taken

    def without(self, drop: set[int]) -> "WalkedFiles":
        """The same files less those at the indices ``drop``."""
        return WalkedFiles.of(e for k, e in enumerate(self.entries()) if k not in drop)
