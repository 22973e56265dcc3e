"""The verification stage of a scan: every candidate pair is scored on its two texts.

The method's search gives candidates with its own estimate (``PairScores.score``); here the
two stored texts of each candidate are compared (``core.text_share``): the share of each
document found in the other in runs of five words. The pair's score becomes the smaller
share (the larger with ``measure=containment``), its containments the two shares, and the
method's estimate is kept beside them (``extra["estimate"]``). So every stored score means
the same whatever the method, and one default threshold serves all of them.

Texts are read from the store a slice of documents at a time and turned into word runs
once per document; pairs are verified in batches, in the order of their first document,
so that a document's runs are built once and dropped when no later batch needs them.
A scan that read files hands the work to helper processes (``pipeline.verify_helpers``),
which loaded the compiled kernel while the extraction ran.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

import numpy as np

from ..core.method import Method, PairScores
from ..core.normalize import normalize
from ..core.text_share import Runs, pair_score, runs_many, runs_of_extracted, shares
from ..core.thread_slot import ThreadSlot
from ..core.unique import sorted_unique

if TYPE_CHECKING:
    from .verify_helpers import VerifyHelpers


@dataclass(frozen=True)
class StoredShares:
    """The two shares of pairs verified before, which a rescan takes as they are when
    neither document changed since (``pair_stage.reusing``): by pair of document ids."""

    keys: np.ndarray  # sorted uint64 (smaller id << 32 | larger id)
    s_lo: np.ndarray  # share of the smaller id's document found in the other
    s_hi: np.ndarray

    @classmethod
    def of(cls, a: np.ndarray, b: np.ndarray, cont_ab: np.ndarray, cont_ba: np.ndarray,
           changed: set[int]) -> StoredShares | None:
        """From a stored pair set's columns (a < b), leaving out the pairs of ``changed``
        documents; None when none is left or ids do not fit the keys."""
        a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
        if a.shape[0] == 0 or max(int(a.max()), int(b.max())) >= 1 << 32 or min(int(a.min()), int(b.min())) < 0:
            return None
        keep = np.isfinite(cont_ab) & np.isfinite(cont_ba)
        if changed:
            gone = np.fromiter(changed, dtype=np.int64, count=len(changed))
            keep &= ~(np.isin(a, gone) | np.isin(b, gone))
        if not keep.any():
            return None
        keys = _pair_keys(a[keep], b[keep])
        order = np.argsort(keys, kind="stable")
        return cls(keys[order], np.asarray(cont_ab)[keep][order], np.asarray(cont_ba)[keep][order])

    def lookup(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(found, share of x in y, share of y in x) for the pairs of document ids x, y."""
        lo, hi = np.minimum(x, y), np.maximum(x, y)
        keys = _pair_keys(lo, hi)
        at = np.minimum(np.searchsorted(self.keys, keys), self.keys.shape[0] - 1)
        first = x <= y
        return (self.keys[at] == keys, np.where(first, self.s_lo[at], self.s_hi[at]),
                np.where(first, self.s_hi[at], self.s_lo[at]))


def _pair_keys(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return (np.asarray(lo, dtype=np.uint64) << np.uint64(32)) | np.asarray(hi, dtype=np.uint64)


class TextSource(Protocol):
    """Where the verification reads texts: the store's ``Documents``, or a helper's
    ``store.text_reading.TextReader``."""

    def texts(self, doc_ids: Sequence[int]) -> dict[int, str]: ...


#: Documents whose texts are read in one query.
TEXT_BATCH = 500
#: Pairs verified in one compiled call (between two checks of the cancel token).
PAIR_BATCH = 20_000
#: Bump when the verification changes, so stored pair sets are recomputed.
#: v2: hybrid verifies its corrected words; v3: a text shorter than a run is found in
#: another only as a whole, and never in a shorter one (core.text_share.share_in); v4: nor
#: in a text long enough to hold a whole run
VERIFY_VERSION = "share-5w-v4"


def verify_pairs(documents: TextSource, method: Method, params: Any, scores: PairScores, ids: np.ndarray,
                 floor: float, check: Callable[[], None] | None = None,
                 progress: Callable[[int], None] | None = None, known: StoredShares | None = None,
                 unread: set[int] | None = None) -> PairScores:
    """Score every candidate on its texts and keep those at or above ``floor``.

    ``ids[k]`` is the document id of sketch index k (as ``scores.i``/``scores.j`` index).
    The work goes to the helper processes installed with :func:`helped_by`, if any.
    ``known``: shares verified before, taken as they are for the pairs it holds.
    ``unread``, when given, receives both documents of every candidate that could not be
    verified because one of its texts could not be read (its shares are NaN, so it is
    not kept).
    """
    n = len(scores)
    if n == 0:
        return replace(scores, extra={**scores.extra, "estimate": scores.score.copy()})
    order = np.lexsort((scores.j, scores.i))
    a, b = ids[scores.i[order]], ids[scores.j[order]]
    s_ij, s_ji = np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64)
    todo = np.arange(n)
    if known is not None:
        found, s_a, s_b = known.lookup(a, b)
        s_ij[found], s_ji[found] = s_a[found], s_b[found]
        todo = np.flatnonzero(~found)

    def here(a: np.ndarray, b: np.ndarray, progress=None) -> tuple[np.ndarray, np.ndarray]:
        return pair_shares(documents, method, params, a, b, check, progress)

    helpers = _helpers.get()
    if todo.shape[0]:
        verify = here if helpers is None else lambda x, y, p: helpers.shares(x, y, here, check, p)
        s_ij[todo], s_ji[todo] = verify(a[todo], b[todo], progress)
        if unread is not None:
            lost = todo[np.isnan(s_ij[todo]) | np.isnan(s_ji[todo])]
            unread.update(a[lost].tolist())
            unread.update(b[lost].tolist())
    if progress is not None:
        progress(n)
    back = np.empty(n, dtype=np.int64)
    back[order] = np.arange(n)
    s_ij, s_ji = s_ij[back], s_ji[back]
    verified = pair_score(s_ij, s_ji, containment=method.measures_containment(params))
    out = PairScores(scores.i, scores.j, verified, s_ij, s_ji,
                     {**scores.extra, "estimate": np.asarray(scores.score, dtype=np.float64)},
                     scores.complete_from)
    return out.select(verified >= floor)


