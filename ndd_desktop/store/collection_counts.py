"""Counts of a collection that a scan's report compares before and after the scan.

``documents_per_root``: a scanned folder that held documents and holds none after a scan
(a drive not mounted, its mount point left empty) lost them all, and ``ndd scan`` says
so. ``read_in_part``: the documents read only in part (a text cut at the size limit, an
OCR stopped by its time limit: ``ingest.reasons.READ_IN_PART``), which the scan names
like its failures. One query each, no document rows made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ingest.reasons import READ_IN_PART
from ._sql import dec_path

if TYPE_CHECKING:
    from .store import Store


def documents_per_root(store: "Store") -> dict[str, int]:
    """How many documents (of any status) each root of the collection holds, by its path."""
    with store._read() as conn:
        rows = conn.exec_driver_sql(
            "SELECT r.path, COUNT(d.id) FROM roots r LEFT JOIN documents d ON d.root_id = r.id GROUP BY r.id"
        ).fetchall()
    return {dec_path(path): int(n) for path, n in rows}


def read_in_part(store: "Store") -> set[int]:
    """The ids of the documents read only in part."""
    where = " OR ".join("instr(reason, ?) > 0" for _ in READ_IN_PART)
    with store._read() as conn:
        rows = conn.exec_driver_sql(
            f"SELECT id FROM documents WHERE status = 'ok' AND ({where})", READ_IN_PART).fetchall()
    return {int(i) for (i,) in rows}
