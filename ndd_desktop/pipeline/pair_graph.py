"""A pair set and its documents as arrays, prepared once for grouping at any threshold.

The window groups its pair set again at every move of the threshold slider; what does not
depend on the threshold is worked out here once: the documents as columns (ids sorted,
lengths, dates, reference flags, truncated texts), each pair's endpoints as positions in
those columns, the pairs sorted by value (so the pairs at a threshold are a prefix), a
sorted table of pair codes (`pair_lookup.PairLookup`: where a pair is without a dict of every pair) and the
keeper rules' order of the documents. ``pipeline.grouping.groups_at`` builds one for a
single call; the window's session keeps one per pair set shown.
"""

from __future__ import annotations

import math
import threading
from typing import Mapping

import numpy as np

from ..ingest.reasons import TEXT_TRUNCATED
from ..store import DocumentInfo, DocumentTable, PairArrays
from .pair_lookup import PairLookup

#: keeper rules whose order comes from the columns alone (the others need each document)
COLUMN_RULES = ("reference-oldest", "oldest", "newest", "longest")


class PairGraph:
    """The pairs of ``arrays`` over the documents of ``docs`` (by id); a pair with an
    endpoint missing from ``docs`` has position -1 there and never becomes an edge."""

    def __init__(self, arrays: PairArrays, docs: Mapping[int, DocumentInfo]):
        self.arrays = arrays
        self.docs = docs
        if isinstance(docs, DocumentTable):  # the columns without a document object each
            ids = list(docs)
            lengths, dates, refs, reasons = (docs.column(c) for c in ("text_length", "date", "reference", "reason"))
        else:
            ids = sorted(docs)
            info = [docs[i] for i in ids]
            lengths, dates, refs, reasons = ([getattr(d, c) for d in info]
                                             for c in ("text_length", "date", "reference", "reason"))
        self.ids = np.array(ids, dtype=np.int64)
        self.n = len(ids)
        self.length = np.array(lengths, dtype=np.int64)
        # as pipeline.grouping._date: no date (None or NaN) sorts last
        self.date = np.array([math.inf if d is None or math.isnan(d) else d for d in dates], dtype=np.float64)
        self.reference = np.array([bool(r) for r in refs], dtype=bool)
        self.truncated = np.array([TEXT_TRUNCATED in (r or "") for r in reasons], dtype=bool)
        self.a_pos = self.positions(arrays.a)
        self.b_pos = self.positions(arrays.b)
        self._lookup = PairLookup(arrays.a, arrays.b)
        #: no pair stored twice: the edges at a threshold join distinct pairs of documents
        self.distinct = self._lookup.distinct
        self._lock = threading.Lock()
        self._measures: dict[str, ByValue] = {}
        self._ranks: dict[str, np.ndarray] = {}
        self._by_length: np.ndarray | None = None

    def positions(self, doc_ids) -> np.ndarray:
        """The position of each document id in the columns, -1 where it is not there."""
        doc_ids = np.asarray(doc_ids, dtype=np.int64)
        if self.n == 0:
            return np.full(doc_ids.shape[0], -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.ids, doc_ids), self.n - 1)
        return np.where(self.ids[pos] == doc_ids, pos, -1)

    def pair_index(self, a, b) -> np.ndarray:
        """The index in the pair arrays of each pair (a < b), -1 where it is not stored."""
        return self._lookup.indices(a, b)

    def by_value(self, measure: str) -> ByValue:
        """The pairs in order of a measure's value ("score", or "containment": the larger
        containment, else the score), made on the first call for that measure."""
        with self._lock:
            got = self._measures.get(measure)
            if got is None:
                got = self._measures[measure] = ByValue(self, measure)
            return got

    def stored(self, value: np.ndarray, a, b) -> np.ndarray:
        """The stored ``value`` of each pair (a, b in either order), NaN where none is stored."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        idx = self.pair_index(np.minimum(a, b), np.maximum(a, b))
        if value.shape[0] == 0:  # a pair set with no pair
            return np.full(idx.shape[0], np.nan)
        return np.where(idx >= 0, value[idx], np.nan)

    def by_length(self) -> np.ndarray:
        """The positions by text length, longest first, then by position (the order
        principal groups choose their leaders in)."""
        with self._lock:
            if self._by_length is None:
                self._by_length = np.argsort(-self.length, kind="stable")
            return self._by_length

    def rank(self, rule: str) -> np.ndarray | None:
        """Each position's place in the order of keeper rule ``rule`` (0: kept first; a
        permutation of the positions), for the rules of :data:`COLUMN_RULES`; None for the
        others. The same order as ``pipeline.grouping.keeper_key``'s sort key."""
        if rule not in COLUMN_RULES:
            return None
        with self._lock:
            got = self._ranks.get(rule)
            if got is None:
                date = self.date
                if rule == "reference-oldest":
                    keys = (date, ~self.reference)
                elif rule == "oldest":
                    keys = (date,)
                elif rule == "newest":
                    keys = (np.where(date == math.inf, math.inf, -date),)
                else:  # longest
                    keys = (date, -self.length)
                order = np.lexsort((self.ids, self._path_ties(keys), *keys))
                got = np.empty(self.n, dtype=np.int64)
                got[order] = np.arange(self.n, dtype=np.int64)
                self._ranks[rule] = got
            return got

    def _path_ties(self, keys: tuple[np.ndarray, ...]) -> np.ndarray:
        """Where documents tie on ``keys`` (as ``np.lexsort`` takes them), their place in
        order of root and path (0 elsewhere): a tie goes to the first by folder and name,
        the same in every scan of the same files (document ids follow the order in which
        the workers finished)."""
        out = np.zeros(self.n, dtype=np.int64)
        if self.n < 2:
            return out
        order = np.lexsort(keys)
        same = np.ones(self.n - 1, dtype=bool)
        for key in keys:
            k = key[order]
            same &= k[1:] == k[:-1]
        tied = np.zeros(self.n, dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        where = order[tied]
        if where.shape[0]:
            docs, tied_ids = self.docs, self.ids[where].tolist()
            if isinstance(docs, DocumentTable):
                paths = docs.path_keys(tied_ids)
            else:
                paths = [f"{d.root}\0{d.relpath}" for d in map(docs.__getitem__, tied_ids)]
            by_path = sorted(range(len(paths)), key=paths.__getitem__)
            out[where[np.asarray(by_path, dtype=np.int64)]] = np.arange(len(by_path), dtype=np.int64)
        return out


class ByValue:
    """A pair graph's pairs by one measure's value: ``value`` (per pair, in the order of the
    pair arrays), ``order`` (the pairs by value descending, then a, then b), and in that
    order the endpoints' positions (``a_pos``, ``b_pos``: the pairs at a threshold are a
    prefix, so its edges are slices, never gathered), the values and their negatives
    (ascending, for ``searchsorted``) and each pair's smaller and larger share
    (``smaller_share``, ``larger_share``);
    ``place``: each pair's place in the order."""

    def __init__(self, graph: PairGraph, measure: str):
        pa = graph.arrays
        value = pa.score
        if measure == "containment" and len(pa):
            cont = np.fmax(pa.cont_ab, pa.cont_ba)
            value = np.where(np.isnan(cont), pa.score, cont)
        self.value = np.asarray(value, dtype=np.float64)
        self.order = np.lexsort((pa.b, pa.a, -self.value))
        self.place = np.empty(self.order.shape[0], dtype=np.int64)
        self.place[self.order] = np.arange(self.order.shape[0], dtype=np.int64)
        self.a_pos = graph.a_pos[self.order]
        self.b_pos = graph.b_pos[self.order]
        self.sorted = self.value[self.order]
        #: in the same order, the smaller and the larger of each pair's two shares (NaN: none stored)
        with np.errstate(invalid="ignore"):
            self.smaller_share = np.fmin(pa.cont_ab, pa.cont_ba)[self.order] if len(pa) else np.empty(0)
            self.larger_share = np.fmax(pa.cont_ab, pa.cont_ba)[self.order] if len(pa) else np.empty(0)
        self._neg = -self.sorted

    def count_at(self, threshold: float) -> int:
        """How many pairs have a value at or above ``threshold`` (NaN never does)."""
        return int(np.searchsorted(self._neg, -threshold, side="right"))
