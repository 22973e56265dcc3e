"""A rescan's pair search over the documents it changed only (qgram on a large collection).

qgram's sketches, q-gram sets of some 2,500 values, are not stored (``sketch_from_text``):
once anything changed, the pair stage made the set of every document again from its text,
and the word sketches of the completing search (``pipeline.completion``) too, in one
process. A rescan after touching 1 % of 20,000 files took longer than the first scan.

After a full search that was banded (a collection too large for an exact join: its pair
set is complete only from ``complete_from``, the rest found by the word search), each
document keeps a *record* beside its mark: its set's size, its word sketch and the low
16 bits of its screening signature (one one-permutation round, ``core.oph.oph_signatures``),
776 bytes. A
rescan whose pair set was current before it wrote its changes (``pair_stage.reusing``)
and that changed at most FRESH_SHARE of the documents (and few enough for FRESH_PAIRS)
then searches only what changed:

- pairs of two unchanged documents are those of the stored set (their sets and texts are
  as they were, and so are their scores: the verification takes them as they are);
- the changed and new documents ("fresh") are compared with all on the records
  (``core.screen_join``: bands of the screening signature designed for the same
  similarity as the banded search, with the same screen), and by the word search on the
  word sketches, completing the range as a full search does;
- the candidates are scored exactly on their q-gram sets, made for the documents involved
  only, and verified on their texts as every candidate is.

The fresh documents' records are kept for the next rescan. Anything else (no records, an
exact join before, many changes) takes the full search, which writes the records when it
is banded.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

import numpy as np

from ..core.method import Method, PairScores
from ..store import Store
from . import completion
from .worker_sketch import sketch_texts

#: Bins of a record's screening signature (``core.set_lsh.SCREEN_BINS``, whose screen it
#: passes through; not imported here: that loads the compiled kernels, which a rescan that
#: changed nothing never needs).
SCREEN_BINS = 128
#: Part of the records' key: records made another way are not compared with these.
RECORD_VERSION = "screen-2"
#: The largest share of a collection's documents a rescan may have changed and still
#: search only those (beyond it, the full search costs little more).
FRESH_SHARE = 0.1
#: The largest number of (fresh document, document) pairs a rescan compares on the records
#: (the screen's work: about 6 % of them agree in a band by chance on English-like text,
#: and each of those is screened): 2,000 fresh documents of a million, a tenth of 100,000.
FRESH_PAIRS = 2_000_000_000
#: Texts read and sketched at once.
TEXT_BATCH = 500
#: Records made and written at once (about 40 MB of them and their signatures).
RECORD_BATCH = 50_000


def applies(method: Method, params: Any) -> bool:
    """Whether the method keeps records: its sketches are made from the text and its
    search may be banded and completed by the word search."""
    return bool(method.sketch_from_text) and completion.may_apply(method, params)


def may_search(store: Store, method: Method, params: Any, changed: set[int] | None) -> bool:
    """Whether a rescan that wrote ``changed`` (None: its pair set was not current before)
    is likely to search what changed only: the stored pair set was banded, and the
    documents without a record, these among them, are at most FRESH_SHARE of all
    (:func:`search_changed` decides on the documents themselves)."""
    if changed is None or not applies(method, params):
        return False
    stored = store.pairs.find_set(method.name, method.pairs_key(params))
    if stored is None or stored.complete_from is None:
        return False
    name, key = record_name(method, method.sketch_key(params))
    documents = store.documents.count("ok")
    kept = store.sketches.kept_ids(name, key)
    rewritten = np.isin(np.fromiter(changed, dtype=np.int64, count=len(changed)), kept, kind="sort").sum()
    fresh = documents - kept.shape[0] + int(rewritten)
    return documents >= 2 and fresh <= FRESH_SHARE * documents and fresh * documents <= FRESH_PAIRS


def record_name(method: Method, sketch_key: str) -> tuple[str, str]:
    """The name and key the records are stored under (``store.sketches.keep``)."""
    spec = f"{sketch_key}|{RECORD_VERSION}|{completion.VERSION}|{SCREEN_BINS}"
    return f"{method.name}:record", hashlib.sha256(spec.encode()).hexdigest()[:16]  # as short as a sketch key


def design_jaccard(method: Any, params: Any, floor: float) -> float:
    """The Jaccard similarity the method's banded search is designed for (as
    ``core.inverted_index.overlap_join`` takes it)."""
    from ..core.inverted_index import least_jaccard

    own = method.lsh_design_jaccard(params, floor)
    return float(own) if own is not None else least_jaccard(max(floor, float(method.default_threshold)))


def _layout() -> np.dtype:
    """A record: the set's size, the word sketch (``completion.word_width`` 32-bit values)
    and the low 16 bits of each bin of the screening signature (two documents' bins then
    agree by chance once in 65,536 where they differ: the screen's estimate moves by less
    than a thousandth)."""
    return np.dtype([("size", "<u4"), ("words", "<u4", (completion.word_width(),)), ("sig", "<u2", (SCREEN_BINS,))])


def _low_bits(sig: np.ndarray) -> np.ndarray:
    """A signature as its record keeps it (in 32-bit values, for the kernels)."""
    return sig & np.uint32(0xFFFF)


def _pack(sizes: np.ndarray, sig: np.ndarray, words: np.ndarray) -> list[bytes]:
    layout = _layout()
    rows = np.zeros(sizes.shape[0], dtype=layout)
    rows["size"], rows["words"], rows["sig"] = sizes, words, _low_bits(sig)
    data, width = rows.tobytes(), layout.itemsize
    return [data[k * width : (k + 1) * width] for k in range(sizes.shape[0])]


def keep_records(store: Store, method: Method, sketch_key: str, ids: np.ndarray, docs: np.ndarray,
                 sketches: Sequence[np.ndarray], sizes: np.ndarray, words: np.ndarray, unread: set[int]) -> int:
    """Store the records of the documents at positions ``docs`` (``sketches`` and ``words``
    by position, ``sizes`` the sets' sizes), replacing any they had, except of those in
    ``unread`` (ids: their text could not be read, so their set and word sketch are an empty
    text's), whose records go: the scan that reads them again, perhaps with the same content,
    makes theirs. How many were stored."""
    from ..core.oph import oph_signatures

    name, key = record_name(method, sketch_key)
    docs = np.asarray(docs, dtype=np.int64)
    if unread:
        lost = np.fromiter(unread, dtype=np.int64, count=len(unread))
        store.sketches.forget_kept(name, key, lost.tolist())
        docs = docs[~np.isin(ids[docs], lost, kind="sort")]
    for start in range(0, docs.shape[0], RECORD_BATCH):  # memory: a batch's records at a time
        part = docs[start : start + RECORD_BATCH]
        sig = oph_signatures(sketches, part, sizes[part], SCREEN_BINS)
        store.sketches.keep(name, key, list(zip(ids[part].tolist(), _pack(sizes[part], sig, words[part]))))
    return int(docs.shape[0])


def _records(store: Store, method: Method, sketch_key: str, ids: np.ndarray):
    """(have, sizes, signatures, words) of the documents ``ids`` (by position): what their
    records hold, zeros where ``have`` is false."""
    name, key = record_name(method, sketch_key)
    n, layout = ids.shape[0], _layout()
    have = np.zeros(n, dtype=bool)
    sizes = np.zeros(n, dtype=np.int64)
    sig = np.zeros((n, SCREEN_BINS), dtype=np.uint32)
    words = np.zeros((n, completion.word_width()), dtype=np.uint32)
    if n == 0:
        return have, sizes, sig, words
    for kept_ids, blobs in store.sketches.kept(name, key):  # a batch at a time, into the arrays
        at = np.minimum(np.searchsorted(ids, kept_ids), n - 1)
        ok = (ids[at] == kept_ids) & np.fromiter((len(b) == layout.itemsize for b in blobs), dtype=bool,
                                                  count=len(blobs))
        good = np.flatnonzero(ok)
        if good.shape[0]:
            rows = np.frombuffer(b"".join(blobs[k] for k in good.tolist()), dtype=layout)
            where = at[good]
            have[where], sizes[where], sig[where], words[where] = True, rows["size"], rows["sig"], rows["words"]
    return have, sizes, sig, words


class _SomeSets(Sequence):
    """The q-gram sets of a collection's documents by position, of those made only."""

    def __init__(self, n: int, dtype: np.dtype) -> None:
        self._n = n
        self.dtype = np.dtype(dtype)
        self._empty = np.empty(0, dtype=dtype)
        self.made: dict[int, np.ndarray] = {}

    def __len__(self) -> int:
        return self._n

    @property
    def sizes(self) -> np.ndarray:
        """The values of each set (0 for those not made)."""
        out = np.zeros(self._n, dtype=np.int64)
        if self.made:
            out[np.fromiter(self.made, dtype=np.int64)] = [s.shape[0] for s in self.made.values()]
        return out

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._n))]
        if not -self._n <= k < self._n:
            raise IndexError(k)
        return self.made.get(int(k) % self._n, self._empty)


