"""``store.review``: review decisions, an append-only log of pair verdicts and keeper choices.

Nothing ever deletes or updates a decision row; the newest row for a pair (or a
document) is the current one. Each row also records the content hashes of the documents
it is about, and a decision stands only while its documents hold that content
(``store.pairs.STANDING_DECISIONS``): a file replaced by another text keeps its id but
not the reviewer's verdicts. A decision can be traced after its documents left the
collection or changed, and is re-attached when the same content comes back
(:meth:`Review.reattach`). The review also goes out to a file and comes back in
(:meth:`Review.export_dict`, :meth:`Review.import_dict`; the format is in :mod:`.review_transfer`).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from .pairs import LATEST_DECISIONS, STANDING_DECISIONS, STANDING_VERDICTS
from . import review_copy, review_transfer
from .review_transfer import ImportReport
from .types import KEEP, VERDICTS, Decision

if TYPE_CHECKING:
    from .store import Store


_STANDING_KEEPERS = f"SELECT a, value FROM ({STANDING_DECISIONS}) WHERE kind = 'keeper'"
#: The newest decisions that no longer stand: a document gone, or holding other content.
_ORPHANS = (
    "SELECT kind, a, b, a_xxh128, b_xxh128, value FROM decisions WHERE id IN "
    f"({LATEST_DECISIONS}) AND value != '' AND id NOT IN (SELECT id FROM ({STANDING_DECISIONS}))"
)


#: Documents a side of a verdict is carried over to at most (copies of one content).
MAX_HOLDERS = 20


def _content_key(d: Decision) -> tuple:
    """What a decision says about which content, whatever documents hold it now."""
    hashes = (d.a_xxh128, d.b_xxh128) if d.kind == "keeper" else tuple(sorted((d.a_xxh128, d.b_xxh128)))
    return d.kind, d.value, hashes


def _hashes(conn, *ids: int) -> list[str]:
    out = []
    for doc_id in ids:
        row = conn.exec_driver_sql("SELECT xxh128 FROM documents WHERE id = ?", (doc_id,)).first()
        out.append(row[0] if row else "")
    return out


class Review:
    """Review decisions of a :class:`~ndd_desktop.store.Store` (``store.review``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db
        self._batch = 0  # inside batch(): the review copy is written once, at its end
        self._pending = False
        self._copied_at = float("-inf")  # time.monotonic() of the last copy written

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Decisions recorded inside the block update the review copy beside the collection
        file (:mod:`.review_copy`) once, at the end (a group's bulk action)."""
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if self._batch == 0 and self._pending:
                self.flush_copy()

    def _changed(self) -> None:
        """Keep the review copy beside the collection file up to date: at most once every
        ``review_copy.EVERY_S`` seconds (with 10,000 decisions in the review writing it takes
        0.2 s, and a reviewer marks a pair a second), the rest when the store is closed
        (:meth:`flush_copy`) or at the next decision after that."""
        if self._batch or time.monotonic() - self._copied_at < review_copy.EVERY_S:
            self._pending = True
            return
        self.flush_copy(force=True)

    def flush_copy(self, force: bool = False) -> None:
        """Write the review copy now if a decision is not in it yet (``force``: in any case)."""
        if not (force or self._pending):
            return
        self._pending = False
        self._copied_at = time.monotonic()
        review_copy.write_copy(self._db)

    def set_verdict(self, a: int, b: int, verdict: str | None, *, reviewer: str = "", note: str = "") -> None:
        """Record a reviewer's verdict on a pair ("duplicate", "not_duplicate", None clears).

        Raises:
            ValueError: an unknown verdict or a pair of a document with itself.
        """
        if verdict is not None and verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r} (known: {', '.join(VERDICTS)} or None)")
        a, b = int(a), int(b)
        if a == b:
            raise ValueError("a pair needs two different documents")
        a, b = min(a, b), max(a, b)
        with self._db._write(durable=True) as conn:
            ha, hb = _hashes(conn, a, b)
            conn.exec_driver_sql(
                "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                "VALUES (?, ?, 'verdict', ?, ?, ?, ?, ?, ?)",
                (time.time(), reviewer, a, b, ha, hb, verdict or "", note),
            )
        self._changed()

    def verdicts(self) -> dict[tuple[int, int], str]:
        """The current verdict of every pair that has one, keyed by (a, b) with a < b."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(STANDING_VERDICTS).fetchall()
        return {(int(a), int(b)): v for a, b, v in rows if v}

    def set_keeper(self, doc_id: int, keeper: bool, *, reviewer: str = "") -> None:
        """Record that a reviewer chose (or un-chose) a document as the one to keep."""
        doc_id = int(doc_id)
        with self._db._write(durable=True) as conn:
            (h,) = _hashes(conn, doc_id)
            conn.exec_driver_sql(
                "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                "VALUES (?, ?, 'keeper', ?, NULL, ?, '', ?, '')",
                (time.time(), reviewer, doc_id, h, KEEP if keeper else ""),
            )
        self._changed()

    def keepers(self) -> set[int]:
        """Documents a reviewer currently marks as keepers."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(_STANDING_KEEPERS).fetchall()
        return {int(a) for a, v in rows if v == KEEP}

    def standing(self) -> list[Decision]:
        """The decisions that apply now: the newest per pair or document, while its
        documents hold the content they held when it was made (oldest first)."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(f"SELECT * FROM ({STANDING_DECISIONS}) ORDER BY id").fetchall()
        return [Decision(*r) for r in rows]

    def history(self) -> list[Decision]:
        """Every decision ever recorded, oldest first."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note FROM decisions ORDER BY id"
            ).fetchall()
        return [Decision(*r) for r in rows]

    def reattach(self) -> int:
        """Carry the current decisions that no longer stand (a document left the collection
        or holds other content now) over to the documents that now hold the content they
        were made on (a folder removed and added again, a file deleted and restored, two
        files renamed); returns how many were carried over.

        A verdict was a judgement of two contents: it is carried over to every pair of
        readable documents that hold them (a copy of one side elsewhere in the collection
        gets it too; at most :data:`MAX_HOLDERS` documents a side). A keeper is carried over
        only when exactly one readable document holds its content (which copy to keep is
        the reviewer's choice). Nothing is carried onto a pair or document that has a
        decision of its own. The log stays append-only: a new row says where it came from.
        """
        with self._db._write(durable=True) as conn:
            orphans = conn.exec_driver_sql(_ORPHANS).fetchall()
            if not orphans:
                return 0
            verdicts = {(int(a), int(b)) for a, b, _ in conn.exec_driver_sql(STANDING_VERDICTS)}
            keepers = {int(a) for a, _ in conn.exec_driver_sql(_STANDING_KEEPERS)}

            def holders(doc_id: int | None, content: str) -> list[int]:
                """[``doc_id``] while it holds ``content``, else the readable documents that
                do (none when more than :data:`MAX_HOLDERS`)."""
                if doc_id is not None:
                    row = conn.exec_driver_sql("SELECT xxh128 FROM documents WHERE id = ?", (doc_id,)).first()
                    if row is not None and (not content or row[0] == content):
                        return [doc_id]
                if not content:
                    return []
                rows = conn.exec_driver_sql("SELECT id FROM documents WHERE xxh128 = ? AND status = 'ok' LIMIT ?",
                                            (content, MAX_HOLDERS + 1)).fetchall()
                return [int(r[0]) for r in rows] if len(rows) <= MAX_HOLDERS else []

            carried = 0
            now = time.time()
            for kind, a, b, ha, hb, value in orphans:
                note = f"re-attached from document {a}" + (f" and {b}" if b is not None else "") + " (same content)"
                rows = []
                if kind == "verdict" and b is not None:
                    for x in holders(int(a), ha):
                        for y in holders(int(b), hb):
                            pair = (min(x, y), max(x, y))
                            if x != y and pair not in verdicts:
                                verdicts.add(pair)
                                rows.append((now, "", "verdict", *pair, *_hashes(conn, *pair), value, note))
                elif kind == "keeper" and b is None:
                    found = holders(int(a), ha)
                    if len(found) == 1 and found[0] not in keepers:
                        keepers.add(found[0])
                        rows.append((now, "", "keeper", found[0], None, ha, "", value, note))
                for row in rows:
                    conn.exec_driver_sql(
                        "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                carried += bool(rows)
        if carried:
            self._changed()
        return carried

    def lapsed(self, before: list[Decision]) -> list[tuple[Decision, list[int]]]:
        """The decisions of ``before`` (:meth:`standing` at some earlier moment, say before a
        scan) that no longer apply because a document they are about holds other content
        now, each with those documents' ids. A decision carried over to other documents of
        its content (:meth:`reattach`) or cleared since is not among them, nor one whose
        documents all left the collection (it applies again when they come back)."""
        now = self.standing()
        still = {d.id for d in now}
        kept = {_content_key(d) for d in now}
        gone = [d for d in before if d.value and d.id not in still and _content_key(d) not in kept]
        if not gone:
            return []
        ids = sorted({d.a for d in gone} | {d.b for d in gone if d.b is not None})
        held = {doc.id: doc.xxh128 for doc in self._db.documents.all(ids, status=None)}
        out = []
        for d in gone:
            named = [x for x in (d.a, d.b) if x is not None]
            sides = [x for x in named if x in held]
            recorded = {d.a_xxh128, d.b_xxh128} - {""}
            changed = [x for x in sides if held[x] not in recorded]
            if not changed and len(sides) == len(named):  # both hold one of the two contents now
                changed = sides
            if changed:  # else a document left: the decision applies again when it comes back
                out.append((d, changed))
        return out

    def export_dict(self) -> dict[str, Any]:
        """The review as a JSON-ready dict: the newest decision about each pair and each
        document (clearing ones too, so a cleared verdict stays cleared) and every setting
        but those of the collection's own state (``review_transfer.STATE_KEYS``)."""
        with self._db._read() as conn:
            decisions = review_transfer.export_decisions(conn)
        settings = {k: v for k, v in self._db.settings.all().items() if k not in review_transfer.STATE_KEYS}
        return review_transfer.review_dict(decisions, settings)

    def import_dict(self, review: dict[str, Any]) -> ImportReport:
        """Apply a review written by :meth:`export_dict` (see :mod:`.review_transfer`).

        Raises:
            ValueError: not a review of a version this code reads.
        """
        review_transfer.check_format(review)
        with self._db._write(durable=True) as conn:
            report = review_transfer.import_decisions(conn, review)
        for key, value in (review.get("settings") or {}).items():
            if key in review_transfer.STATE_KEYS:  # (files written before they were left out)
                report.state_ignored += 1
                continue
            self._db.settings.put(key, value)
            report.settings += 1
        if report.applied or report.settings:
            self._changed()
        return report
