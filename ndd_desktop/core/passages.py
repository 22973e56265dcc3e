"""Where two documents share text: the passages of one found in the other, and the rest.

The pair's score (:mod:`.text_share`) says *how much* of each document lies in runs of
:data:`~.text_share.RUN` words found in the other; this module says *where*. Both texts are
cut into the words :func:`.hashing.token_hashes` sees (of the normalised text: case folded,
NFKC), each word keeping its character range in the text as stored, so a passage can be
shown and placed (:mod:`.places`).

A **run** is a maximal stretch of at least ``RUN`` words in the same order in both texts:
every ``RUN``-word window of A whose hash occurs in B is extended greedily word by word.
Runs separated in both texts by at most :data:`MERGE_GAP` words (a corrected word, a changed
date) are merged into one **passage**. The gaps between the passages that keep the order
of both texts are the **differences** (removed, added or changed text) the group view shows.

The document shares reported with the passages are :func:`.text_share.share_in` of the two
texts: the same figures as the stored pair (``cont_ab``/``cont_ba``), whatever the passages.
Work is bounded by a deadline: a pair too large for it returns the passages found so far
with ``complete=False``.
"""

from __future__ import annotations

import bisect
import time
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from .hashing import token_spans
from .text_share import RUN, Runs, share_in

#: Runs this many words apart (or fewer) in both texts are one passage.
MERGE_GAP = 3
#: A document at least this share of which lies in the other is "contained" in it.
CONTAINED = 0.9


@dataclass(frozen=True)
class Words:
    """A text's words as token hashes, with the character range of each in the text."""

    text: str
    hashes: np.ndarray  # uint64
    starts: np.ndarray  # int64, character offsets into ``text``
    ends: np.ndarray

    def __len__(self) -> int:
        return int(self.hashes.shape[0])

    def chars(self, w0: int, w1: int) -> tuple[int, int]:
        """The character range of words ``[w0, w1)`` (an empty range at ``w0`` when none)."""
        if w1 <= w0:
            pos = int(self.starts[w0]) if w0 < len(self) else len(self.text)
            return pos, pos
        return int(self.starts[w0]), int(self.ends[w1 - 1])


def words_of(text: str | None) -> Words:
    """The words of a stored text, as the share measure sees them, with their places."""
    text = text or ""
    if text.isascii():
        folded, back = text.lower(), None  # same length: positions carry over
    else:
        folded = unicodedata.normalize("NFKC", text).casefold()
        back = None
        if len(folded) != len(text):
            # a character that folds into several (ß -> ss, ﬁ -> fi): fold one at a time and
            # remember where each folded character came from
            pieces, origin = [], []
            for k, ch in enumerate(text):
                f = unicodedata.normalize("NFKC", ch).casefold()
                pieces.append(f)
                origin.extend([k] * len(f))
            folded = "".join(pieces)
            back = np.asarray(origin + [len(text)], dtype=np.int64)
    h, s, e = token_spans(folded)
    if back is not None and h.shape[0]:
        s, e = back[s], back[e - 1] + 1
    return Words(text, h, s, e)


@dataclass(frozen=True)
class Passage:
    """Words ``[a0, a1)`` of A found as words ``[b0, b1)`` of B (small edits inside merged)."""

    a0: int
    a1: int
    b0: int
    b1: int

    @property
    def words_a(self) -> int:
        """Length of the passage in A, in words."""
        return self.a1 - self.a0

    @property
    def words_b(self) -> int:
        """Length of the passage in B, in words."""
        return self.b1 - self.b0


@dataclass(frozen=True)
class Difference:
    """Words ``[a0, a1)`` of A and ``[b0, b1)`` of B between two shared passages.

    ``kind``: "removed" (only in A), "added" (only in B) or "changed" (both sides)."""

    kind: str
    a0: int
    a1: int
    b0: int
    b1: int


@dataclass
class Shared:
    """The passages two texts share, with each document's share found in the other."""

    words_a: int
    words_b: int
    share_a: float  # of A's words, the share found in B
    share_b: float
    passages: list[Passage] = field(default_factory=list)
    complete: bool = True
    runs: list[Passage] = field(default_factory=list)  # before merging: every edit between them

    @property
    def a_in_b(self) -> bool:
        """A (nearly) wholly found in B: a short text quoted in a longer one."""
        return self.words_a > 0 and self.share_a >= CONTAINED

    @property
    def b_in_a(self) -> bool:
        """B (nearly) wholly found in A."""
        return self.words_b > 0 and self.share_b >= CONTAINED


