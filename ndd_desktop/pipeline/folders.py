"""Near-duplicate folders of a collection: the store's documents and pairs through
:mod:`ndd_desktop.core.folders`, shared by ``ndd folders``, the window's Folders view and
the export's "leave out covered folders".

A document's folder is the folder of the file that carries it (a container member lies
in its container's folder); every folder up to the root is a folder of the collection.
Two documents match when they have the same content hash (exact duplicates) or a stored
pair at the threshold; a reviewer's "not duplicate" removes a pair, "duplicate" adds one.
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass

import numpy as np

from ..core.folders import FolderPairs, align_documents, ancestor_matrix, folder_pairs
from ..store import DocumentInfo, Store

#: Columns of ``ndd folders`` and of the window's Folders view.
FOLDER_COLUMNS = ["a", "b", "share_a", "share_b", "relation", "n_a", "n_b", "matched_a", "matched_b",
                  "a_root", "b_root"]
#: How the relations read in reports.
RELATION_TEXT = {"same": "same", "a_in_b": "a in b", "b_in_a": "b in a", "overlap": "overlap"}


@dataclass(frozen=True)
class Folder:
    """A folder of the collection: its root, its path inside the root ("" for the root) and on disk."""

    root: str
    relpath: str
    abspath: str


def _disk_folder(doc: DocumentInfo) -> str:
    return posixpath.dirname(doc.container or doc.relpath)


class FolderAnalysis:
    """The folders of a collection, the matches between their documents and the folder pairs."""

    def __init__(self, docs: list[DocumentInfo], pair_a: np.ndarray, pair_b: np.ndarray, score: np.ndarray,
                 min_share: float = 0.8):
        docs = [d for d in docs if d.relpath]  # a record of a root itself lies in no folder
        self.docs = docs
        self.doc_ids = np.array([d.id for d in docs], dtype=np.int64)
        index: dict[tuple[str, str], int] = {}
        folders: list[Folder] = []
        parents: list[int] = []

        def folder_of(root: str, rel: str) -> int:
            key = (root, rel)
            got = index.get(key)
            if got is not None:
                return got
            parent = -1 if rel == "" else folder_of(root, posixpath.dirname(rel))
            index[key] = len(folders)
            folders.append(Folder(root, rel, os.path.join(root, *rel.split("/")) if rel else root))
            parents.append(parent)
            return index[key]

        self.doc_folder = np.array([folder_of(d.root, _disk_folder(d)) for d in docs], dtype=np.int64)
        self.folders = folders
        self.parent = np.array(parents, dtype=np.int64)
        self.anc = ancestor_matrix(self.parent)
        classes: dict[str, int] = {}
        self.hash_class = np.array(
            [classes.setdefault(d.xxh128, len(classes)) if d.xxh128 else -1 for d in docs], dtype=np.int64)
        # stored pairs as document indices; pairs of documents gone since are dropped
        order = np.argsort(self.doc_ids)
        sorted_ids = self.doc_ids[order]

        def to_index(ids: np.ndarray) -> np.ndarray:
            pos = np.minimum(np.searchsorted(sorted_ids, ids), max(len(sorted_ids) - 1, 0))
            ok = sorted_ids[pos] == ids if len(sorted_ids) else np.zeros(len(ids), bool)
            return np.where(ok, order[pos] if len(order) else -1, -1)

        ia, ib = to_index(np.asarray(pair_a, dtype=np.int64)), to_index(np.asarray(pair_b, dtype=np.int64))
        ok = (ia >= 0) & (ib >= 0)
        self.match_a, self.match_b = ia[ok], ib[ok]
        self.match_score = np.asarray(score, dtype=np.float64)[ok]
        self.min_share = float(min_share)
        self.pairs: FolderPairs = folder_pairs(self.doc_folder, self.parent, self.match_a, self.match_b,
                                               self.hash_class, self.min_share)

    def __len__(self) -> int:
        return len(self.pairs)

    def display(self, folder: int) -> str:
        """A folder's path on disk."""
        return self.folders[folder].abspath

    def row(self, k: int) -> dict:
        """Pair ``k`` as an output row (see :data:`FOLDER_COLUMNS`)."""
        p = self.pairs
        a, b = int(p.a[k]), int(p.b[k])
        return {
            "a": self.display(a), "b": self.display(b),
            "share_a": round(float(p.share_a[k]), 6), "share_b": round(float(p.share_b[k]), 6),
            "relation": RELATION_TEXT[p.relation(k)],
            "n_a": int(p.n_a[k]), "n_b": int(p.n_b[k]),
            "matched_a": int(p.matched_a[k]), "matched_b": int(p.matched_b[k]),
            "a_root": self.folders[a].root, "b_root": self.folders[b].root,
        }

    def rows(self) -> list[dict]:
        """Every pair as an output row, best first."""
        return [self.row(k) for k in range(len(self.pairs))]

    def _index(self) -> None:
        """Folder -> documents below it, and document -> its matches, as sorted arrays (built once)."""
        if getattr(self, "_members", None) is not None:
            return
        rows = self.anc[self.doc_folder]
        keep = rows >= 0
        docs = np.broadcast_to(np.arange(len(self.docs), dtype=np.int64)[:, None], rows.shape)[keep]
        folders = rows[keep]
        order = np.lexsort((docs, folders))
        self._members = docs[order]
        self._member_start = np.searchsorted(folders[order], np.arange(len(self.folders) + 1))
        x = np.concatenate([self.match_a, self.match_b])
        y = np.concatenate([self.match_b, self.match_a])
        sc = np.concatenate([self.match_score, self.match_score])
        order = np.argsort(x, kind="stable")
        self._adj_y, self._adj_s = y[order], sc[order]
        self._adj_start = np.searchsorted(x[order], np.arange(len(self.docs) + 1))

    def documents_in(self, folder: int) -> np.ndarray:
        """Indices (into :attr:`docs`) of the documents below ``folder``."""
        self._index()
        return self._members[self._member_start[folder]:self._member_start[folder + 1]]

    def matches_between(self, docs_a: np.ndarray, docs_b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Matches (doc in a, doc in b, score) as document indices; exact duplicates score 1.0."""
        self._index()
        in_b = np.zeros(len(self.docs), bool)
        in_b[docs_b] = True
        starts, ends = self._adj_start[docs_a], self._adj_start[np.asarray(docs_a) + 1]
        counts = ends - starts
        xs = np.repeat(np.asarray(docs_a, dtype=np.int64), counts)
        pos = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        ys, ss = self._adj_y[pos], self._adj_s[pos]
        sel = in_b[ys]
        cls_b: dict[int, list[int]] = {}
        for y in np.asarray(docs_b).tolist():
            if self.hash_class[y] >= 0:
                cls_b.setdefault(int(self.hash_class[y]), []).append(y)
        ex, ey = [], []
        for x in np.asarray(docs_a).tolist():
            for y in cls_b.get(int(self.hash_class[x]), ()) if self.hash_class[x] >= 0 else ():
                ex.append(x)
                ey.append(y)
        return (np.concatenate([xs[sel], np.array(ex, dtype=np.int64)]),
                np.concatenate([ys[sel], np.array(ey, dtype=np.int64)]),
                np.concatenate([ss[sel], np.ones(len(ex))]))

    def align(self, folder_a: int, folder_b: int) -> list[tuple[DocumentInfo | None, DocumentInfo | None,
                                                                 float | None]]:
        """The two folders side by side: matching documents on one row, unmatched ones alone."""
        da, db = self.documents_in(folder_a), self.documents_in(folder_b)
        x, y, s = self.matches_between(da, db)
        rows = align_documents(da, db, x, y, s)
        pick = self.docs
        return [(None if i is None else pick[i], None if j is None else pick[j], sc) for i, j, sc in rows]


def match_arrays(store: Store, method: str, pairs_key: str,
                 threshold: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stored pairs at ``threshold`` with the reviewer's verdicts applied: (a, b, score)."""
    pa = store.pairs.arrays(method, pairs_key)
    keep = pa.score >= threshold
    a, b, score = pa.a[keep].astype(np.int64), pa.b[keep].astype(np.int64), pa.score[keep]
    verdicts = store.review.verdicts()
    if verdicts:
        not_dup = {k for k, v in verdicts.items() if v == "not_duplicate"}
        if not_dup:
            drop = np.array([(int(x), int(y)) in not_dup for x, y in zip(a, b)], dtype=bool)
            a, b, score = a[~drop], b[~drop], score[~drop]
        dup = [k for k, v in verdicts.items() if v == "duplicate"]
        if dup:
            a = np.concatenate([a, np.array([k[0] for k in dup], dtype=np.int64)])
            b = np.concatenate([b, np.array([k[1] for k in dup], dtype=np.int64)])
            score = np.concatenate([score, np.ones(len(dup))])
    return a, b, score


def analyse_folders(store: Store, method: str | None, pairs_key: str | None, threshold: float,
                    min_share: float = 0.8) -> FolderAnalysis:
    """The near-duplicate folders of the collection at ``threshold`` (no pair set: exact duplicates only)."""
    docs = store.documents.all(status=None)
    if method is None or pairs_key is None:
        z = np.empty(0, dtype=np.int64)
        return FolderAnalysis(docs, z, z, np.empty(0), min_share)
    a, b, score = match_arrays(store, method, pairs_key, threshold)
    return FolderAnalysis(docs, a, b, score, min_share)
