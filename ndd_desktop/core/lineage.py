"""The order in which the versions of one document were written, from their content.

:func:`order_versions` takes the texts of a group (and, when known, their file dates and
names) and returns an order, oldest first, with how sure it is. Three steps:

1. **Chain.** The versions are placed on the shortest path through their distances
   (1 - Jaccard similarity of word 3-shingles, :mod:`core.seriation`): step-by-step edits
   make neighbouring versions the closest ones, so the path is the sequence of edits, with
   no direction yet.
2. **Direction.** Each clue with a time arrow votes on which end is the oldest: the date a
   label puts on the text ("Effective date", "Last updated"), version numbers in the text,
   the latest full date and the latest year the text mentions, the text's length (documents
   tend to grow), and the file dates and names. A clue's vote is Kendall's tau between its
   values and the positions on the path, times its weight and the share of versions that
   have it. File dates and names are metadata that copying and renaming change, so they
   vote only when they agree with the chain (|tau| >= 0.6); otherwise they are ignored.
   The path is reversed when the weighted votes say so.
3. **Refinement.** A clue that every version has and that sorts them the same way as the
   chain (tau >= 0.6 after step 2: a version stamp, a file date) may order what the
   distances cannot tell apart (identical texts, equally distant neighbours): its order,
   ties kept in chain order, replaces the chain when the path it describes is at most 5 %
   longer.

**How sure** (``confidence`` in [0, 1]) is the product of how chain-like the distances
are along the path (Kendall's tau between steps apart and distance, :func:`chain_fit`)
and how decided the direction is (the weighted vote over the total weight plus one, so a
single weak clue cannot give certainty). ``level`` names it: "high" from 0.6, "medium"
from 0.3, else "low". A group of one is "high" (nothing to order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .seriation import chain_fit, kendall_tau, path_cost, shingle_sets, shortest_path, version_distances
from .normalize import normalize
from .typo_fixes import typo_vote
from .unique import sorted_unique
from .version_clues import VersionClues, name_clue, text_clues

#: Weight of each clue's vote on the direction. Stamps and version numbers are written to
#: say when a text is from; the latest date or year mentioned is looser; length only leans.
CLUE_WEIGHTS = {"stamp": 3.0, "version": 3.0, "latest_date": 2.0, "latest_year": 1.0,
                "length": 1.0, "file_date": 2.0, "name": 2.0, "shared_edits": 2.0,
                "typo_fixes": 2.0}
METADATA_CLUES = ("file_date", "name")
AGREE_TAU = 0.6  # |tau| at which metadata counts as agreeing with the chain
REFINE_TAU = AGREE_TAU
REFINE_SLACK = 0.05
HIGH, MEDIUM = 0.6, 0.3
#: The most a direction decided by length alone can count for: below MEDIUM.
LENGTH_ALONE = 0.29
FORK_MARGIN = 1.0  # weighted vote by which an inner root must beat the better end of the path
MIN_BRANCH = 3  # versions on each side of an inner root


@dataclass(frozen=True)
class VersionOrder:
    """An order of versions (indices into the input, oldest first) and how sure it is.

    ``votes``: each clue's signed vote for the direction finally chosen (positive: agrees),
    before weighting; ``chain``: how chain-like the distances are (0-1); ``refined_by``: the
    clue whose order replaced the chain's, if any.
    """

    order: list[int]
    confidence: float
    level: str
    chain: float = 1.0
    votes: dict[str, float] = field(default_factory=dict)
    refined_by: str | None = None
    direction: float = 1.0

    @property
    def latest(self) -> int:
        """Index of the last version written."""
        return self.order[-1]

    def rank(self) -> list[int]:
        """Each input's place in the order, counting from 1 (the oldest is 1)."""
        out = [0] * len(self.order)
        for place, k in enumerate(self.order, start=1):
            out[k] = place
        return out


def level_of(confidence: float) -> str:
    """"high", "medium" or "low" for a confidence in [0, 1]."""
    return "high" if confidence >= HIGH else "medium" if confidence >= MEDIUM else "low"


