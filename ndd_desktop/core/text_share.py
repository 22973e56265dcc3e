"""The share of text two documents have in common: one scale for every method.

Each method finds candidate pairs with its own estimate (q-gram overlap, a MinHash sketch,
a fingerprint's Hamming distance, ...), and those estimates are not on one scale: 0.7 on
character 4-grams and 0.7 on word 3-shingles mean different things, and both rise for
texts that merely share a subject and its vocabulary. The pair is therefore verified on
the two texts themselves: the **share** of a document is the fraction of its words that
lie in a run of at least :data:`RUN` consecutive words found, in the same order, in the
other document. Five words in a row are evidence of copying or revising rather than of
a common subject: independent translations or two articles on one topic share single
words and short phrases ("in the year", "und er sprach") far more often than five-word
runs, while a revision keeps runs everywhere it did not edit, and a word it did edit
costs that one word, not the five shingles around it.

``share(a in b)`` and ``share(b in a)`` are the two containments; the pair's score is
their minimum (the share of *each* document found in the other: "the same document"),
and the measure "containment" takes their maximum ("one is copied into the other").
The default threshold on this scale is 0.5 for both, stated rather than fitted: at least
half of the text in common (see docs/quality.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from . import native
from .batch_hashing import extracted_word_spans, word_token_keys
from .hashing import POLY_BASE, RUN_SEED, mix64
from .unique import sorted_unique

#: Words in a row that count as shared text.
RUN = 5


@dataclass(frozen=True)
class Runs:
    """One document's words as 64-bit token hashes, with its runs computed on first use."""

    tokens: np.ndarray  # uint64, one per word, in text order

    @property
    def words(self) -> int:
        """How many words the document has."""
        return int(self.tokens.shape[0])

    def at(self, w: int = RUN) -> np.ndarray:
        """The hash of the run of ``w`` words starting at each word (the last ``w - 1`` start none)."""
        key = f"_at{w}"
        cached = self.__dict__.get(key)
        if cached is None:
            cached = _runs(self.tokens, w)
            object.__setattr__(self, key, cached)
        return cached

    def distinct(self, w: int = RUN) -> np.ndarray:
        """The distinct run hashes of ``w`` words, sorted."""
        key = f"_distinct{w}"
        cached = self.__dict__.get(key)
        if cached is None:
            cached = sorted_unique(self.at(w))
            object.__setattr__(self, key, cached)
        return cached


def _runs(tokens: np.ndarray, w: int) -> np.ndarray:
    m = max(int(tokens.shape[0]) - w + 1, 0)
    at = tokens[:m].copy()
    with np.errstate(over="ignore"):
        for k in range(1, w):
            at *= POLY_BASE
            at += tokens[k : k + m]
    return mix64(at ^ np.uint64(w), RUN_SEED)


def runs_of(normalized_text: str) -> Runs:
    """The words of a normalised text (``core.normalize.normalize``), ready for :func:`share_in`."""
    return runs_many([normalized_text])[0]


def share_in(a: Runs, b: Runs) -> float:
    """The fraction of ``a``'s words that lie in a run of :data:`RUN` words also found in ``b``.

    When ``a`` is shorter than a run, its run is as long as it is: a three-word text is
    found in another short text only as those three words in a row. A text is never found
    in one too short to hold its run: "Not approved" is not in "Approved" (a run shortened
    to the other's length found it half there, and the two notes scored 0.5, duplicates at
    the default threshold). Nor is a text shorter than a run found in a text that holds a
    whole run: a word or two in a row are no evidence of copying there ("Approved.",
    "Thank you" lie in a good share of any collection's letters), and with
    ``measure=containment`` every such note was wholly found in every letter holding its
    words, and tied unrelated letters into one group.
    """
    if a.words == 0 or b.words == 0:
        return 0.0
    w = min(RUN, a.words)
    if b.words < w or (w < RUN <= b.words):
        return 0.0
    hit = _member(a.at(w), b.distinct(w))
    # word i is covered when a matched run starts anywhere in [i - w + 1, i]: the full
    # convolution with w ones counts those runs, one value per word
    covered = np.convolve(hit.view(np.uint8), np.ones(w, dtype=np.uint8))
    return float(np.count_nonzero(covered)) / a.words


def _member(values: np.ndarray, sorted_pool: np.ndarray) -> np.ndarray:
    if sorted_pool.shape[0] == 0:
        return np.zeros(values.shape[0], dtype=bool)
    pos = np.searchsorted(sorted_pool, values)
    pos[pos == sorted_pool.shape[0]] = 0
    return sorted_pool[pos] == values


