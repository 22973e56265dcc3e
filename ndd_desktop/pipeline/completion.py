"""Completing a method's candidate search on the scale the pairs are stored on.

Every stored score is the share of text two documents have in common, verified on their
texts (:mod:`pipeline.verify_stage`), and a pair set is kept down to the floor on that
scale. The methods, though, search for candidates on their own scales, and some of them
reach only part of that range (``PairScores.complete_from``): qgram, bottomk and hybrid on
collections too large for an exact join band their sketches for their own default
(character 4-grams of unrelated English texts already overlap by a seventh, so bands
designed for less would compare nearly every pair), and fingerprint looks only for
near-identical texts. Two revisions that each kept half of a text and rewrote the rest
share half their words, well above the default threshold, yet only a third of their
4-grams beyond chance: on 20,000 documents qgram's bands missed 11 of 100 such pairs.

For such a search the scan adds the candidates of a second one, designed on the words:
MinHash over word 3-shingles with Broder's features chosen for the floor (the minhash
method's own search, :mod:`core.lsh`). A pair whose texts share a share ``s`` of their
words in passages shares at least ``s / (2 - s)`` of their 3-shingles (a third at the
default threshold 0.5), which the features find with probability >= 99.9 %; chance
matches of unrelated texts on word 3-shingles are rare. The union is verified as usual,
so the stored pairs and scores are those of the texts, whichever search found them.

The added search reads the words as the scan normalised them (what ``ignore`` names left
out); it does not apply hybrid's typo corrections, whose pairs its own search finds.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from ..core.lsh import acceptance_probability
from ..core.method import Method, PairScores
from ..core.methods import get_method
from ..core.minhash_sketch import resemblance_rows, sketch_matrix
from ..core.normalize import normalize

#: The method whose search completes the others (its default parameters: word 3-shingles,
#: 128 permutations, features chosen for the floor).
COMPLETING = "minhash"
#: A pair set counts as complete from the share at which the added search finds a pair
#: with at least this probability.
RECALL = 0.995
#: Part of every pair set's input digest: a pair set made before the searches were
#: completed is made again.
VERSION = "words-1"
#: Texts normalised and sketched at a time when the sketches are made from stored texts.
TEXT_BATCH = 1000


#: The name under which a scan holds the word sketches its workers made (store.sketches.hold).
HELD = f"words-{VERSION}"


def may_apply(method: Method, params: Any) -> bool:
    """Whether a scan with this method may need the word search (its workers then make the
    word sketches beside the method's own, see :func:`rows_of_normalised`)."""
    return method.partial_search and method.name != COMPLETING and not method.measures_containment(params)


def applies(method: Method, params: Any, scores: PairScores) -> bool:
    """Whether the method's search left part of the range above the floor unsearched, in
    a way the word search can complete (resemblance: both texts share the passages;
    containment of a short text in a long one is beyond any search on whole sets)."""
    return (scores.complete_from is not None and method.name != COMPLETING
            and not method.measures_containment(params))


def _completing() -> tuple[Method, Any]:
    m = get_method(COMPLETING)
    return m, m.params({})


def load_kernels() -> None:
    """Load the compiled code the word sketches are made with (``Method.load_sketch_kernels``
    of the completing method)."""
    m, p = _completing()
    m.load_sketch_kernels(p)


def sketches_of(texts: Sequence[str], ignore: str = "") -> np.ndarray:
    """(len(texts), t + 1) uint32: the word 3-shingle MinHash of each extracted text."""
    return rows_of_normalised([normalize(t, ignore) for t in texts])


def rows_of_normalised(texts: Sequence[str]) -> np.ndarray:
    """:func:`sketches_of` texts already normalised (the workers normalise once for both)."""
    m, p = _completing()
    if not texts:
        return np.empty((0, p.t + 1), dtype=np.uint32)
    return sketch_matrix(list(texts), p.unit, p.w, p.t)


def word_sketches(held, texts_of: Callable[[list[int]], dict[int, str]], ids: np.ndarray, ignore: str = "",
                  check: Callable[[], None] | None = None) -> np.ndarray:
    """The word sketches of the documents ``ids``, in that order: those the scan's workers
    made (``held``, bytes by document id: ``store.sketches.take_held(HELD)``, or None),
    the others made from their stored texts (:func:`sketches_from_store`)."""
    m, p = _completing()
    rows = np.empty((ids.shape[0], p.t + 1), dtype=np.uint32)
    missing = []
    for k, doc_id in enumerate(ids.tolist()):
        blob = held.get(doc_id) if held is not None else None
        if blob is not None and len(blob) == rows.shape[1] * 4:
            rows[k] = np.frombuffer(blob, dtype=np.uint32)
        else:
            missing.append(k)
    if missing:
        at = np.array(missing, dtype=np.int64)
        rows[at] = sketches_from_store(texts_of, ids[at], ignore, check)
    return rows


def sketches_from_store(texts_of: Callable[[list[int]], dict[int, str]], ids: np.ndarray, ignore: str = "",
                        check: Callable[[], None] | None = None) -> np.ndarray:
    """:func:`sketches_of` the stored texts of the documents ``ids`` (``texts_of`` reads
    them by id), a batch at a time; a missing text sketches as an empty one."""
    parts = []
    for start in range(0, ids.shape[0], TEXT_BATCH):
        if check is not None:
            check()
        part = [int(x) for x in ids[start : start + TEXT_BATCH].tolist()]
        texts = texts_of(part)
        parts.append(sketches_of([texts.get(x) or "" for x in part], ignore))
    m, p = _completing()
    return np.concatenate(parts) if parts else np.empty((0, p.t + 1), dtype=np.uint32)


#: A candidate of the word search is dropped when a pair sharing ``floor`` of its text would
#: show fewer equal minima with at most this probability (a normal distribution's tail
#: beyond four standard deviations).
SCREEN_MISS = 3.2e-5


def screen(floor: float) -> float:
    """The least estimated 3-shingle resemblance a candidate of the word search keeps.

    Most of the features' candidates in a large collection are chance matches of a few
    minima (unrelated texts that share a common phrase), which would each cost a look at
    the method's sketches and a verification. A pair sharing ``floor`` of its words in
    passages has a resemblance of at least j = floor / (2 - floor) (0.18 at 0.3), and the
    number of its t minima that are equal is binomial (t, j): the screen is the least
    count k with P(fewer than k) <= :data:`SCREEN_MISS`, as a share of t (7 of 128 at the
    floor 0.3, 5 at 0.25, 2 at 0.2).

    Until 2026-12-07 the count came from the normal approximation, j less four standard
    deviations of sqrt(j (1 - j) / t): 6 of 128 at 0.3, but 0 below 0.25, where the
    approximation fails in the tail. A floor of 0.2 then kept every candidate with one
    equal minimum: 5.9 million of 20,000 documents, five minutes of scoring and verifying
    for 2,297 pairs."""
    m, p = _completing()
    j = floor / (2.0 - floor)
    t = p.t
    below = 0.0  # P(at most k equal)
    for k in range(t + 1):
        below += math.comb(t, k) * j**k * (1.0 - j) ** (t - k)
        if below > SCREEN_MISS:
            return k / t
    return 1.0


def complete_from(floor: float) -> float:
    """The least share (a hundredth at a time, at least the floor) from which a pair whose
    texts share it in passages is found with probability >= RECALL."""
    m, p = _completing()
    k, s, r = m.filter_for(p, floor)
    shares = np.round(np.arange(max(floor, 0.01), 1.0001, 0.01), 2)
    ok = acceptance_probability(shares / (2.0 - shares), k, s, r) >= RECALL
    return float(shares[np.argmax(ok)]) if ok.any() else 1.0


def word_width() -> int:
    """The values of a word sketch (a row of :func:`sketches_of`)."""
    return _completing()[1].t + 1


def complete(method: Method, params: Any, scores: PairScores, sketches: Sequence[Any], words: np.ndarray,
             floor: float, dates: np.ndarray | None = None, fresh: np.ndarray | None = None,
             make: Callable[[np.ndarray], None] | None = None) -> PairScores:
    """``scores`` with the candidates the word search adds (their estimate the method's
    own score of the pair), and ``complete_from`` the share from which the word search
    finds a pair (:func:`complete_from`; the method's own limit was on its own scale).

    ``sketches`` are the method's sketches and ``words`` the rows of :func:`sketches_of`,
    both by the same document index as ``scores``; ``dates`` (seconds, NaN unknown) apply
    the method's ``window_hours`` to the added pairs as its own search applies it.
    With ``fresh`` (positions), only the candidates with one of those documents are added
    (``pipeline.changed_pairs``); ``make(positions)``, when given, makes the method's
    sketches of the documents of the added pairs before they are scored.
    """
    m, p = _completing()
    found = m.candidate_pairs(words, p, floor)  # the matrix itself: no list of a million rows
    n = max(len(sketches), 1)
    if fresh is not None and found.shape[0]:
        is_fresh = np.zeros(words.shape[0], dtype=bool)
        is_fresh[fresh] = True
        found = found[is_fresh[found[:, 0]] | is_fresh[found[:, 1]]]
    if found.shape[0]:
        lo, hi = np.minimum(found[:, 0], found[:, 1]), np.maximum(found[:, 0], found[:, 1])
        have = np.minimum(scores.i, scores.j) * n + np.maximum(scores.i, scores.j)
        new = ~np.isin(lo * n + hi, have)
        found = np.stack([lo[new], hi[new]], axis=1)
        found = within_window(found, params, dates)
        found = _screened(words, found, screen(floor))
    reach = complete_from(floor)  # on the share scale, whatever the method's own search reached
    if found.shape[0] == 0:
        return PairScores(scores.i, scores.j, scores.score, scores.cont_ij, scores.cont_ji, scores.extra, reach)
    if make is not None:
        make(np.unique(found))
    added = method.score_pairs(sketches, found, params)
    extra = {}
    for name, col in scores.extra.items():  # e.g. fingerprint's hamming: NaN for the pairs its search did not find
        more = added.extra.get(name)
        extra[name] = np.concatenate([col, np.full(len(added), np.nan) if more is None else more])
    return PairScores(np.concatenate([scores.i, added.i]), np.concatenate([scores.j, added.j]),
                      np.concatenate([scores.score, added.score]), np.concatenate([scores.cont_ij, added.cont_ij]),
                      np.concatenate([scores.cont_ji, added.cont_ji]), extra, reach)


#: Candidates screened at once: their two rows of word minima are gathered (about 1 KB a
#: candidate), so a million documents' chance candidates (millions) cost ~100 MB, not GB.
SCREEN_ROWS = 100_000


def _screened(words: np.ndarray, pairs: np.ndarray, least: float) -> np.ndarray:
    """The ``pairs`` whose rows of ``words`` give an estimated resemblance >= ``least``."""
    keep = np.empty(pairs.shape[0], dtype=bool)
    for start in range(0, pairs.shape[0], SCREEN_ROWS):
        part = pairs[start : start + SCREEN_ROWS]
        keep[start : start + SCREEN_ROWS] = resemblance_rows(words[part[:, 0]], words[part[:, 1]]) >= least
    return pairs[keep]


def within_window(pairs: np.ndarray, params: Any, dates: np.ndarray | None) -> np.ndarray:
    """The ``pairs`` (positions) whose documents' ``dates`` lie within the method's
    ``window_hours`` (all when it has none; an unknown date is within any)."""
    window = float(getattr(params, "window_hours", 0.0) or 0.0) * 3600.0
    if window <= 0 or dates is None or pairs.shape[0] == 0:
        return pairs
    di, dj = dates[pairs[:, 0]], dates[pairs[:, 1]]
    keep = np.isnan(di) | np.isnan(dj) | (np.abs(di - dj) <= window)
    return pairs[keep]