def _clue_values(clues: Sequence[VersionClues], lengths: Sequence[int], dates: Sequence[float | None] | None,
                 names: Sequence[str] | None) -> dict[str, list]:
    """Per clue, one value per version (None where the version has none)."""
    out: dict[str, list] = {
        "stamp": [c.stamp for c in clues],
        "version": [c.version for c in clues],
        "latest_date": [c.latest_date for c in clues],
        "latest_year": [c.latest_year for c in clues],
        "length": list(lengths),
    }
    if dates is not None:
        out["file_date"] = [None if v is None or v != v else float(v) for v in dates]
    if names is not None:
        out["name"] = [name_clue(nm) for nm in names]
    return out


def _ranks(values: list) -> np.ndarray:
    """Dense ranks of comparable values (tuples or numbers), equal values equal ranks."""
    distinct = sorted(set(values))
    where = {v: k for k, v in enumerate(distinct)}
    return np.array([where[v] for v in values], dtype=np.float64)


def _tau_along(values: list, position: np.ndarray) -> tuple[float, float]:
    """(tau between a clue and path positions over the versions that have it, their share)."""
    have = [k for k, v in enumerate(values) if v is not None]
    if len(have) < 2:
        return 0.0, 0.0
    ranks = _ranks([values[k] for k in have])
    return kendall_tau(position[have], ranks), len(have) / len(values)


@dataclass(frozen=True)
class VersionChain:
    """The undirected chain of a group: the path through its distances and each clue's tau
    along that path (before any direction is chosen)."""

    path: list[int]
    distances: np.ndarray
    chain: float
    values: dict[str, list]
    taus: dict[str, tuple[float, float]]  # clue -> (tau along the path, share of versions with it)
    edits: tuple[np.ndarray, np.ndarray] | None = None  # (shingle hashes, net count) along the path


def version_chain(texts: Sequence[str], *, dates: Sequence[float | None] | None = None,
                  names: Sequence[str] | None = None, clues: Sequence[VersionClues] | None = None,
                  keep_edits: bool = False) -> VersionChain:
    """Step 1 of :func:`order_versions`: the chain and the clues measured along it.
    ``keep_edits``: keep the shingles added and removed along the path (for
    :func:`core.shared_edits.shared_edit_votes`)."""
    n = len(texts)
    norm = [normalize(t or "") for t in texts]
    sets = shingle_sets(norm, normalized=True)
    d = version_distances(texts, sets) if n > 1 else np.zeros((n, n))
    clues = list(clues) if clues is not None else [text_clues(t or "") for t in texts]
    path = shortest_path(d)
    values = _clue_values(clues, [len(t or "") for t in texts], dates, names)
    position = _positions(path)
    taus = {}
    for name, vals in values.items():
        tau, share = _tau_along(vals, position)
        if share > 0.0 and tau != 0.0:
            taus[name] = (tau, share)
    typos = typo_vote(norm, path) if n > 1 else None
    if typos is not None and typos[0] != 0.0:
        taus["typo_fixes"] = typos
    edits = None
    if keep_edits:
        from .shared_edits import path_edits

        edits = path_edits(sets, path)
    return VersionChain(path, d, chain_fit(d, path), values, taus, edits)


def _positions(path: Sequence[int]) -> np.ndarray:
    position = np.empty(len(path), dtype=np.float64)
    position[np.asarray(path, dtype=np.int64)] = np.arange(len(path))
    return position


