"""The incremental plan: compare what the walk found with what the store remembers.

A file whose size and modification time match the store costs nothing more, unless its
last reading failed for a reason of the moment (``ingest.reasons.RETRIED_REASONS``: a
timeout, a crashed worker, a permission since fixed), which is tried again. A file of
the same size with another modification time is "in doubt": its bytes are hashed and,
if the hash matches, only the new time is recorded. Everything else is extracted. Files
the store knows but the walk did not find are missing: their documents become the pool
that a new file with the same content hash is matched against (a move), and what is left
of them is removed once extraction is complete. Files named in ``reread`` (their documents
were read with other options, ``pipeline.reading``) are extracted even when unchanged.

The walk is summed up in one digest (:func:`listing_of`). A finished scan whose file
records match its walk keeps that digest in the collection (``store.scans.keep_listing``)
until a file record, a document or a root changes; a later walk with the same digest is
then planned as unchanged without reading a record (an unchanged rescan's plan costs the
digest, not a pass over every file row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import xxhash

from ..ingest.document import ExtractedDocument
from ..ingest.reasons import RETRIED_REASONS, UNREADABLE_FOLDER
from ..ingest.walked import WalkedFiles, WalkedSubset
from ..store import KnownFile, Listing, Scans

_READ_CHUNK = 1 << 20


@dataclass
class ScanPlan:
    """What the extract stage has to do."""

    #: the files to read, in the walk's order (made into FileEntry one at a time as they
    #: are handed out: ``ingest.walked.WalkedSubset``)
    to_extract: WalkedSubset = field(default_factory=lambda: WalkedFiles().subset(()))
    #: every file walked (none in a plan from the kept listing, which reads nothing)
    walked: WalkedFiles = field(default_factory=WalkedFiles)
    walk_errors: list[ExtractedDocument] = field(default_factory=list)
    unchanged_files: int = 0
    touched: list[tuple[int, int, int]] = field(default_factory=list)  # (file id, size, mtime_ns)
    missing_file_ids: list[int] = field(default_factory=list)
    move_pool: dict[str, list[int]] = field(default_factory=dict)  # xxh128 -> doc ids of missing files
    new_files: int = 0
    changed_files: int = 0
    #: The reading options changed: extracted documents whose content is the same may still
    #: have another text (the extract stage compares it with the stored one).
    reading_changed: bool = False
    reread_files: int = 0  # unchanged files read again for the new reading options
    #: files the collection recorded before the scan (0: no document to match; None: unknown)
    recorded_files: int | None = None
    #: the walk summed up (:func:`listing_of`)
    listing: Listing | None = None
    #: planned from the kept listing: every file as recorded, no record read
    as_recorded: bool = False

    @property
    def files_walked(self) -> int:
        """How many files the walk found (0 in a plan from the kept listing)."""
        return len(self.walked)

    def walked_file(self, root: str, relpath: str) -> tuple[int, int] | None:
        """(size, modification time) of the file the walk found at ``root``/``relpath``;
        None when it found none there."""
        k = self.walked.index_of(root, relpath)
        return None if k is None else (self.walked.sizes[k], self.walked.mtimes[k])


def listing_of(walked: WalkedFiles, problems: Sequence[ExtractedDocument] = ()) -> Listing:
    """The walk in one digest: each root with its files' relative paths, sizes and
    modification times, in the walk's order, then what it could not use (a link not
    followed, a FIFO, an unreadable folder: each is recorded as a document with a file row
    of its own); with the count and sums the file records are checked against before the
    digest is kept."""
    parts: list[str] = []
    for root, start, end in walked.runs():  # an empty field marks a root (no relative path is empty)
        parts += ("", root)
        parts += walked.relpaths[start:end]
    sizes = np.array(walked.sizes, dtype=np.int64)
    mtimes = np.array(walked.mtimes, dtype=np.int64)
    met = "\0".join(f"{p.root}\0{p.container or p.relpath}\0{p.relpath}\0{p.status}\0{p.reason}" for p in problems)
    h = xxhash.xxh3_128()
    for part in ("\0".join(parts).encode("utf-8", "surrogatepass"), sizes.tobytes(), mtimes.tobytes(),
                 met.encode("utf-8", "surrogatepass")):
        h.update(len(part).to_bytes(8, "little"))  # each part's length first: no two walks read alike
        h.update(part)
    # the problems' file rows (``_doc_write``: a walk problem is its own file, of its size and time)
    rows = {(p.root, p.container or p.relpath): (p.size, p.mtime_ns) for p in problems}
    return Listing(h.hexdigest(), len(walked) + len(rows), int(sizes.sum()) + sum(z for z, _ in rows.values()),
                   int((mtimes & 0xFFFFFFFF).sum()) + sum(t & 0xFFFFFFFF for _, t in rows.values()))


def file_xxh128(path: str) -> str | None:
    """xxh3-128 hex of a file's bytes (as ingest computes it), None if it cannot be read."""
    h = xxhash.xxh3_128()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(_READ_CHUNK):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def make_plan(
    scans: Scans,
    walked: WalkedFiles,
    walk_errors: list[ExtractedDocument],
    reread: set[tuple[str, str]] | None = None,
) -> ScanPlan:
    """Sort the walked files into unchanged, in doubt (hashed), changed and new.

    ``reread``: None when the reading options are those the documents were read with;
    otherwise the files (root, relative path) to read again even when unchanged.
    """
    listing = listing_of(walked, walk_errors)
    if reread is None and scans.recorded_listing() == listing.digest:
        # the files and the problems of the walk are those recorded, with their documents:
        # nothing to read (no FileEntry made), and the problems' documents are not written again
        return ScanPlan(recorded_files=listing.files, listing=listing, as_recorded=True, unchanged_files=len(walked))
    known: dict[tuple[str, str], KnownFile] = scans.known_files(RETRIED_REASONS)
    plan = ScanPlan(walked=walked, walk_errors=walk_errors, reading_changed=reread is not None,
                    recorded_files=len(known), listing=listing)
    if not known:  # nothing recorded: every file is new, no pass over them
        plan.to_extract, plan.new_files = walked.subset(range(len(walked))), len(walked)
        return plan
    # a pass per walked file, over the walk's columns: the names it uses are local, the
    # counts summed at the end
    lookup, touched = known.get, plan.touched
    relpaths, sizes, mtimes = walked.relpaths, walked.sizes, walked.mtimes
    at: list[int] = []
    new = unchanged = changed = read_again = 0
    for root, start, end in walked.runs():
        for k in range(start, end):
            key = (root, relpaths[k])
            kf = lookup(key)
            if kf is None:
                new += 1
                at.append(k)
            elif kf.retry:  # failed for a passing reason (a timeout, a permission): read again
                at.append(k)
            elif reread and key in reread:  # read with other options: its text may differ
                read_again += 1
                at.append(k)
            elif kf.size == sizes[k] and kf.mtime_ns == mtimes[k]:
                unchanged += 1
            elif kf.size == sizes[k] and kf.xxh128 and file_xxh128(walked.path(k)) == kf.xxh128:
                unchanged += 1
                touched.append((kf.file_id, sizes[k], mtimes[k]))
            else:
                changed += 1
                at.append(k)
    plan.to_extract = walked.subset(at)
    plan.new_files, plan.unchanged_files, plan.changed_files, plan.reread_files = new, unchanged, changed, read_again
    if len(walked) - new == len(known):  # every recorded file was walked (the keys are distinct): none missing
        return plan
    failed = {(d.root, d.container or d.relpath) for d in walk_errors}
    # a folder the walk could not list (a permission, a network share that failed) says
    # nothing of the files in it: they are kept as they are, not removed with their pairs
    # and decisions (they came back as new documents once the folder could be read again)
    hidden = [(d.root, d.relpath + "/") for d in walk_errors if (d.reason or "").startswith(UNREADABLE_FOLDER)]
    plan.missing_file_ids = [kf.file_id for key, kf in known.items()
                             if key not in failed and walked.index_of(*key) is None
                             and not any(key[0] == root and key[1].startswith(inside) for root, inside in hidden)]
    for doc in scans.documents_of_files(plan.missing_file_ids):
        if doc.status == "ok" and doc.xxh128:
            plan.move_pool.setdefault(doc.xxh128, []).append(doc.doc_id)
    return plan
