"""``WalkedFiles``: the regular files a walk found, as columns instead of one object each.

A rescan's walk of a million files made a million :class:`FileEntry` objects (and a full
path string for each) before it could tell that nothing had changed. Its columns are the
root of each run of files, then each file's relative path, size and modification time; a
file's full path is its root joined with its relative path, except for a file reached
through a followed link, whose real path is kept apart. A plan keeps the files it has to
read as their indices (:class:`WalkedSubset`), which make each file's FileEntry only as
the file is handed to a reader: a first scan of a million files holds no million objects
(nor a million full paths) for the garbage collector to walk.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter

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
        #: (files when it was made, root -> relative path -> index): see :meth:`index_of`
        self._index: tuple[int, dict[str, dict[str, int]]] | None = None

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

    def root_of(self, k: int) -> str:
        """The root of the file at index ``k``."""
        return self.roots[bisect.bisect_right(self.roots, k, key=itemgetter(0)) - 1][1]

    def path(self, k: int) -> str:
        """The full path of the file at index ``k``."""
        if k in self.elsewhere:
            return self.elsewhere[k]
        return _full(_under(self.root_of(k)), self.relpaths[k])

    def entry(self, k: int) -> FileEntry:
        """The file at index ``k`` as a FileEntry."""
        return next(iter(self.subset((k,))))

    def index_of(self, root: str, relpath: str) -> int | None:
        """The index of the file ``relpath`` of ``root``; None when the walk did not find it.
        The lookup is made on first use (a dictionary of relative paths, no object per file)
        and again when files were added since."""
        if self._index is None or self._index[0] != len(self.relpaths):
            index: dict[str, dict[str, int]] = {}
            for run_root, start, end in self.runs():
                index.setdefault(run_root, {}).update(zip(self.relpaths[start:end], range(start, end)))
            self._index = (len(self.relpaths), index)
        by_path = self._index[1].get(root)
        return None if by_path is None else by_path.get(relpath)

    def entries(self) -> list[FileEntry]:
        """The files as FileEntry objects, in order."""
        return list(self.subset(range(len(self))))

    def take(self) -> list[FileEntry]:
        """:meth:`entries`, then forget them (the current root stays for the next files).
        The columns are emptied in place: a walk appends to them through bound methods."""
        taken = self.entries()
        del self.roots[:-1], self.relpaths[:], self.sizes[:], self.mtimes[:]
        if self.roots:
            self.roots[0] = (0, self.roots[0][1])
        self.elsewhere.clear()
        self._index = None
        return taken

    def subset(self, at: Sequence[int]) -> "WalkedSubset":
        """The files at the indices ``at`` (in that order), as a sequence of FileEntry."""
        return WalkedSubset(self, at)

    def without(self, drop: set[int]) -> "WalkedFiles":
        """The same files less those at the indices ``drop``."""
        return WalkedFiles.of(e for k, e in enumerate(self.entries()) if k not in drop)


class WalkedSubset(Sequence[FileEntry]):
    """Some files of a walk, by index: a sequence of FileEntry made one at a time as they
    are read (see the module docstring)."""

    __slots__ = ("_at", "_walked")

    def __init__(self, walked: WalkedFiles, at: Sequence[int]) -> None:
        self._walked = walked
        self._at = at

    def __len__(self) -> int:
        return len(self._at)

    def __getitem__(self, k):  # type: ignore[override]  # int -> FileEntry, slice -> WalkedSubset
        if isinstance(k, slice):
            return WalkedSubset(self._walked, self._at[k])
        return self._walked.entry(int(self._at[k]))

    def __iter__(self) -> Iterator[FileEntry]:
        walked = self._walked
        relpaths, sizes, mtimes, elsewhere = walked.relpaths, walked.sizes, walked.mtimes, walked.elsewhere
        runs = walked.runs()
        start = end = 0
        root = under = ""
        for k in self._at:
            k = int(k)
            if not start <= k < end:  # another root's run (a plan's indices rise: rarely)
                root, start, end = runs[bisect.bisect_right(runs, k, key=itemgetter(1)) - 1]
                under = _under(root)
            rel = relpaths[k]
            yield FileEntry(root, rel, elsewhere.get(k) or _full(under, rel), sizes[k], mtimes[k])

    def relpaths(self) -> Iterator[str]:
        """The files' relative paths, without making their entries."""
        rel = self._walked.relpaths
        return (rel[int(k)] for k in self._at)
