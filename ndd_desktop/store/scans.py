"""``store.scans``: the scan job's side of the store: its runs, the files and documents it
compares against, and its batched writes.

These are for ``ndd_desktop.pipeline`` (the single writer during a scan); the window and
the command line read through ``store.documents``, ``store.pairs`` and ``store.review``
(and ``runs``/``last_method`` here). Each write call is one transaction, so a scan killed
at any moment leaves every earlier batch whole and nothing of the batch in flight; the
SQL of the bulk writes is in :mod:`.scanwrite`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, NamedTuple, Sequence

from . import facts, scanwrite, text_codec
from ._sql import chunks, dec_path, enc_path, placeholders, plain_cursor
from .facts import LISTING
from .scanwrite import DocWrite
from .types import ScanRun

if TYPE_CHECKING:
    from .store import Store


class KnownFile(NamedTuple):
    """A file as the last scan recorded it (a tuple: a rescan makes one per file, and a
    frozen dataclass took three times as long to make)."""

    file_id: int
    root: str
    relpath: str
    size: int
    mtime_ns: int
    xxh128: str | None
    retry: bool = False  # it failed for one of the reasons the scan asked to retry


@dataclass(frozen=True)
class KnownDocument:
    """The parts of a stored document the scan needs to decide what to redo."""

    doc_id: int
    file_id: int
    root: str
    relpath: str
    xxh128: str
    status: str


class Listing(NamedTuple):
    """The files a walk found, as one digest (``pipeline.plan.listing_of``), with the sums
    the files' records are checked against before the digest is kept."""

    digest: str
    files: int
    bytes: int  # sum of the sizes
    mtimes: int  # sum of the modification times' low 32 bits


def _retried(retry_reasons: Sequence[str]) -> tuple[str, tuple]:
    """(SQL condition, its arguments) of a failed document whose reason begins with one of
    ``retry_reasons``: one the next scan reads again."""
    starts = " OR ".join("substr(reason, 1, ?) = ?" for _ in retry_reasons) or "0"
    return f"status = 'error' AND ({starts})", tuple(x for r in retry_reasons for x in (len(r), r))


def _known_doc(r) -> KnownDocument:
    return KnownDocument(r[0], r[1], dec_path(r[2]), dec_path(r[3]), r[4], r[5])


