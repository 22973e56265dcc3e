"""The files an export leaves out, looked at again when it runs.

``left_out.csv`` is what a deletion or appraisal workflow acts on: every row says "this
original is a duplicate of something exported". That holds only for the text the scan
read. A left-out file that got new text after the scan (or vanished) would be called a
duplicate on the strength of its old text, and its new text would be in no exported file.
So every file that carries only left-out documents is ``lstat``-ed at export time, as the
files that are copied are: its size (when the store has a document of the whole file) and
its modification time must still be the scan's. A container member is checked through its
container file. A file that changed or vanished is a failure of the export, named in the
output and the reports: rescan first.

Left-out members of a container that is exported are not checked here: the copy of the
container checks it already.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .copy import FileProblem, resolve_source

#: The beginning of every failure of a left-out file, as the reports and ``ndd`` show it.
LEFT_OUT_CHANGED = "left out as a duplicate, but"


@dataclass(frozen=True)
class LeftOutSource:
    """A file on disk that carries only documents the export leaves out."""

    source: str  # absolute path (the container file for members)
    path: str  # as the reports name the file: "<root-name>/<relpath>"
    size: int | None  # None: the store has no document of the whole file (a ZIP's members)
    scanned_mtime_ns: int
    doc_ids: tuple[int, ...]


def left_out_sources(by_id: dict, left_out: Iterable[int], carried: Iterable[int], skip: Iterable[int],
                     display) -> list[LeftOutSource]:
    """The files to check: those of the ``left_out`` documents (store ``DocumentInfo``s in
    ``by_id``) that no exported file carries (``carried``: ids with a target) and that are
    files at all (``skip``: the scan's records of entries it never read, unsafe paths).
    ``display(doc)`` names a document as the reports do."""
    carried, skip = set(carried), set(skip)
    by_file: dict[str, list] = {}
    for i in sorted(left_out):
        d = by_id.get(i)
        if d is None or i in carried or i in skip:
            continue
        by_file.setdefault(d.abspath, []).append(d)
    out = []
    for source, docs in sorted(by_file.items()):
        own = next((d for d in docs if d.container is None), None)
        shown = display(own) if own is not None else display(docs[0]).split("!", 1)[0]
        out.append(LeftOutSource(source, shown, own.size if own is not None else None,
                                 max(d.mtime_ns for d in docs), tuple(d.id for d in docs)))
    return out


def check_left_out_sources(sources: list[LeftOutSource], roots: Iterable[str] | None,
                           cancel_check=lambda: None) -> dict[LeftOutSource, str]:
    """The files of ``sources`` that changed or vanished since the scan, with the reason.

    Only ``lstat`` is used (through :func:`~.copy.resolve_source`, which follows a link
    only as the walk did): nothing is opened. ``cancel_check`` is called between files.
    """
    problems: dict[LeftOutSource, str] = {}
    roots = list(roots) if roots is not None else None
    for s in sources:
        cancel_check()
        try:
            _path, st = resolve_source(s.source, roots)
        except FileProblem as exc:
            problems[s] = f"{LEFT_OUT_CHANGED} its file changed or vanished since the scan ({exc}): rescan first"
            continue
        if s.size is not None and st.st_size != s.size:
            problems[s] = f"{LEFT_OUT_CHANGED} changed since the scan (size differs): rescan first"
        elif st.st_mtime_ns != s.scanned_mtime_ns:
            problems[s] = (f"{LEFT_OUT_CHANGED} changed since the scan (modification time differs): "
                           "rescan first")
    return problems
