"""Documents read as rows and made into :class:`DocumentInfo` objects only when asked for.

A view of a large pair set names hundreds of thousands of documents (239,088 at a million
documents) and shows a screenful of them at a time. Making a frozen dataclass of each, with
its path decoded and joined, took 3 s of the 4.4 s of reading them; the rows alone are the
query. A :class:`DocumentTable` keeps the rows, makes a document's object on its first
look-up (then keeps it), and gives whole columns for work over all of them (the grouping's
keeper rules, the pairs table's labels, the roots named).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ._sql import DOC_COLUMNS, dec_path, doc_from_row
from .types import DocumentInfo

#: The columns of a row, in the order DOC_COLUMNS selects them.
COLUMNS = tuple(c.strip().split(".")[-1] for c in DOC_COLUMNS.split(","))
_PATHS = ("path", "relpath", "container")


class DocumentTable(Mapping[int, DocumentInfo]):
    """Documents by id from rows selected with ``DOC_COLUMNS`` (in order of id)."""

    def __init__(self, rows: list[tuple]):
        self._rows = {row[0]: row for row in rows}
        self._made: dict[int, DocumentInfo] = {}

    def __getitem__(self, doc_id: int) -> DocumentInfo:
        made = self._made.get(doc_id)
        if made is None:  # two threads may both make it: the same values either way
            made = self._made[doc_id] = doc_from_row(self._rows[doc_id])
        return made

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._rows

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def column(self, name: str) -> list:
        """One column (a name of :data:`COLUMNS`), in order of id: the stored values, the
        paths ("path": the root, "relpath", "container") decoded as DocumentInfo has them."""
        k = COLUMNS.index(name)
        values = [row[k] for row in self._rows.values()]
        if name in _PATHS:
            decoded = {v: dec_path(v) for v in set(values)} if name == "path" else None
            return [decoded[v] for v in values] if decoded is not None else [dec_path(v) for v in values]
        return values

    def path_keys(self, doc_ids) -> list[str]:
        """The root and relpath of each of ``doc_ids``, decoded and joined by a NUL (which no
        path holds: the strings sort as the pairs would), without a document object each."""
        rows, k_root, k_rel = self._rows, COLUMNS.index("path"), COLUMNS.index("relpath")
        return [f"{dec_path(row[k_root])}\0{dec_path(row[k_rel])}" for row in map(rows.__getitem__, doc_ids)]

    def with_status(self, status: str) -> DocumentTable:
        """The documents of this status (this table itself when all of them are)."""
        k = COLUMNS.index("status")
        if all(row[k] == status for row in self._rows.values()):
            return self
        return DocumentTable([row for row in self._rows.values() if row[k] == status])

    def roots(self) -> set[str]:
        """The roots the documents lie in."""
        return set(self.column("path"))
