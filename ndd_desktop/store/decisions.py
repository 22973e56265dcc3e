"""Review decisions: an append-only log of pair verdicts and keeper choices.

Nothing ever deletes or updates a decision row; the newest row for a pair (or a
document) is the current one. Each row also records the content hashes of the documents
it is about, and a decision stands only while its documents hold that content
(``store.pairs.STANDING_DECISIONS``): a file replaced by another text keeps its id but
not the reviewer's verdicts. A decision can be traced after its documents left the
collection or changed, and is re-attached when the same content comes back
(:meth:`DecisionsMixin.reattach_decisions`).
"""

from __future__ import annotations

import time

from .pairs import LATEST_DECISIONS, STANDING_DECISIONS, STANDING_VERDICTS
from .types import Decision

VERDICTS = ("duplicate", "not_duplicate")

_STANDING_KEEPERS = f"SELECT a, value FROM ({STANDING_DECISIONS}) WHERE kind = 'keeper'"
#: The newest decisions that no longer stand: a document gone, or holding other content.
_ORPHANS = (
    "SELECT kind, a, b, a_xxh128, b_xxh128, value FROM decisions WHERE id IN "
    f"({LATEST_DECISIONS}) AND value != '' AND id NOT IN (SELECT id FROM ({STANDING_DECISIONS}))"
)


class DecisionsMixin:
    """Decision methods of :class:`~ndd_desktop.store.Store`."""

    def _hashes(self, conn, *ids: int) -> list[str]:
        out = []
        for doc_id in ids:
            row = conn.exec_driver_sql("SELECT xxh128 FROM documents WHERE id = ?", (doc_id,)).first()
            out.append(row[0] if row else "")
        return out

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
        with self._write(durable=True) as conn:
            ha, hb = self._hashes(conn, a, b)
            conn.exec_driver_sql(
                "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                "VALUES (?, ?, 'verdict', ?, ?, ?, ?, ?, ?)",
                (time.time(), reviewer, a, b, ha, hb, verdict or "", note),
            )

    def verdicts(self) -> dict[tuple[int, int], str]:
        """The current verdict of every pair that has one, keyed by (a, b) with a < b."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(STANDING_VERDICTS).fetchall()
        return {(int(a), int(b)): v for a, b, v in rows if v}

    def set_keeper(self, doc_id: int, keeper: bool, *, reviewer: str = "") -> None:
        """Record that a reviewer chose (or un-chose) a document as the one to keep."""
        doc_id = int(doc_id)
        with self._write(durable=True) as conn:
            (h,) = self._hashes(conn, doc_id)
            conn.exec_driver_sql(
                "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                "VALUES (?, ?, 'keeper', ?, NULL, ?, '', ?, '')",
                (time.time(), reviewer, doc_id, h, "keep" if keeper else ""),
            )

    def keepers(self) -> set[int]:
        """Documents a reviewer currently marks as keepers."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(_STANDING_KEEPERS).fetchall()
        return {int(a) for a, v in rows if v == "keep"}

    def standing_decisions(self) -> list[Decision]:
        """The decisions that apply now: the newest per pair or document, while its
        documents hold the content they held when it was made (oldest first)."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(f"SELECT * FROM ({STANDING_DECISIONS}) ORDER BY id").fetchall()
        return [Decision(*r) for r in rows]

    def decision_history(self) -> list[Decision]:
        """Every decision ever recorded, oldest first."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note FROM decisions ORDER BY id"
            ).fetchall()
        return [Decision(*r) for r in rows]

    def reattach_decisions(self) -> int:
        """Carry the current decisions that no longer stand (a document left the collection
        or holds other content now) over to the documents that now hold the content they
        were made on (a folder removed and added again, a file deleted and restored, two
        files renamed); returns how many were carried over.

        A side is carried over only when exactly one readable document has its content
        hash (copies of one text leave it undecided) and the new pair or document has no
        decision of its own. The log stays append-only: a new row says where it came from.
        """
        with self._write(durable=True) as conn:
            orphans = conn.exec_driver_sql(_ORPHANS).fetchall()
            if not orphans:
                return 0
            verdicts = {(int(a), int(b)) for a, b, _ in conn.exec_driver_sql(STANDING_VERDICTS)}
            keepers = {int(a) for a, _ in conn.exec_driver_sql(_STANDING_KEEPERS)}

            def holder(doc_id: int | None, content: str) -> int | None:
                """``doc_id`` while it holds ``content``, else the one readable document
                that does."""
                if doc_id is not None:
                    row = conn.exec_driver_sql("SELECT xxh128 FROM documents WHERE id = ?", (doc_id,)).first()
                    if row is not None and (not content or row[0] == content):
                        return doc_id
                if not content:
                    return None
                rows = conn.exec_driver_sql(
                    "SELECT id FROM documents WHERE xxh128 = ? AND status = 'ok' LIMIT 2", (content,)).fetchall()
                return int(rows[0][0]) if len(rows) == 1 else None

            carried = 0
            now = time.time()
            for kind, a, b, ha, hb, value in orphans:
                na = holder(int(a), ha)
                nb = holder(int(b), hb) if b is not None else None
                note = f"re-attached from document {a}" + (f" and {b}" if b is not None else "") + " (same content)"
                if kind == "verdict" and na is not None and nb is not None and na != nb:
                    na, nb = min(na, nb), max(na, nb)
                    if (na, nb) in verdicts:
                        continue
                    verdicts.add((na, nb))
                    row = (now, "", "verdict", na, nb, *self._hashes(conn, na, nb), value, note)
                elif kind == "keeper" and b is None and na is not None:
                    if na in keepers:
                        continue
                    keepers.add(na)
                    row = (now, "", "keeper", na, None, ha, "", value, note)
                else:
                    continue
                conn.exec_driver_sql(
                    "INSERT INTO decisions (time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                carried += 1
        return carried
