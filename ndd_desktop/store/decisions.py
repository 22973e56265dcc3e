"""Review decisions: an append-only log of pair verdicts and keeper choices.

Nothing ever deletes or updates a decision row; the newest row for a pair (or a
document) is the current one. Each row also records the content hashes of the documents
it is about, so a decision can be traced even after its documents left the collection.
"""

from __future__ import annotations

import time

from .pairs import LATEST_VERDICTS
from .types import Decision

VERDICTS = ("duplicate", "not_duplicate")

_LATEST_KEEPERS = (
    "SELECT a, value FROM decisions WHERE id IN "
    "(SELECT MAX(id) FROM decisions WHERE kind = 'keeper' GROUP BY a)"
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
            rows = conn.exec_driver_sql(LATEST_VERDICTS).fetchall()
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
            rows = conn.exec_driver_sql(_LATEST_KEEPERS).fetchall()
        return {int(a) for a, v in rows if v == "keep"}

    def decision_history(self) -> list[Decision]:
        """Every decision ever recorded, oldest first."""
        with self._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT id, time, reviewer, kind, a, b, a_xxh128, b_xxh128, value, note FROM decisions ORDER BY id"
            ).fetchall()
        return [Decision(*r) for r in rows]