#: Words (both texts of every pair, summed over the pairs) up to which a process that has
#: not loaded the compiled kernel verifies pair by pair with :func:`share_in` instead:
#: about 0.2 us a word there, so at most about 0.2 s, where loading the kernel (numba)
#: costs 0.7-0.8 s. A scan of a few thousand files has a few hundred candidates.
UNCOMPILED_WORDS = 1_000_000


def shares(i: np.ndarray, j: np.ndarray, docs: Sequence[Runs],
           compiled: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(share of i in j, share of j in i)`` for every pair of indices into ``docs``.

    One compiled call for the whole batch (core.share_kernel); pairs with a text shorter
    than a run take the slower path of :func:`share_in`. ``compiled``: whether to use the
    kernel; None chooses :func:`share_in` for every pair when the batch is small
    (:data:`UNCOMPILED_WORDS`) and the kernel is not loaded in this process yet.
    """
    words = np.fromiter((d.words for d in docs), dtype=np.int64, count=len(docs))
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    if compiled is None:
        compiled = kernel_loaded() or int(words[i].sum() + words[j].sum()) > UNCOMPILED_WORDS
    if not compiled:
        return _shares_one_by_one(i, j, docs)
    from .share_kernel import covered_batch, sorted_runs

    starts = np.zeros(len(docs), dtype=np.int64)
    np.cumsum(words[:-1], out=starts[1:])
    tokens = np.concatenate([d.tokens for d in docs]) if docs else np.empty(0, dtype=np.uint64)
    srt, pos, off = sorted_runs(tokens, starts, words, RUN)
    ci, cj = covered_batch(srt, pos, off, i, j, RUN)
    with np.errstate(divide="ignore", invalid="ignore"):
        s_ij = np.where(words[i] > 0, ci / np.maximum(words[i], 1), 0.0)
        s_ji = np.where(words[j] > 0, cj / np.maximum(words[j], 1), 0.0)
    short = np.flatnonzero((np.minimum(words[i], words[j]) < RUN))
    for k in short.tolist():
        a, b = docs[int(i[k])], docs[int(j[k])]
        s_ij[k], s_ji[k] = share_in(a, b), share_in(b, a)
    return s_ij.astype(np.float64), s_ji.astype(np.float64)


def _shares_one_by_one(i: np.ndarray, j: np.ndarray, docs: Sequence[Runs]) -> tuple[np.ndarray, np.ndarray]:
    s_ij, s_ji = np.empty(i.shape[0], dtype=np.float64), np.empty(i.shape[0], dtype=np.float64)
    for k, (a, b) in enumerate(zip(i.tolist(), j.tolist())):
        s_ij[k], s_ji[k] = share_in(docs[a], docs[b]), share_in(docs[b], docs[a])
    return s_ij, s_ji


def kernel_loaded() -> bool:
    """Whether this process has the compiled kernel ready (asked without importing numba):
    always where the C loops are built (``core.native``)."""
    if native.LOOPS is not None:
        return True
    kernel = sys.modules.get(f"{__package__}.share_kernel")
    return kernel is not None and kernel.is_loaded()


def pair_score(s_ij: np.ndarray, s_ji: np.ndarray, containment: bool = False) -> np.ndarray:
    """The pair's score on the share scale: the smaller share (the larger for containment)."""
    return np.maximum(s_ij, s_ji) if containment else np.minimum(s_ij, s_ji)


def runs_many(texts: Sequence[str]) -> list[Runs]:
    """:func:`runs_of` for a batch of normalised texts, hashed together (a few array
    operations for the batch instead of a dozen per text)."""
    keys, first, count = word_token_keys(texts)
    return [Runs(keys[f : f + c]) for f, c in zip(first.tolist(), count.tolist())]


def runs_of_extracted(texts: Sequence[str]) -> list[Runs]:
    """:func:`runs_many` of the texts normalised (``core.normalize.normalize``), found
    without normalising the ASCII ones whole (``batch_hashing.extracted_word_spans``)."""
    out: list[Runs | None] = [None] * len(texts)
    for rows, spans in extracted_word_spans(texts):
        keys = spans.keys()
        for k, f, c in zip(rows, spans.first.tolist(), spans.counts.tolist()):
            out[k] = Runs(keys[f : f + c])
    return out  # type: ignore[return-value]


#: Default thresholds on the share scale, the same for every method (docs/quality.md):
#: "the same document" when at least half of each text is found in the other ...
DEFAULT_SHARE = 0.5
#: ... and "one is copied from the other" when a fifth of the smaller text is found in
#: the larger in runs of five words, which texts on one subject almost never share by chance.
DEFAULT_CONTAINED_SHARE = 0.2