_helpers: "ThreadSlot[VerifyHelpers]" = ThreadSlot()


def helped_by(helpers: "VerifyHelpers | None") -> AbstractContextManager[None]:
    """Within the block, :func:`verify_pairs` on this thread hands its pairs to ``helpers``
    (``pipeline.verify_helpers``; None: verify here)."""
    return _helpers.installed(helpers)


def pair_shares(documents: TextSource, method: Method, params: Any, a: np.ndarray, b: np.ndarray,
                check: Callable[[], None] | None = None,
                progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(share of a in b, share of b in a)`` for the documents ``a[k], b[k]`` (ids; best
    in the order of ``a``, so that a document's runs are built once); NaN both ways where a
    text could not be read (a text kept as its file, and the file changed or unreadable
    since the scan: ``store.originals``), where an empty text would score 0 and lose the pair."""
    n = a.shape[0]
    last = _last_use(a, b)
    cache: dict[int, Runs] = {}
    unread: set[int] = set()
    s_ab = np.empty(n, dtype=np.float64)
    s_ba = np.empty(n, dtype=np.float64)
    for start in range(0, n, PAIR_BATCH):
        if check is not None:
            check()
        if progress is not None:
            progress(start)
        stop = min(start + PAIR_BATCH, n)
        ca, cb = a[start:stop], b[start:stop]
        needed = sorted_unique(np.concatenate((ca, cb)))
        _load(documents, needed, cache, method, params, unread)
        local = {int(d): k for k, d in enumerate(needed.tolist())}
        docs = [cache[int(d)] for d in needed.tolist()]
        la = np.fromiter((local[x] for x in ca.tolist()), dtype=np.int64, count=ca.shape[0])
        lb = np.fromiter((local[x] for x in cb.tolist()), dtype=np.int64, count=cb.shape[0])
        s_ab[start:stop], s_ba[start:stop] = shares(la, lb, docs)
        if unread:
            gone = np.isin(ca, list(unread)) | np.isin(cb, list(unread))
            s_ab[start:stop][gone] = np.nan
            s_ba[start:stop][gone] = np.nan
        for d in needed.tolist():  # drop what no later pair needs: memory stays bounded
            if last[int(d)] < stop:
                del cache[int(d)]
    return s_ab, s_ba


def _last_use(i: np.ndarray, j: np.ndarray) -> dict[int, int]:
    """For every document, the position of the last pair (in this order) that uses it."""
    last: dict[int, int] = {}
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
        last[a] = k
        last[b] = k
    return last


def _load(documents: TextSource, needed: np.ndarray, cache: dict[int, Runs], method: Method, params: Any,
          unread: set[int]) -> None:
    """Read and split the texts of the documents (ids) in ``needed`` that are not cached,
    read as the method read them: what the scan ignores (links, numbers, ...) left out, and
    the words as the method sees them (``Method.texts_to_verify``: hybrid corrects typos).
    A document whose text could not be read goes into ``unread``."""
    ignore = getattr(params, "ignore", "")
    missing = [int(x) for x in needed.tolist() if int(x) not in cache]
    for start in range(0, len(missing), TEXT_BATCH):
        part = missing[start : start + TEXT_BATCH]
        texts = documents.texts(part)
        unread.update(x for x in part if x not in texts)
        extracted = [texts.get(x) or "" for x in part]
        if method.verifies_as_read and not ignore:
            made = runs_of_extracted(extracted)
        else:
            made = runs_many(method.texts_to_verify([normalize(t, ignore) for t in extracted], params))
        for x, runs in zip(part, made):
            cache[x] = runs
