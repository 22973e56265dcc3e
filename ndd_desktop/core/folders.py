"""Near-duplicate folders: pairs of folders whose documents have duplicates in each other.

Arrays in, arrays out. A folder holds every document below it (its whole subtree), so a
copied folder tree matches at each of its levels; a folder is never paired with its own
ancestors or descendants (they share documents instead of duplicating them).

A document ``x`` of folder ``F`` is *matched* in folder ``G`` when ``G`` holds a document
that is an exact duplicate of ``x`` (same content class) or a near duplicate (a pair at
the threshold). For every pair of unrelated folders the counts of matched documents in
both directions give ``share_a = matched_a / n_a`` and ``share_b = matched_b / n_b``.

The work is a few sorts over arrays whose length is (matches) x (folder depth): on
100,000 documents in 10,000 folders well under a second.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .unique import sorted_unique

#: Relations of a folder pair, from the shares.
SAME, A_IN_B, B_IN_A, OVERLAP = "same", "a_in_b", "b_in_a", "overlap"


@dataclass(frozen=True)
class FolderPairs:
    """Pairs of folders (indices ``a < b`` into the caller's folder list) and their counts.

    ``n_a``: documents in folder a (its subtree); ``matched_a``: how many of them have an
    exact or near duplicate in folder b; ``share_a = matched_a / n_a``; the same for b.
    """

    a: np.ndarray
    b: np.ndarray
    n_a: np.ndarray
    n_b: np.ndarray
    matched_a: np.ndarray
    matched_b: np.ndarray

    def __len__(self) -> int:
        return int(self.a.shape[0])

    @property
    def share_a(self) -> np.ndarray:
        """Share of folder a's documents matched in folder b."""
        return self.matched_a / np.maximum(self.n_a, 1)

    @property
    def share_b(self) -> np.ndarray:
        """Share of folder b's documents matched in folder a."""
        return self.matched_b / np.maximum(self.n_b, 1)

    def relation(self, k: int) -> str:
        """``same`` (each covers the other), ``a_in_b`` (a is a subset of b), ``b_in_a`` or ``overlap``."""
        full_a = self.matched_a[k] == self.n_a[k]
        full_b = self.matched_b[k] == self.n_b[k]
        if full_a and full_b:
            return SAME
        if full_a:
            return A_IN_B
        if full_b:
            return B_IN_A
        return OVERLAP

    @classmethod
    def empty(cls) -> "FolderPairs":
        """No pairs."""
        z = np.empty(0, dtype=np.int64)
        return cls(z, z.copy(), z.copy(), z.copy(), z.copy(), z.copy())


def ancestor_matrix(parent: np.ndarray) -> np.ndarray:
    """``(n_folders, depth)`` matrix: column k holds the k-th ancestor (0: the folder itself), -1 past the top.

    Raises:
        ValueError: the parent links hold a cycle.
    """
    parent = np.asarray(parent, dtype=np.int64)
    n = parent.shape[0]
    cols = [np.arange(n, dtype=np.int64)]
    while True:
        prev = cols[-1]
        nxt = np.where(prev >= 0, parent[np.maximum(prev, 0)], -1)
        if not (nxt >= 0).any():
            break
        cols.append(nxt)
        if len(cols) > n + 1:
            raise ValueError("the folder parents form a cycle")
    return np.stack(cols, axis=1) if n else np.empty((0, 1), dtype=np.int64)


def _expand(items: np.ndarray, folders: np.ndarray, anc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each (item, folder) to (item, ancestor) for every ancestor of the folder (itself included)."""
    rows = anc[folders]  # (m, depth)
    keep = rows >= 0
    return np.broadcast_to(items[:, None], rows.shape)[keep], rows[keep]


def folder_sizes(doc_folder: np.ndarray, anc: np.ndarray) -> np.ndarray:
    """Documents per folder, counting the whole subtree."""
    docs = np.arange(len(doc_folder), dtype=np.int64)
    _, f = _expand(docs, np.asarray(doc_folder, dtype=np.int64), anc)
    return np.bincount(f, minlength=anc.shape[0]).astype(np.int64)


def _unique_keys(x: np.ndarray, y: np.ndarray, width: int) -> np.ndarray:
    return sorted_unique(x.astype(np.int64) * width + y.astype(np.int64))


def _class_matches(doc_folder: np.ndarray, hash_class: np.ndarray, anc: np.ndarray, n_folders: int):
    """(doc, folder) for every folder holding another document of the doc's content class."""
    docs = np.flatnonzero(hash_class >= 0)
    if docs.size == 0:
        z = np.empty(0, dtype=np.int64)
        return z, z
    cls = hash_class[docs].astype(np.int64)
    sizes = np.bincount(cls)
    multi = sizes[cls] > 1  # a class of one document matches nothing
    docs, cls = docs[multi], cls[multi]
    if docs.size == 0:
        z = np.empty(0, dtype=np.int64)
        return z, z
    # the folders each class occupies: unique (class, folder)
    c_items, c_folders = _expand(cls, doc_folder[docs], anc)
    keys = _unique_keys(c_items, c_folders, n_folders)
    k_cls, k_folder = keys // n_folders, keys % n_folders
    # join every document of a class with the class's folders (both sorted by class)
    starts = np.searchsorted(k_cls, cls, side="left")
    ends = np.searchsorted(k_cls, cls, side="right")
    counts = ends - starts
    out_doc = np.repeat(docs, counts)
    offsets = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
    return out_doc, k_folder[offsets]


def folder_pairs(
    doc_folder: np.ndarray,
    parent: np.ndarray,
    pair_a: np.ndarray,
    pair_b: np.ndarray,
    hash_class: np.ndarray | None = None,
    min_share: float = 0.8,
) -> FolderPairs:
    """Pairs of unrelated folders where at least ``min_share`` of one folder's documents
    have an exact or near duplicate in the other.

    Args:
        doc_folder: the folder index of each document (the folder it lies in directly).
        parent: the parent folder index of each folder (-1 for a top folder).
        pair_a, pair_b: near-duplicate pairs as document indices (either order).
        hash_class: per document a content class id (equal ids: exact duplicates), -1 for none.
        min_share: the smallest share (of either folder) a pair must reach to be listed.

    Returns:
        The pairs (``a < b``), ordered by the larger share, then the smaller, descending.
    """
    doc_folder = np.asarray(doc_folder, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    nf = int(parent.shape[0])
    if nf == 0 or doc_folder.size == 0:
        return FolderPairs.empty()
    anc = ancestor_matrix(parent)
    sizes = folder_sizes(doc_folder, anc)
    pa = np.asarray(pair_a, dtype=np.int64)
    pb = np.asarray(pair_b, dtype=np.int64)
    # (document, folder where it has a match): a pair matches each document in every
    # folder above the other document
    x1, g1 = _expand(pa, doc_folder[pb], anc)
    x2, g2 = _expand(pb, doc_folder[pa], anc)
    parts_x, parts_g = [x1, x2], [g1, g2]
    if hash_class is not None:
        x3, g3 = _class_matches(doc_folder, np.asarray(hash_class, dtype=np.int64), anc, nf)
        parts_x.append(x3)
        parts_g.append(g3)
    keys = _unique_keys(np.concatenate(parts_x), np.concatenate(parts_g), nf)
    if keys.size == 0:
        return FolderPairs.empty()
    x, g = keys // nf, keys % nf
    # each matched document counts once for every folder above it
    g_rep, f = _expand(g, doc_folder[x], anc)
    fg, counts = np.unique(f * nf + g_rep, return_counts=True)
    f, g = fg // nf, fg % nf
    # a folder and its ancestor or descendant share documents: not a pair
    related = (anc[f] == g[:, None]).any(axis=1) | (anc[g] == f[:, None]).any(axis=1)
    fg, counts, f, g = fg[~related], counts[~related], f[~related], g[~related]
    lower = f < g
    a, b, matched_a = f[lower], g[lower], counts[lower]
    if a.size == 0:
        return FolderPairs.empty()
    reverse = b * nf + a  # the (b, a) row, present by symmetry of matching
    pos = np.minimum(np.searchsorted(fg, reverse), max(fg.size - 1, 0))
    found = fg[pos] == reverse
    matched_b = np.where(found, counts[pos], 0)
    n_a, n_b = sizes[a], sizes[b]
    share_a = matched_a / np.maximum(n_a, 1)
    share_b = matched_b / np.maximum(n_b, 1)
    hi, lo = np.maximum(share_a, share_b), np.minimum(share_a, share_b)
    keep = hi >= min_share
    order = np.lexsort((b[keep], a[keep], -lo[keep], -hi[keep]))
    sel = np.flatnonzero(keep)[order]
    return FolderPairs(a[sel], b[sel], n_a[sel], n_b[sel], matched_a[sel], matched_b[sel])


def covered_by(pairs: FolderPairs) -> list[tuple[int, int]]:
    """``(covered, cover)`` for every pair where one folder's documents are all matched in the other.

    A pair of folders that cover each other yields both directions; the caller picks.
    """
    out = []
    for k in range(len(pairs)):
        if pairs.matched_a[k] == pairs.n_a[k]:
            out.append((int(pairs.a[k]), int(pairs.b[k])))
        if pairs.matched_b[k] == pairs.n_b[k]:
            out.append((int(pairs.b[k]), int(pairs.a[k])))
    return out


def align_documents(
    docs_a: np.ndarray, docs_b: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray, score: np.ndarray
) -> list[tuple[int | None, int | None, float | None]]:
    """Two folders side by side: each document of a next to its best match in b.

    ``docs_a``, ``docs_b``: the document ids of each folder; ``pair_a``, ``pair_b``,
    ``score``: matches as (doc in a, doc in b, score), exact duplicates at 1.0. Matches are
    taken best first, each document once; a document left over that has a match is shown
    next to its best match again; then the documents of a, then of b, without any match,
    each alone on its row (None on the other side).
    """
    order = np.lexsort((pair_b, pair_a, -np.asarray(score, dtype=np.float64)))
    used_a: set[int] = set()
    used_b: set[int] = set()
    rows: list[tuple[int | None, int | None, float | None]] = []
    for k in order.tolist():
        x, y = int(pair_a[k]), int(pair_b[k])
        if x in used_a or y in used_b:
            continue
        used_a.add(x)
        used_b.add(y)
        rows.append((x, y, float(score[k])))
    best_a: dict[int, tuple[int, float]] = {}
    best_b: dict[int, tuple[int, float]] = {}
    for k in order.tolist():
        best_a.setdefault(int(pair_a[k]), (int(pair_b[k]), float(score[k])))
        best_b.setdefault(int(pair_b[k]), (int(pair_a[k]), float(score[k])))
    for x in (int(v) for v in docs_a):
        if x in best_a and x not in used_a:
            rows.append((x, best_a[x][0], best_a[x][1]))
    for y in (int(v) for v in docs_b):
        if y in best_b and y not in used_b:
            rows.append((best_b[y][0], y, best_b[y][1]))
    rows.extend((int(x), None, None) for x in docs_a if int(x) not in best_a)
    rows.extend((None, int(y), None) for y in docs_b if int(y) not in best_b)
    return rows
