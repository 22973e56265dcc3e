"""``store.sketches``: the methods' sketches of the documents, stored per (method, sketch key).

The scan writes them (with a batch of documents through ``store.scans``, or here for
documents sketched from their stored text) and reads them back to search for pairs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from . import facts
from ._sql import chunks, placeholders, plain_cursor
from .scanwrite import PUT_SKETCH, sketch_from_text
from .sketch_spool import SketchSpool, SpooledSketches
from .types import StoreError

#: Texts read and sketched at once when sketches are made again (:meth:`Sketches.load`).
TEXTS_PER_DERIVE = 500

if TYPE_CHECKING:
    from .store import Store


class Sketches:
    """Sketches of a :class:`~ndd_desktop.store.Store` (``store.sketches``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    def sketched(self, doc_ids: Iterable[int], method: str, sketch_key: str) -> set[int]:
        """Which of the documents have a sketch for the method and key."""
        found: set[int] = set()
        with self._db._read() as conn:
            for part in chunks(list(doc_ids)):
                rows = conn.exec_driver_sql(
                    f"SELECT doc_id FROM sketches WHERE method = ? AND sketch_key = ? AND doc_id IN ({placeholders(len(part))})",
                    (method, sketch_key, *part),
                ).fetchall()
                found.update(r[0] for r in rows)
        return found

    def unsketched(self, method: str, sketch_key: str) -> list[int]:
        """Ids of documents with text that lack a sketch for the method and key."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT d.id FROM documents d WHERE d.status = 'ok' AND NOT EXISTS "
                "(SELECT 1 FROM sketches s WHERE s.doc_id = d.id AND s.method = ? AND s.sketch_key = ?) ORDER BY d.id",
                (method, sketch_key),
            ).fetchall()
        return [r[0] for r in rows]

    def inventory(self, method: str, sketch_key: str) -> tuple[np.ndarray, list[str], np.ndarray]:
        """(doc ids, content hashes, reference flags) of the ok documents with a sketch, by id."""
        with self._db._read() as conn, plain_cursor(conn) as cur:
            rows = cur.execute(
                "SELECT d.id, d.xxh128, r.reference FROM sketches s JOIN documents d ON d.id = s.doc_id "
                "JOIN roots r ON r.id = d.root_id WHERE s.method = ? AND s.sketch_key = ? AND d.status = 'ok' ORDER BY d.id",
                (method, sketch_key),
            ).fetchall()
        if not rows:
            return np.empty(0, dtype=np.int64), [], np.empty(0, dtype=bool)
        ids, hashes, refs = zip(*rows)  # the three columns in one pass (a rescan reads them all)
        return np.array(ids, dtype=np.int64), list(hashes), np.array(refs, dtype=bool)

    def load(
        self, method: str, sketch_key: str, decode: Callable[[bytes], Any] | None = None,
        derive: Callable[[list[str]], list[Any]] | None = None, spool_dtype: np.dtype | None = None,
        hashes: list[str] | None = None, unread: set[int] | None = None, unmade: list[int] | None = None,
    ) -> tuple[np.ndarray, Sequence, np.ndarray, np.ndarray]:
        """(doc ids, sketches, dates (NaN unknown), reference flags) of sketched ok documents, by id.

        The sketches are the stored bytes, or ``decode(bytes)`` of each when given (decoded
        row by row, so the bytes of all sketches are never held at once). For a method
        whose sketches are made from the text (``sketch_from_text``) the store holds only a
        mark: the sketches made during this session's scan are taken from its spool, the
        others are ``derive(texts)`` of their stored texts, read in batches (StoreError
        when such a sketch must be made and no ``derive`` is given). With ``spool_dtype``
        such a method's sketches stay in the spool: a :class:`~.sketch_spool.SpooledSketches`
        of arrays of that dtype (the bytes are ``Method.to_bytes`` arrays) is returned
        instead of a list, so the memory does not grow with the collection. ``hashes``, when
        given, receives each document's content hash in the same order (what
        :meth:`inventory` gives, read in the same pass). ``unread``, when given, receives the
        ids of the documents whose sketch was to be made from a text that could not be read
        (a text kept as its file, and the file unreadable or changed: ``store.originals``);
        their sketch is that of an empty text, which finds no pair. ``unmade``, when given,
        receives instead the positions of the documents whose sketch was to be made from
        their texts, and their sketch is left empty (a caller that needs only a few of them
        makes those itself).
        """
        derived = sketch_from_text(method)
        spool = self._db._carried.pop((method, sketch_key), None) if derived else None
        spooled = derived and spool_dtype is not None
        if spooled and spool is None:
            spool = SketchSpool()
        remake: list[int] = []
        where: list[tuple[int, int]] = []
        with self._db._read() as conn, plain_cursor(conn) as cur:
            rows = cur.execute(  # row by row: the bytes of every sketch are never held at once
                "SELECT d.id, s.data, d.date, r.reference, d.xxh128 FROM sketches s JOIN documents d ON d.id = s.doc_id "
                "JOIN roots r ON r.id = d.root_id WHERE s.method = ? AND s.sketch_key = ? AND d.status = 'ok' ORDER BY d.id",
                (method, sketch_key),
            )
            ids, blobs, dates, refs = [], [], [], []
            for doc_id, data, date, ref, content in rows:
                if hashes is not None:
                    hashes.append(content)
                if derived and not data:
                    held = None if spool is None else spool.location(doc_id)
                    if held is None:
                        if derive is None:  # an empty sketch would silently find no pairs
                            raise StoreError(f"the sketches of {method} are made from the stored texts: "
                                             "Sketches.load needs derive")
                        remake.append(len(ids))
                        held = (0, 0)
                    if spooled:
                        where.append(held)
                    else:
                        data = spool.pop(doc_id) if held[1] else b""
                if not spooled:
                    blobs.append(data if decode is None else decode(data))
                ids.append(doc_id)
                dates.append(np.nan if date is None else date)
                refs.append(bool(ref))
        if unmade is not None:
            unmade.extend(remake)
            remake = []
        for start in range(0, len(remake), TEXTS_PER_DERIVE):
            part = remake[start : start + TEXTS_PER_DERIVE]
            texts = self._db.documents.texts([ids[k] for k in part])
            if unread is not None:
                unread.update(ids[k] for k in part if ids[k] not in texts)
            for k, sketch in zip(part, derive([texts.get(ids[k], "") for k in part])):
                if spooled:
                    spool[ids[k]] = np.ascontiguousarray(sketch, dtype=spool_dtype).tobytes()
                    where[k] = spool.location(ids[k])
                else:
                    blobs[k] = sketch
        if spooled:
            at = np.array(where, dtype=np.int64).reshape(-1, 2)
            sketches: Sequence = SpooledSketches(spool, at[:, 0], at[:, 1], spool_dtype)
        else:
            if spool is not None:
                spool.close()
            sketches = blobs
        return (
            np.array(ids, dtype=np.int64),
            sketches,
            np.array(dates, dtype=np.float64),
            np.array(refs, dtype=bool),
        )

    def spool_folder(self, method: str, sketch_key: str) -> str | None:
        """The folder where the extraction workers of this session's scan write the sketches
        of a ``sketch_from_text`` method (``store.sketch_spool.SpooledBlob``), which
        ``Scans.write_documents`` then takes as they are; deleted with the spool. None when
        no folder can be made there (the workers then send the sketches)."""
        try:
            return self._db._carry(method, sketch_key).folder()
        except OSError:
            return None

    def hold(self, name: str, items: Sequence[tuple[int, bytes]]) -> None:
        """Keep bytes by document id for this session's pair stage, in a temporary file
        (what a scan makes beside its sketches and does not store: the word sketches of
        ``pipeline.completion``). A document whose content changes loses what was held."""
        if items:
            self._db._carry("held", name).update(items)

    def take_held(self, name: str) -> SketchSpool | None:
        """What :meth:`hold` kept under ``name`` (the caller closes it), or None."""
        return self._db._carried.pop(("held", name), None)

    def kept(self, name: str, key: str, batch: int = 50_000) -> Iterator[tuple[np.ndarray, list[bytes]]]:
        """(doc ids, bytes) of what :meth:`keep` stored under ``name`` and ``key``, by id,
        ``batch`` rows at a time (a million documents' records are most of a GB)."""
        with self._db._read() as conn, plain_cursor(conn) as cur:
            cur.execute("SELECT doc_id, data FROM sketches WHERE method = ? AND sketch_key = ? ORDER BY doc_id",
                        (name, key))
            while rows := cur.fetchmany(batch):
                yield np.array([r[0] for r in rows], dtype=np.int64), [r[1] for r in rows]

    def kept_ids(self, name: str, key: str) -> np.ndarray:
        """The ids of the documents that have bytes under ``name`` and ``key`` (:meth:`keep`)."""
        with self._db._read() as conn, plain_cursor(conn) as cur:
            rows = cur.execute("SELECT doc_id FROM sketches WHERE method = ? AND sketch_key = ?", (name, key)).fetchall()
        return np.sort(np.array([r[0] for r in rows], dtype=np.int64))

    def forget_kept(self, name: str, key: str, doc_ids: Sequence[int]) -> None:
        """Delete what :meth:`keep` stored under ``name`` and ``key`` for these documents."""
        if doc_ids:
            with self._db._write() as conn:
                conn.exec_driver_sql("DELETE FROM sketches WHERE method = ? AND sketch_key = ? AND doc_id = ?",
                                     [(name, key, int(i)) for i in doc_ids])

    def keep(self, name: str, key: str, items: Sequence[tuple[int, bytes]]) -> None:
        """Store bytes by document that a method keeps beside its sketches (a rescan's
        shortcut, ``pipeline.changed_pairs``) under a ``name`` no method has. Like a sketch,
        they go when their document's content changes; they are no sketch, so no answer
        about the sketches (``store.facts``) changes."""
        if items:
            with self._db._write() as conn:
                conn.exec_driver_sql(PUT_SKETCH, [(int(i), name, key, blob) for i, blob in items])

    def put(self, method: str, sketch_key: str, items: Sequence[tuple[int, bytes]]) -> None:
        """Store sketches of existing documents (one transaction)."""
        if not items:
            return
        derived = sketch_from_text(method)
        with self._db._write() as conn:
            conn.exec_driver_sql(PUT_SKETCH, [(int(i), method, sketch_key, b"" if derived else blob) for i, blob in items])
            facts.forget_sketch_answers(conn)  # (an added sketch fires no trigger: see store.facts)
        if derived:  # see scanwrite.write_documents (an empty blob is only a mark)
            self._db._carry(method, sketch_key).update((int(i), blob) for i, blob in items if blob)