def search_changed(store: Store, method: Method, params: Any, floor: float, ids: np.ndarray,
                   sketches: Sequence[np.ndarray], unmade: list[int], dates: np.ndarray, changed: set[int],
                   unread: set[int], check: Callable[[], None]) -> PairScores | None:
    """The pairs of the documents ``ids`` (positions as in ``sketches``, where the sets this
    scan made are, the others empty: ``unmade`` their positions) found by searching what
    changed only, or None when that does not apply (see the module's text)."""
    from ..core.oph import oph_signatures
    from ..core.screen_join import fresh_candidates

    if not applies(method, params) or len(ids) < 2:
        return None
    sketch_key, pairs_key = method.sketch_key(params), method.pairs_key(params)
    stored = store.pairs.find_set(method.name, pairs_key)
    if stored is None or stored.complete_from is None:  # an exact join before: none is banded now
        return None
    n = ids.shape[0]
    have, sizes, sig, words = _records(store, method, sketch_key, ids)
    touched = np.isin(ids, np.fromiter(changed, dtype=np.int64, count=len(changed)), kind="sort") if changed else \
        np.zeros(n, dtype=bool)
    fresh = np.flatnonzero(touched | ~have)
    if fresh.shape[0] > FRESH_SHARE * n or fresh.shape[0] * n > FRESH_PAIRS:
        return None
    sets = _SomeSets(n, np.dtype(method.sketch_dtype))
    unmade_mask = np.zeros(n, dtype=bool)
    unmade_mask[np.asarray(unmade, dtype=np.int64)] = True

    def make(docs: np.ndarray) -> None:  # the sets of these positions, from the spool or the texts
        todo = [int(k) for k in docs.tolist() if int(k) not in sets.made]
        from_text = [k for k in todo if unmade_mask[k]]
        for k in todo:
            if not unmade_mask[k]:
                sets.made[k] = np.asarray(sketches[k])
        for start in range(0, len(from_text), TEXT_BATCH):
            check()
            part = from_text[start : start + TEXT_BATCH]
            texts = store.documents.texts([int(ids[k]) for k in part])
            unread.update(int(ids[k]) for k in part if int(ids[k]) not in texts)
            for k, s in zip(part, sketch_texts(method, params, [texts.get(int(ids[k]), "") for k in part])):
                sets.made[k] = np.asarray(s, dtype=method.sketch_dtype)

    make(fresh)
    if fresh.shape[0]:
        sizes[fresh] = [sets.made[int(k)].shape[0] for k in fresh.tolist()]
        sig[fresh] = _low_bits(oph_signatures(sets, fresh, sizes[fresh], SCREEN_BINS))
        held = store.sketches.take_held(completion.HELD)
        try:
            words[fresh] = completion.word_sketches(held, store.documents.texts, ids[fresh],
                                                    getattr(params, "ignore", ""), check=check)
        finally:
            if held is not None:
                held.close()
    check()
    i, j = fresh_candidates(sig, sizes, fresh, design_jaccard(method, params, floor))
    own = PairScores.empty()
    if i.shape[0]:
        own = _scored(method, params, sets, make, np.stack([i, j], axis=1), dates, floor)
    check()
    scores = completion.complete(method, params, own, sets, words, floor, dates, fresh=fresh, make=make)
    old = _unchanged_pairs(store, method.name, pairs_key, ids, fresh)
    keep_records(store, method, sketch_key, ids, fresh, sets, sizes, words, unread)
    return PairScores(np.concatenate([old.i, scores.i]), np.concatenate([old.j, scores.j]),
                      np.concatenate([old.score, scores.score]), np.concatenate([old.cont_ij, scores.cont_ij]),
                      np.concatenate([old.cont_ji, scores.cont_ji]), {}, stored.complete_from)


