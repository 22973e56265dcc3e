"""Where things go in the destination, and the guard that keeps every write inside it.

Layout: ``DEST/<root-name>/<relpath>`` per source root (``DEST/data/...`` in a bag), the
reports in ``DEST/_ndd_reports/``, the resume journal in ``DEST/.ndd-export.jsonl``.
"""

from __future__ import annotations

import os
import posixpath
import re

from .errors import DestinationRefused, ExportError

#: Folder of the reports (a tag directory in a bag).
REPORTS_DIR = "_ndd_reports"
#: The resume journal (a tag file in a bag).
JOURNAL_NAME = ".ndd-export.jsonl"
#: Names a root folder may not take in the destination.
RESERVED_NAMES = frozenset({REPORTS_DIR, JOURNAL_NAME, "data", "bagit.txt", "bag-info.txt"})


def root_names(roots: list[str]) -> dict[str, str]:
    """Give each root folder a unique folder name in the destination.

    The name is the root's base name; roots sharing one (compared without case, for
    case-insensitive destinations) become ``name``, ``name-2``, ``name-3`` in the order
    given (the collection's root order), so the naming is stable from one run to the next.
    """
    names: dict[str, str] = {}
    taken = {n.casefold() for n in RESERVED_NAMES}
    for root in roots:
        if root in names:
            continue
        base = os.path.basename(os.path.normpath(root)) or "root"
        if base in (".", ".."):
            base = "root"
        name, n = base, 1
        while name.casefold() in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name.casefold())
        names[root] = name
    return names


def safe_relpath(relpath: str) -> str | None:
    """The store's POSIX relpath if it stays inside its root when joined, else None."""
    if not relpath or "\x00" in relpath or relpath.startswith("/"):
        return None
    if os.name == "nt" and ("\\" in relpath or ":" in relpath):
        return None
    parts = relpath.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return None
    return posixpath.join(*parts)


_BAGIT_DECODED = re.compile(r"%0[AaDd]")


def bag_safe_relpath(relpath: str) -> str:
    """A payload path bagit can write and read back exactly.

    BagIt manifests are UTF-8 and bagit.py turns ``%0A``/``%0D`` in a manifest line back
    into line breaks, so in a bag a byte that is not valid UTF-8 (a lone surrogate from
    ``os.fsdecode``) is written as ``%XX`` and a literal ``%0A``/``%0D`` as ``%250A``/``%250D``.
    The reports give the name the file has in the bag.
    """
    out = _BAGIT_DECODED.sub(lambda m: "%25" + m.group(0)[1:], relpath)
    return "".join(f"%{ord(c) - 0xDC00:02X}" if 0xDC80 <= ord(c) <= 0xDCFF else c for c in out)


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(os.path.abspath(path)))


def is_within(path: str, folder: str) -> bool:
    """True when ``path`` is ``folder`` or lies below it (after resolving links)."""
    return _within_real(_real(path), _real(folder))


def _within_real(p: str, f: str) -> bool:
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def check_destination(dest: str, roots: list[str]) -> None:
    """Refuse a destination inside a source folder, holding a source, or not a folder.

    Whether it is empty (or a resumable export) is the journal's business.
    """
    for root in roots:
        if is_within(dest, root):
            raise DestinationRefused(f"the destination {dest!r} lies inside the source folder {root!r}")
        if is_within(root, dest):
            raise DestinationRefused(f"the source folder {root!r} lies inside the destination {dest!r}")
    if os.path.lexists(dest) and not os.path.isdir(dest):
        raise DestinationRefused(f"the destination {dest!r} exists and is not a folder")


class WriteGuard:
    """Checks each path the export writes, renames or removes: inside DEST, in no source.

    Every mutating call of the export goes through :meth:`check`, so a bug in path
    handling raises instead of touching an original.
    """

    def __init__(self, dest: str, roots: list[str]):
        self.dest = os.path.abspath(dest)
        self._real_dest = _real(dest)
        self._real_roots = [_real(r) for r in roots]

    def check(self, path: str) -> str:
        """Return ``path`` if the export may write it; raise ExportError otherwise."""
        real = _real(path)
        if not _within_real(real, self._real_dest):
            raise ExportError(f"refusing to write outside the destination: {path!r}")
        if any(_within_real(real, root) for root in self._real_roots):
            raise ExportError(f"refusing to write inside a source folder: {path!r}")
        return path
