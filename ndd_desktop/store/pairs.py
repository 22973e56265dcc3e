"""``store.pairs``: the pair sets: numpy arrays for clustering, pages of rows for tables,
lookups, and the scan's replacement of a set."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Callable, Iterator

import numpy as np

from . import scanwrite
from ._sql import DOC_COLUMNS, DOC_WIDTH, doc_from_row, like_pattern, plain_cursor
from .types import PairArrays, PairRow, PairSet

if TYPE_CHECKING:
    from .store import Store

#: Latest verdict per (a, b): the decision log is append-only and the newest row wins.
#: The newest decision row per pair or document (whether or not it still applies).
LATEST_DECISIONS = "SELECT MAX(id) FROM decisions GROUP BY kind, a, b"
#: The decisions that stand: the newest row per pair or document, while its documents
#: hold the content the reviewer saw (the hashes recorded with it, in either order for a
#: pair). A file replaced by other content, or two names swapped, do not carry a verdict
#: onto texts nobody judged; when the content comes back the decision applies again.
STANDING_DECISIONS = (
    "SELECT x.id, x.time, x.reviewer, x.kind, x.a, x.b, x.a_xxh128, x.b_xxh128, x.value, x.note "
    "FROM decisions x JOIN documents da ON da.id = x.a LEFT JOIN documents db ON db.id = x.b "
    f"WHERE x.id IN ({LATEST_DECISIONS}) AND ("
    "(x.b IS NULL AND (COALESCE(x.a_xxh128, '') = '' OR x.a_xxh128 = da.xxh128)) "
    "OR (x.b IS NOT NULL AND db.id IS NOT NULL AND ("
    "(COALESCE(x.a_xxh128, '') = '' AND COALESCE(x.b_xxh128, '') = '') "
    "OR (x.a_xxh128 = da.xxh128 AND x.b_xxh128 = db.xxh128) "
    "OR (x.a_xxh128 = db.xxh128 AND x.b_xxh128 = da.xxh128))))"
)
#: The standing verdict of every pair that has one (value "" when cleared).
STANDING_VERDICTS = f"SELECT a, b, value FROM ({STANDING_DECISIONS}) WHERE kind = 'verdict'"

#: Sort orders of :meth:`Pairs.rows` -> SQL expression.
PAIR_ORDERS = {
    "score": "p.score",
    "cont_ab": "p.cont_ab",
    "cont_ba": "p.cont_ba",
    "containment": "MAX(COALESCE(p.cont_ab, -1), COALESCE(p.cont_ba, -1))",
    "hamming": "p.hamming",
    "a": "ra.path || '/' || da.relpath",
    "b": "rb.path || '/' || db.relpath",
    "pair_id": "p.id",
    "verdict": "v.value",
}

#: Rows read and converted at a time by :meth:`Pairs.arrays`.
_FETCH_ROWS = 2048

_PAIR_FROM = (
    "pairs p JOIN pair_sets s ON s.id = p.set_id "
    "JOIN documents da ON da.id = p.a JOIN roots ra ON ra.id = da.root_id "
    "JOIN documents db ON db.id = p.b JOIN roots rb ON rb.id = db.root_id"
)


def _pair_row(r) -> PairRow:
    a = doc_from_row(r[6 : 6 + DOC_WIDTH])
    b = doc_from_row(r[6 + DOC_WIDTH : 6 + 2 * DOC_WIDTH])
    return PairRow(r[0], a, b, float(r[1]), _nan(r[2]), _nan(r[3]), _nan(r[4]), r[5] or None,
                   _nan(r[6 + 2 * DOC_WIDTH]))


def _nan(x: float | None) -> float:
    return float("nan") if x is None else float(x)


class Pairs:
    """Pair sets and pairs of a :class:`~ndd_desktop.store.Store` (``store.pairs``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    def sets(self) -> list[PairSet]:
        """Every stored pair set (one per method and parameter hash), newest first."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(
                "SELECT method, params, pairs_key, floor, count, complete_from FROM pair_sets "
                "ORDER BY created DESC, id DESC"
            ).fetchall()
        return [PairSet(m, json.loads(p), k, f, c, cf) for m, p, k, f, c, cf in rows]

    def find_set(self, method: str, pairs_key: str) -> PairSet | None:
        """One pair set, None when that method and parameter hash were never scanned."""
        for ps in self.sets():
            if ps.method == method and ps.pairs_key == pairs_key:
                return ps
        return None

    def arrays(self, method: str, pairs_key: str, check_documents: bool = True) -> PairArrays:
        """All pairs of a set as numpy arrays, ordered by score descending (a < b).

        ``check_documents=False`` leaves in the pairs of documents removed since the set was
        stored, for a caller that reads the documents the pairs name anyway and drops them
        then (reading every document id costs 0.6-0.8 s at a million documents)."""
        # The sqlite3 cursor itself, in the read transaction: SQLAlchemy's rows cost more
        # than the query here (2 s of 5 for a million document ids).
        with self._db._read() as conn, plain_cursor(conn) as cur:
            found = cur.execute("SELECT id FROM pair_sets WHERE method = ? AND pairs_key = ?",
                                (method, pairs_key)).fetchone()
            lo, hi = (None, None) if found is None else cur.execute(
                "SELECT MIN(id), MAX(id) FROM pairs WHERE set_id = ?", (found[0],)).fetchone()
            # A set's pairs are written together, so their row ids are one range: read in row
            # id order (NOT INDEXED: the planner would take the score index, where every row
            # is a jump: 1.2 s against 0.47 s for 270,000 pairs); numpy orders them after.
            if lo is not None:
                cur.execute(
                    "SELECT p.id, p.a, p.b, p.score, p.cont_ab, p.cont_ba, p.hamming, p.estimate FROM pairs p "
                    "NOT INDEXED WHERE p.id BETWEEN ? AND ? AND p.set_id = ?", (lo, hi, found[0]))
            # In slices: converting 100k rows in one numpy call would hold the GIL for
            # ~100 ms and stall the window while this runs on a worker thread. One array of
            # floats per slice (ids are far below 2**53; None reads as NaN), cut in columns.
            int_parts, float_parts = [], []
            while lo is not None and (rows := cur.fetchmany(_FETCH_ROWS)):
                block = np.array(rows, dtype=np.float64)
                int_parts.append(block[:, :3].astype(np.int64))
                float_parts.append(block[:, 3:])
            if not int_parts:
                return PairArrays.empty()
            # Pairs of documents removed since the set was stored are left out: one read of
            # the document ids (in the same snapshot) instead of two joins per pair, which
            # cost 2.5 s of 4 for 270,000 pairs among 1,000,000 documents.
            known = None
            if check_documents:
                rows = cur.execute("SELECT id FROM documents").fetchall()
                known = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        ints = np.concatenate(int_parts).T
        floats = np.concatenate(float_parts).T
        if known is not None:
            present = np.isin(ints[1], known, assume_unique=False) & np.isin(ints[2], known)
            if not present.all():
                ints, floats = ints[:, present], floats[:, present]
        order = np.lexsort((ints[2], ints[1], -floats[0]))  # score descending, then a, then b
        ints, floats = ints[:, order], floats[:, order]
        return PairArrays(
            pair_id=ints[0].copy(),
            a=ints[1].copy(),
            b=ints[2].copy(),
            score=floats[0].copy(),
            cont_ab=floats[1].copy(),
            cont_ba=floats[2].copy(),
            hamming=floats[3].copy(),
            estimate=floats[4].copy(),
        )

    def _pair_where(self, method: str, pairs_key: str, threshold: float, text_filter: str | None) -> tuple[str, list]:
        where = "s.method = ? AND s.pairs_key = ? AND p.score >= ?"
        args: list = [method, pairs_key, float(threshold)]
        if text_filter:
            pattern = like_pattern(text_filter)
            where += " AND (da.relpath LIKE ? ESCAPE '\\' OR db.relpath LIKE ? ESCAPE '\\')"
            args += [pattern, pattern]
        return where, args

    def rows(
        self,
        method: str,
        pairs_key: str,
        threshold: float,
        *,
        order: str = "score",
        descending: bool = True,
        offset: int = 0,
        limit: int | None = None,
        text_filter: str | None = None,
    ) -> list[PairRow]:
        """A page of pairs scoring >= ``threshold``, with both documents and the verdict.

        ``order`` is one of :data:`PAIR_ORDERS`; ``text_filter`` keeps pairs where either
        relative path contains the text (case-insensitive for ASCII).

        Raises:
            ValueError: an unknown ``order``.
        """
        sql, args = self._pairs_sql(method, pairs_key, threshold, order, descending, text_filter)
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            args += [int(limit), int(offset)]
        elif offset:
            sql += " LIMIT -1 OFFSET ?"
            args.append(int(offset))
        with self._db._read() as conn:
            rows = conn.exec_driver_sql(sql, tuple(args)).fetchall()
        return [_pair_row(r) for r in rows]

    def iter_rows(self, method: str, pairs_key: str, threshold: float, *, batch: int = 2048) -> Iterator[PairRow]:
        """Every pair scoring >= ``threshold``, best first, streamed from one read
        transaction: constant memory, one consistent snapshot, and linear time (reading
        page after page with OFFSET made a long listing quadratic: 567,000 pairs took 50 s).
        """
        sql, args = self._pairs_sql(method, pairs_key, threshold, "score", True, None)
        docs: dict[int, object] = {}  # a document is in many pairs: one DocumentInfo each

        def doc(cols):
            found = docs.get(cols[0])
            if found is None:
                found = docs[cols[0]] = doc_from_row(cols)
            return found

        with self._db._read() as conn:
            result = conn.exec_driver_sql(sql, tuple(args))
            while rows := result.fetchmany(batch):
                for r in rows:
                    a, b = doc(r[6 : 6 + DOC_WIDTH]), doc(r[6 + DOC_WIDTH : 6 + 2 * DOC_WIDTH])
                    yield PairRow(r[0], a, b, float(r[1]), _nan(r[2]), _nan(r[3]), _nan(r[4]), r[5] or None,
                                  _nan(r[6 + 2 * DOC_WIDTH]))

    def _pairs_sql(self, method, pairs_key, threshold, order, descending, text_filter) -> tuple[str, list]:
        if order not in PAIR_ORDERS:
            raise ValueError(f"unknown order {order!r} (known: {', '.join(PAIR_ORDERS)})")
        where, args = self._pair_where(method, pairs_key, threshold, text_filter)
        direction = "DESC" if descending else "ASC"
        cols_a = DOC_COLUMNS.replace("d.", "da.").replace("r.", "ra.")
        cols_b = DOC_COLUMNS.replace("d.", "db.").replace("r.", "rb.")
        sql = (
            f"SELECT p.id, p.score, p.cont_ab, p.cont_ba, p.hamming, v.value, {cols_a}, {cols_b}, p.estimate "
            f"FROM {_PAIR_FROM} LEFT JOIN ({STANDING_VERDICTS}) v ON v.a = p.a AND v.b = p.b "
            f"WHERE {where} ORDER BY {PAIR_ORDERS[order]} {direction}, p.id {direction}"
        )
        return sql, args

    def count(self, method: str, pairs_key: str, threshold: float, text_filter: str | None = None) -> int:
        """How many pairs :meth:`rows` would list without paging."""
        where, args = self._pair_where(method, pairs_key, threshold, text_filter)
        with self._db._read() as conn:
            return int(conn.exec_driver_sql(f"SELECT COUNT(*) FROM {_PAIR_FROM} WHERE {where}", tuple(args)).scalar_one())

    def input_hash(self, method: str, pairs_key: str) -> str | None:
        """The input hash recorded with a pair set (None when there is no such set)."""
        with self._db._read() as conn:
            row = conn.exec_driver_sql(
                "SELECT input_hash FROM pair_sets WHERE method = ? AND pairs_key = ?", (method, pairs_key)
            ).first()
        return None if row is None else row[0]

    def replace(
        self,
        method: str,
        pairs_key: str,
        sketch_key: str,
        params: dict,
        floor: float,
        input_hash: str,
        columns: dict[str, np.ndarray],
        complete_from: float | None = None,
        on_chunk: Callable[[int], None] | None = None,
    ) -> int:
        """Atomically replace the pair set of (method, pairs_key) with new pairs (the scan's
        write; see :func:`.scanwrite.replace_pairs`). Readers see the old set until the
        transaction commits; if ``on_chunk`` raises, nothing is written. Returns the count."""
        with self._db._write() as conn:
            return scanwrite.replace_pairs(conn, method, pairs_key, sketch_key, params, floor, input_hash, columns,
                                           complete_from, on_chunk)