def _scored(method: Method, params: Any, sets: _SomeSets, make: Callable[[np.ndarray], None], pairs: np.ndarray,
            dates: np.ndarray, floor: float) -> PairScores:
    """The candidate ``pairs`` within the method's time window, scored exactly on their
    sets, those at or above ``floor``."""
    pairs = completion.within_window(pairs, params, dates)
    if pairs.shape[0] == 0:
        return PairScores.empty()
    make(np.unique(pairs))
    scored = method.score_pairs(sets, pairs, params)
    return scored.select(scored.score >= floor)


def _unchanged_pairs(store: Store, name: str, pairs_key: str, ids: np.ndarray, fresh: np.ndarray) -> PairScores:
    """The stored pairs of two documents of ``ids`` that are not ``fresh``, by position,
    scored by the method's estimate (the verification takes their shares as stored)."""
    old = store.pairs.arrays(name, pairs_key, check_documents=False)
    n = ids.shape[0]
    if len(old) == 0 or n == 0:
        return PairScores.empty()
    pa = np.minimum(np.searchsorted(ids, old.a), n - 1)
    pb = np.minimum(np.searchsorted(ids, old.b), n - 1)
    ok = (ids[pa] == old.a) & (ids[pb] == old.b)
    is_fresh = np.zeros(n, dtype=bool)
    is_fresh[fresh] = True
    ok &= ~(is_fresh[pa] | is_fresh[pb])
    i, j = np.minimum(pa, pb)[ok], np.maximum(pa, pb)[ok]
    swap = (pa > pb)[ok]
    cab, cba = old.cont_ab[ok], old.cont_ba[ok]
    estimate = np.where(np.isnan(old.estimate[ok]), old.score[ok], old.estimate[ok])
    return PairScores(i, j, estimate, np.where(swap, cba, cab), np.where(swap, cab, cba))