def decide_order(chain: VersionChain, extra: dict[str, tuple[float, float]] | None = None,
                 ignore: Sequence[str] = ()) -> VersionOrder:
    """Steps 2 and 3 of :func:`order_versions`: choose the direction by the weighted votes
    of the clues (and of ``extra`` votes, clue -> (tau along the chain's path, share),
    weighted by ``CLUE_WEIGHTS``), then refine. ``ignore``: clues that do not vote.
    Returns the order with its confidence."""
    n = len(chain.path)
    if n == 0:
        return VersionOrder([], 0.0, "low", 0.0)
    if n == 1:
        return VersionOrder([0], 1.0, "high")
    d, path = chain.distances, list(chain.path)
    vote = total = 0.0
    taus: dict[str, float] = {}
    voters: set[str] = set()
    for name, (tau, share) in {**chain.taus, **(extra or {})}.items():
        if name in ignore or (name in METADATA_CLUES and abs(tau) < AGREE_TAU):
            continue  # metadata that disagrees with the content says nothing
        taus[name] = tau
        vote += CLUE_WEIGHTS[name] * share * tau
        total += CLUE_WEIGHTS[name] * share
        if share > 0 and tau != 0:
            voters.add(name)
    if vote < 0:
        path = path[::-1]
        taus = {k: -v for k, v in taus.items()}
    direction = abs(vote) / (total + 1.0)
    if voters <= {"length"}:
        # length alone says only "longer is later", which every version that mostly loses
        # text (a policy trimmed rule by rule) turns around: it never rises above low (alone
        # it gave 0.5, "medium", to a fully reversed order)
        direction = min(direction, LENGTH_ALONE)
    fork = _fork(chain, path, ignore)
    if fork is not None:  # a history that branched: oldest inside the path, two branches out
        fvote, ftotal, taus, away = fork
        index = _positions(path)
        order = sorted(range(n), key=lambda k: (away[k], index[k]))
        direction = fvote / (ftotal + 1.0)
        confidence = float(np.clip(chain.chain * direction, 0.0, 1.0))
        return VersionOrder(order, confidence, level_of(confidence), chain.chain, taus, "fork", direction)
    refined_by = None
    base = path_cost(d, path)
    position = _positions(path)
    for name in ("version", "stamp", "file_date", "name"):
        vals = chain.values.get(name)
        if vals is None or any(v is None for v in vals) or taus.get(name, 0.0) < REFINE_TAU:
            continue
        ranks = _ranks(vals)
        candidate = sorted(range(n), key=lambda k: (ranks[k], position[k]))
        if path_cost(d, candidate) <= base * (1.0 + REFINE_SLACK) + 1e-9:
            path, refined_by = candidate, name
            break
    confidence = float(np.clip(chain.chain * direction, 0.0, 1.0))
    return VersionOrder([int(k) for k in path], confidence, level_of(confidence), chain.chain, taus, refined_by,
                        direction)


def _values_vote(values: dict[str, list], position: np.ndarray, ignore: Sequence[str]) -> tuple[float, float, dict]:
    """(weighted vote, total weight, tau per clue) of the per-version clues for ``position``
    as the order of writing."""
    vote = total = 0.0
    taus: dict[str, float] = {}
    for name, vals in values.items():
        if name in ignore:
            continue
        tau, share = _tau_along(vals, position)
        if share == 0.0 or tau == 0.0 or (name in METADATA_CLUES and abs(tau) < AGREE_TAU):
            continue
        taus[name] = tau
        vote += CLUE_WEIGHTS[name] * share * tau
        total += CLUE_WEIGHTS[name] * share
    return vote, total, taus


def _fork(chain: VersionChain, path: list[int], ignore: Sequence[str]):
    """A branched history: a document copied and the copies edited apart (a policy and its
    corporate edition) makes a path whose oldest version lies inside, with time running out
    along both arms. An inner root is taken when the clues, read as "the farther along the
    path from the root, the later", vote at least ``FORK_MARGIN`` more for it than for the
    better end, with ``MIN_BRANCH`` versions on each side. Returns (vote, total weight,
    taus, distance from the root along the path per version) or None."""
    n = len(path)
    if n < 2 * MIN_BRANCH + 1:
        return None
    ends = abs(_values_vote(chain.values, _positions(path), ignore)[0])
    p = np.asarray(path, dtype=np.int64)
    along = np.concatenate(([0.0], np.cumsum(chain.distances[p[:-1], p[1:]])))
    roots = sorted_unique(np.linspace(MIN_BRANCH, n - 1 - MIN_BRANCH, min(24, n - 2 * MIN_BRANCH)).astype(np.int64))
    best = None
    for r in roots:
        away = np.empty(n, dtype=np.float64)
        away[p] = np.abs(along - along[r])
        vote, total, taus = _values_vote(chain.values, away, ignore)
        if vote > ends + FORK_MARGIN and (best is None or vote > best[0]):
            best = (vote, total, taus, away)
    return best


def order_versions(texts: Sequence[str], *, dates: Sequence[float | None] | None = None,
                   names: Sequence[str] | None = None, clues: Sequence[VersionClues] | None = None) -> VersionOrder:
    """The order in which ``texts`` were written, oldest first, with a confidence.

    ``dates``: file dates (any unit that sorts in time; None where unknown); ``names``:
    file names. Both count only when they agree with the content (see the module
    docstring). ``clues``: the texts' clues when already computed.
    """
    return decide_order(version_chain(texts, dates=dates, names=names, clues=clues))