class Scans:
    """Scan runs and the scan's reads and writes of a :class:`~ndd_desktop.store.Store` (``store.scans``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    # -- scan runs ------------------------------------------------------------------------
    def runs(self) -> list[ScanRun]:
        """All scan runs, newest first."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, started, finished, status, method, params, pairs_key, floor, documents, new, "
                "changed, unchanged, removed, errors, pairs, message FROM scan_runs ORDER BY id DESC"
            ).fetchall()
        return [
            ScanRun(
                id=r[0], started=r[1], finished=r[2], status=r[3], method=r[4], params=json.loads(r[5]),
                pairs_key=r[6], floor=r[7], documents=r[8], new=r[9], changed=r[10], unchanged=r[11],
                removed=r[12], errors=r[13], pairs=r[14], message=r[15],
            )
            for r in rows
        ]

    def last_method(self) -> tuple[str, dict] | None:
        """(method name, params dict) of the newest finished scan (else the newest scan)."""
        runs = self.runs()
        if not runs:
            return None
        finished = [r for r in runs if r.status == "finished"]
        run = finished[0] if finished else runs[0]
        return run.method, dict(run.params)

    def begin_run(self, method: str, params: dict, pairs_key: str, floor: float) -> int:
        """Record the start of a scan; earlier runs still marked running become interrupted."""
        with self._db._write() as conn:
            conn.exec_driver_sql("UPDATE scan_runs SET status = 'interrupted' WHERE status = 'running'")
            return conn.exec_driver_sql(
                "INSERT INTO scan_runs (started, status, method, params, pairs_key, floor, documents, new, changed, "
                "unchanged, removed, errors, pairs, message) VALUES (?, 'running', ?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, '') "
                "RETURNING id",
                (time.time(), method, json.dumps(params, sort_keys=True), pairs_key, float(floor)),
            ).scalar_one()

    def end_run(self, run_id: int, status: str, counts: dict[str, int], message: str = "") -> None:
        """Record the end of a scan with its counts (keys as ScanRun's count fields);
        sketches it made that its pair stage did not take are let go."""
        self._db._drop_carried()
        fields = ("documents", "new", "changed", "unchanged", "removed", "errors", "pairs")
        sets = ", ".join(f"{f} = ?" for f in fields)
        with self._db._write() as conn:
            conn.exec_driver_sql(
                f"UPDATE scan_runs SET finished = ?, status = ?, message = ?, {sets} WHERE id = ?",
                (time.time(), status, message, *(int(counts.get(f, 0)) for f in fields), run_id),
            )

    # -- reading the state the scan compares against -------------------------------------
    def root_ids(self) -> dict[str, int]:
        """Root path -> root id."""
        with self._db._read() as conn:
            return {dec_path(p): i for p, i in conn.exec_driver_sql("SELECT path, id FROM roots")}

    def known_files(self, retry_reasons: Sequence[str] = ()) -> dict[tuple[str, str], KnownFile]:
        """Every recorded file, keyed by (root path, relative path); ``retry`` set on those
        with a failed document whose reason begins with one of ``retry_reasons``."""
        # the files to retry in one pass over the failed documents, not a correlated
        # subquery per file (a rescan's plan reads every file row: this is most of it)
        waiting, args = _retried(retry_reasons)
        with self._db._read() as conn:
            retry = {r[0] for r in conn.exec_driver_sql(f"SELECT DISTINCT file_id FROM documents WHERE {waiting}", args)}
            roots = {i: dec_path(p) for i, p in conn.exec_driver_sql("SELECT id, path FROM roots")}
            with plain_cursor(conn) as cur:  # plain tuples: a row per file
                rows = cur.execute("SELECT id, root_id, relpath, size, mtime_ns, xxh128 FROM files").fetchall()
        out = {}
        make = tuple.__new__  # a KnownFile made as the plain tuple it is: two thirds of the time of its __new__
        for file_id, root_id, relpath, size, mtime_ns, xxh in rows:
            root, rel = roots[root_id], relpath if relpath.__class__ is str else dec_path(relpath)
            out[(root, rel)] = make(KnownFile, (file_id, root, rel, size, mtime_ns, xxh, file_id in retry))
        return out

    def recorded_listing(self) -> str | None:
        """The digest of the walk whose files the records still match exactly (kept by
        :meth:`keep_listing`, deleted by any change to a file record, a document or a
        root); None when there is none."""
        return self._db.facts.get(LISTING)

    def keep_listing(self, listing: Listing, retry_reasons: Sequence[str] = ()) -> bool:
        """Keep ``listing`` as the walk the file records match, at the end of a finished
        scan that recorded every file it walked, when no document waits to be read again
        (failed for one of ``retry_reasons``). The file records are checked against the
        listing's count and sums in the same transaction. Whether it was kept."""
        if self._db.read_only:
            return False
        waiting, args = _retried(retry_reasons)
        with self._db._write() as conn:
            recorded = tuple(conn.exec_driver_sql(
                "SELECT count(*), coalesce(sum(size), 0), coalesce(sum(mtime_ns & 4294967295), 0) FROM files").one())
            if recorded != (listing.files, listing.bytes, listing.mtimes):
                return False
            if conn.exec_driver_sql(f"SELECT 1 FROM documents WHERE {waiting} LIMIT 1", args).first() is not None:
                return False
            facts.keep(conn, LISTING, listing.digest)
        return True

    def documents_of_files(self, file_ids: Iterable[int]) -> list[KnownDocument]:
        """The stored documents of the given files."""
        out: list[KnownDocument] = []
        with self._db._read() as conn:
            for part in chunks(list(file_ids)):
                rows = conn.exec_driver_sql(
                    "SELECT d.id, d.file_id, r.path, d.relpath, d.xxh128, d.status FROM documents d "
                    f"JOIN roots r ON r.id = d.root_id WHERE d.file_id IN ({placeholders(len(part))})",
                    tuple(part),
                ).fetchall()
                out.extend(_known_doc(r) for r in rows)
        return out

    def documents_at(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], KnownDocument]:
        """Stored documents at the given (root path, relative path) keys."""
        ids = self.root_ids()
        by_root: dict[int, list[str]] = {}
        for root, rel in keys:
            if root in ids:
                by_root.setdefault(ids[root], []).append(rel)
        out: dict[tuple[str, str], KnownDocument] = {}
        with self._db._read() as conn:
            for root_id, rels in by_root.items():
                for part in chunks(rels):
                    rows = conn.exec_driver_sql(
                        "SELECT d.id, d.file_id, r.path, d.relpath, d.xxh128, d.status FROM documents d "
                        "JOIN roots r ON r.id = d.root_id "
                        f"WHERE d.root_id = ? AND d.relpath IN ({placeholders(len(part))})",
                        (root_id, *(enc_path(p) for p in part)),
                    ).fetchall()
                    for r in rows:
                        kd = _known_doc(r)
                        out[(kd.root, kd.relpath)] = kd
        return out

    # -- writing ------------------------------------------------------------------------
    def write_documents(
        self, docs: Sequence[DocWrite], method: str, sketch_key: str, keep_ids: set[int] | None = None,
        gone: list[int] | None = None,
    ) -> list[int]:
        """Record a batch of extracted documents with their files, texts and sketches, in one
        transaction (see :func:`.scanwrite.write_documents`; ``gone`` receives the ids of the
        documents of these files that the batch no longer holds). Returns the document ids,
        in the order of ``docs``."""
        carry: dict[int, bytes] = {}
        with self._db._write() as conn:
            ids = scanwrite.write_documents(conn, docs, method, sketch_key, keep_ids, codec=self._db._codec,
                                            carried=self._db._carried, carry=carry, gone=gone)
        if carry:  # held once the transaction has committed (see Sketches.load)
            self._db._carry(method, sketch_key).update(carry)
        return ids

    def text_dictionary(self, texts: Sequence[str] = ()) -> bytes | None:
        """The stored bytes of the collection's text dictionary (``store.text_codec``), for
        processes that compress texts for :meth:`write_documents` (``DocWrite.text_blob``).
        When there is none yet, one is trained on ``texts`` and stored, in one transaction, if
        they are enough to train on; None when there is still none."""
        with (self._db._write() if texts else self._db._read()) as conn, plain_cursor(conn) as cur:
            if texts:
                dictionary = text_codec.dictionary_for(cur, self._db._codec, texts)
            else:
                dictionary = text_codec.current_dictionary(cur, self._db._codec)
        return None if dictionary is None else dictionary.as_bytes()

    def touch_files(self, items: Sequence[tuple[int, int, int]]) -> None:
        """Update (file id, size, mtime_ns) of files whose content was confirmed unchanged
        (a file saved again as it was, copied with a new time): the files and their
        documents. A document dated by its file's time (no date of its own inside: a plain
        text, a page, a PDF without one) takes the new time, as a scan that read the file
        would date it; a date from inside the document (a message's Date, a PDF's creation
        date) stays. The version order and the keeper rule ``latest`` read these dates."""
        if not items:
            return
        with self._db._write() as conn, plain_cursor(conn) as cur:
            # no answer kept about the content (store.facts) rests on a document's time or
            # date: they are put back after the trigger on documents deleted them (the
            # listing goes with the files' times, and is kept again at the scan's end)
            answers = facts.kept_answers(conn)
            cur.executemany("UPDATE files SET size = ?, mtime_ns = ? WHERE id = ?", [(s, m, f) for f, s, m in items])
            new_time = {f: m for f, _, m in items}
            rows = []
            for part in chunks(list(new_time)):
                rows += cur.execute(f"SELECT id, file_id, mtime_ns, date FROM documents "
                                    f"WHERE file_id IN ({placeholders(len(part))})", tuple(part)).fetchall()
            changed = []
            for doc_id, file_id, old_ns, date in rows:
                mtime_ns = new_time[file_id]
                if mtime_ns == old_ns:
                    continue
                # (the extraction dates such a document mtime_ns / 1e9: the same float)
                by_file_time = date is not None and old_ns and date == old_ns / 1e9
                changed.append((mtime_ns, mtime_ns / 1e9 if by_file_time else date, doc_id))
            cur.executemany("UPDATE documents SET mtime_ns = ?, date = ? WHERE id = ?", changed)
            facts.put_back(conn, answers)

    def remove_files(self, file_ids: Sequence[int]) -> int:
        """Forget files that are gone (their documents, texts and sketches go with them).

        Pairs that mention a removed document are dropped from every pair set. Returns
        the number of documents removed. Review decisions are kept.
        """
        with self._db._write() as conn:
            return scanwrite.remove_files(conn, file_ids)
