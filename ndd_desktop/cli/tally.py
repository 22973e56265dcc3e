"""The files a scan could not use, counted by reason, for ``ndd scan`` and ``ndd errors``.

A few failures are listed one per line as before; more are summed up by reason
(``ingest.tally``), with the command that gives the full list.
"""

from __future__ import annotations

from typing import IO, Iterable

from ..ingest.tally import advice_for, group_reasons
from .output import one_line

#: Up to this many failed files, the scan summary lists each of them.
LIST_UP_TO = 10


def write_failures(failed: list, out: IO[str], db: str) -> None:
    """The scan's failed documents: one line each when few, else grouped by reason."""
    if len(failed) <= LIST_UP_TO:
        advice = dict.fromkeys(a for a in (advice_for(d.reason) for d in failed) if a)
        for doc in failed:
            # a scanned folder itself (a link to another root) has no relative path: its own
            where = doc.relpath or getattr(doc, "root", "") or "(a scanned folder)"
            out.write(f"{doc.status}: {one_line(where)}: {one_line(doc.reason)}\n")
        for text in advice:  # once per kind of failure, after the files
            out.write(f"what to do: {text}\n")
        return
    out.write(f"{len(failed):,} files skipped or failed in this scan, by reason:\n")
    write_groups(((d.status, d.reason, d.relpath) for d in failed), out)
    out.write(f"full list: ndd errors --db {one_line(db)} --all\n")


def write_groups(items: Iterable[tuple[str, str, str]], out: IO[str]) -> int:
    """One line per reason group (largest first); returns the number of files."""
    groups = group_reasons(items)
    width = len(f"{max((g.count for g in groups), default=0):,}")
    for g in groups:
        out.write(f"  {g.count:>{width},} {one_line(g.describe())}\n")
        if g.advice:
            out.write(f"  {'':>{width}} what to do: {g.advice}\n")
    return sum(g.count for g in groups)