def common_runs(a: np.ndarray, b: np.ndarray, *, deadline: float | None = None) -> tuple[list[tuple[int, int, int]], bool]:
    """Maximal runs ``(i, j, n)``: ``a[i:i+n] == b[j:j+n]``, ``n >= RUN`` (the shorter text's
    length when it has fewer words), in order of ``i``; and whether the search finished
    before ``deadline`` (a ``time.monotonic()`` value)."""
    na, nb = int(a.shape[0]), int(b.shape[0])
    w = min(RUN, na, nb)
    if w == 0:
        return [], True
    at_a, at_b = Runs(a).at(w), Runs(b).at(w)
    order = np.argsort(at_b, kind="stable")
    pool = at_b[order]
    pos = np.minimum(np.searchsorted(pool, at_a), pool.shape[0] - 1)
    hits = np.flatnonzero(pool[pos] == at_a)
    runs: list[tuple[int, int, int]] = []
    k, steps = 0, 0
    next_j = -1
    while k < hits.shape[0]:
        steps += 1
        if deadline is not None and steps % 64 == 1 and time.monotonic() > deadline:
            return runs, False
        i = int(hits[k])
        lo = int(pos[i])
        hi = int(np.searchsorted(pool, at_a[i], side="right"))
        cands = order[lo:hi]  # B positions with this window, ascending (stable sort)
        j = _pick(cands, next_j)
        n = _extend(a, b, i, j, w)
        if n < w:  # a hash collision, not the same words
            k += 1
            continue
        runs.append((i, j, n))
        next_j = j + n
        # windows starting inside the run are part of it; those reaching past its end may
        # match elsewhere in B and are looked at next
        k = int(np.searchsorted(hits, i + n - w + 1))
    return runs, True


def _pick(cands: np.ndarray, next_j: int) -> int:
    """The B position to pair with: the one continuing the last run's order if any."""
    if cands.shape[0] == 1:
        return int(cands[0])
    after = int(np.searchsorted(cands, max(next_j, 0)))
    return int(cands[after]) if after < cands.shape[0] else int(cands[0])


def _extend(a: np.ndarray, b: np.ndarray, i: int, j: int, w: int) -> int:
    """How many words from ``a[i]`` and ``b[j]`` on are equal (0 when the first ``w`` differ)."""
    limit = min(a.shape[0] - i, b.shape[0] - j)
    if not np.array_equal(a[i:i + w], b[j:j + w]):
        return 0
    n, step = w, 64
    while n < limit:
        m = min(step, limit - n)
        diff = np.flatnonzero(a[i + n:i + n + m] != b[j + n:j + n + m])
        if diff.shape[0]:
            return n + int(diff[0])
        n += m
        step *= 2
    return n


def merge_runs(runs: list[tuple[int, int, int]], gap: int = MERGE_GAP) -> list[Passage]:
    """Runs in order of A, merged where the next follows within ``gap`` words in both texts."""
    out: list[Passage] = []
    for i, j, n in sorted(runs):
        if out:
            p = out[-1]
            if 0 <= i - p.a1 <= gap and 0 <= j - p.b1 <= gap or (i < p.a1 and p.b0 <= j <= p.b1 + gap and i >= p.a0):
                out[-1] = Passage(p.a0, max(p.a1, i + n), p.b0, max(p.b1, j + n))
                continue
        out.append(Passage(i, i + n, j, j + n))
    return out


def shared_passages(a: Words, b: Words, *, budget: float | None = 2.0) -> Shared:
    """The passages A and B share, and the share of each found in the other.

    ``budget``: seconds the search may take (None: no limit); past it the passages found so
    far are returned with ``complete=False``.
    """
    deadline = None if budget is None else time.monotonic() + budget
    runs, done = common_runs(a.hashes, b.hashes, deadline=deadline)
    ra, rb = Runs(a.hashes), Runs(b.hashes)
    exact = [Passage(i, i + n, j, j + n) for i, j, n in runs]
    return Shared(len(a), len(b), share_in(ra, rb), share_in(rb, ra), merge_runs(runs), done, exact)


def ordered(passages: list[Passage]) -> list[Passage]:
    """The passages that keep the order of both texts (the longest first, greedily): text
    moved elsewhere is left out, so what lies between them reads as a difference."""
    chosen: list[Passage] = []  # a chain, ascending in both texts
    starts: list[int] = []
    for p in sorted(passages, key=lambda p: (-(p.words_a + p.words_b), p.a0)):
        k = bisect.bisect_left(starts, p.a0)
        before = chosen[k - 1] if k else None
        after = chosen[k] if k < len(chosen) else None
        if before is not None and (before.a1 > p.a0 or before.b1 > p.b0):
            continue
        if after is not None and (p.a1 > after.a0 or p.b1 > after.b0):
            continue
        chosen.insert(k, p)
        starts.insert(k, p.a0)
    return chosen


def differences(shared: Shared) -> list[Difference]:
    """What lies between the ordered runs (not the merged passages: a one-word edit inside a
    passage is a difference): text only in A (removed), only in B (added) or different on
    both sides (changed), in text order."""
    out: list[Difference] = []
    a_pos = b_pos = 0
    for p in [*ordered(shared.runs), Passage(shared.words_a, shared.words_a, shared.words_b, shared.words_b)]:
        a0, b0 = a_pos, b_pos
        a1, b1 = max(p.a0, a_pos), max(p.b0, b_pos)
        if a1 > a0 or b1 > b0:
            kind = "changed" if a1 > a0 and b1 > b0 else "removed" if a1 > a0 else "added"
            out.append(Difference(kind, a0, a1, b0, b1))
        a_pos, b_pos = max(a_pos, p.a1), max(b_pos, p.b1)
    return out
