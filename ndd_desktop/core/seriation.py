"""The chain of smallest edits through a set of versions: distances and a shortest path.

A document edited step by step gives versions whose distance grows with the number of
steps between them, so the shortest path that visits every version once (a shortest
Hamiltonian path) runs through them in the order they were written, up to its direction.
:func:`shingle_distances` measures the distance as 1 - Jaccard similarity of word
3-shingle sets; :func:`shortest_path` finds a short path (exact for up to 8 versions, else
greedy edges improved by 2-opt and by moving single versions); :func:`chain_fit` says how
much the distances look like one chain along that path.
"""

from __future__ import annotations

import functools
import itertools
from typing import Sequence

import numpy as np

from .hashing import hash_word_shingles, mix64
from .normalize import normalize
from .unique import sorted_unique

SHINGLE_WORDS = 3
#: At most this many distinct shingles (those not shared by every version) enter the
#: distance matrix; above it a fixed hash sample stands for them, so big groups stay bounded.
MAX_FEATURES = 6000
_EXACT_UP_TO = 8
LINE_WEIGHT = 0.1


def shingle_sets(texts: Sequence[str], *, normalized: bool = False) -> list[np.ndarray]:
    """Sorted unique word-3-shingle hashes of each text (normalised first unless
    ``normalized`` says it already is)."""
    return [sorted_unique(hash_word_shingles(t if normalized else normalize(t or ""), SHINGLE_WORDS)) for t in texts]


def line_sets(texts: Sequence[str]) -> list[np.ndarray]:
    """Sorted unique hashes of the raw lines of each text (white space at the ends dropped).

    Lines keep what normalisation removes (case, punctuation, spacing), so two versions
    that differ only there are still told apart.
    """
    out = []
    for t in texts:
        lines = {ln.strip() for ln in (t or "").splitlines()} - {""}
        out.append(sorted_unique(np.fromiter((hash(ln) for ln in lines), dtype=np.int64, count=len(lines)).view(np.uint64)))
    return out


def version_distances(texts: Sequence[str], sets: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """Distances between versions: word-shingle distance, plus a tenth of the raw-line
    distance to separate versions whose words are the same."""
    sets = shingle_sets(texts) if sets is None else sets
    return shingle_distances(sets) + LINE_WEIGHT * shingle_distances(line_sets(texts))


def feature_budget(n: int) -> int:
    """Shingles a group of ``n`` versions is measured on: ``MAX_FEATURES``, fewer for big
    groups so that the n x n x features product stays near 4e9."""
    return int(min(MAX_FEATURES, max(512, 4e9 / max(n, 1) ** 2)))


def shingle_distances(sets: Sequence[np.ndarray], max_features: int | None = None) -> np.ndarray:
    """The matrix of 1 - Jaccard similarity between shingle sets (0 on the diagonal).

    Shingles shared by every set add the same amount to every intersection and are not
    stored in the matrix. When more than ``max_features`` others remain, only those whose
    hash falls in a fixed fraction of the hash range are counted (a consistent sample, so
    every pair is measured on the same shingles) and the shared count is scaled alike.
    """
    n = len(sets)
    if n == 0:
        return np.zeros((0, 0))
    max_features = feature_budget(n) if max_features is None else max_features
    allh = np.concatenate(sets) if n else np.empty(0, np.uint64)
    values, counts = np.unique(allh, return_counts=True)
    common = values[counts == n]
    rest = values[counts < n]
    scale = 1.0
    if rest.shape[0] > max_features:
        keep_fraction = max_features / rest.shape[0]
        cut = np.uint64(int(keep_fraction * 2**64) - 1)
        rest = rest[mix64(rest, 7) <= cut]
        scale = keep_fraction
    x = np.zeros((n, max(rest.shape[0], 1)), dtype=np.float32)
    for row, s in enumerate(sets):
        s = s[np.isin(s, rest, assume_unique=True, kind="sort")]
        if s.shape[0]:
            x[row, np.searchsorted(rest, s)] = 1.0
    own = x.sum(axis=1).astype(np.float64)
    inter = (x @ x.T).astype(np.float64) + common.shape[0] * scale
    sizes = own + common.shape[0] * scale
    union = sizes[:, None] + sizes[None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        d = np.where(union > 0, 1.0 - inter / union, 0.0)
    empty = sizes == 0  # a version without words is unlike every other, itself included
    d[empty, :] = 1.0
    d[:, empty] = 1.0
    np.fill_diagonal(d, 0.0)
    return np.clip(d, 0.0, 1.0)


def path_cost(d: np.ndarray, path: Sequence[int]) -> float:
    """The sum of distances between neighbours along ``path``."""
    p = np.asarray(path, dtype=np.int64)
    return float(d[p[:-1], p[1:]].sum()) if p.shape[0] > 1 else 0.0


def _greedy_edges(d: np.ndarray) -> list[int]:
    """A Hamiltonian path built from the shortest edges that keep every degree <= 2 and
    close no cycle (the greedy matching heuristic)."""
    n = d.shape[0]
    iu, ju = np.triu_indices(n, 1)
    order = np.lexsort((ju, iu, d[iu, ju]))
    degree = np.zeros(n, dtype=np.int64)
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    adj: list[list[int]] = [[] for _ in range(n)]
    added = 0
    for k in order:
        a, b = int(iu[k]), int(ju[k])
        if degree[a] >= 2 or degree[b] >= 2:
            continue
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        parent[ra] = rb
        degree[a] += 1
        degree[b] += 1
        adj[a].append(b)
        adj[b].append(a)
        added += 1
        if added == n - 1:
            break
    start = min(i for i in range(n) if degree[i] <= 1)
    path, prev = [start], -1
    while len(path) < n:
        nxt = next(x for x in adj[path[-1]] if x != prev)
        prev = path[-1]
        path.append(nxt)
    return path


def _two_opt(d: np.ndarray, path: list[int], max_rounds: int = 50) -> list[int]:
    """Reverse segments of the path while that shortens it (open path: the ends may move)."""
    n = len(path)
    p = np.asarray(path, dtype=np.int64)
    for _ in range(max_rounds):
        best_gain, best = 1e-12, None
        for i in range(n - 1):
            j = np.arange(i + 1, n)
            before = (d[p[i - 1], p[i]] if i > 0 else 0.0) + np.where(j < n - 1, d[p[j], p[np.minimum(j + 1, n - 1)]], 0.0)
            after = (d[p[i - 1], p[j]] if i > 0 else 0.0) + np.where(j < n - 1, d[p[i], p[np.minimum(j + 1, n - 1)]], 0.0)
            gain = before - after
            k = int(np.argmax(gain))
            if gain[k] > best_gain:
                best_gain, best = float(gain[k]), (i, int(j[k]))
        if best is None:
            break
        i, j = best
        p[i : j + 1] = p[i : j + 1][::-1].copy()
    return p.tolist()


def _move_single(d: np.ndarray, path: list[int], max_rounds: int = 50) -> list[int]:
    """Move one version to another place in the path while that shortens it."""
    p = list(path)
    n = len(p)
    for _ in range(max_rounds):
        improved = False
        for k in range(n):
            x = p[k]
            rest = p[:k] + p[k + 1:]
            removed = (d[p[k - 1], x] if k > 0 else 0.0) + (d[x, p[k + 1]] if k < n - 1 else 0.0)
            removed -= d[p[k - 1], p[k + 1]] if 0 < k < n - 1 else 0.0
            r = np.asarray(rest, dtype=np.int64)
            # inserting x before rest[m] (m = n - 1 appends): its two new links less the one it splits
            added = (np.concatenate(([0.0], d[x, r])) + np.concatenate((d[x, r], [0.0]))
                     - np.concatenate(([0.0], d[r[:-1], r[1:]], [0.0])))
            m = int(np.argmin(added))
            if added[m] < removed - 1e-12 and m != k:
                p = rest[:m] + [x] + rest[m:]
                improved = True
        if not improved:
            break
    return p


@functools.lru_cache(maxsize=None)
def _paths(n: int) -> np.ndarray:
    """Every order of n items, each path once (not also its reverse), as rows."""
    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
    return perms[perms[:, 0] < perms[:, -1]]


def shortest_path(d: np.ndarray) -> list[int]:
    """A short path through every index of the distance matrix ``d`` (exact for <= 8)."""
    n = d.shape[0]
    if n <= 2:
        return list(range(n))
    if n <= _EXACT_UP_TO:
        perms = _paths(n)
        cost = d[perms[:, :-1], perms[:, 1:]].sum(axis=1)
        return perms[int(np.argmin(cost))].tolist()  # the first of equal costs: stable
    path = _greedy_edges(d)
    for _ in range(5):
        before = path_cost(d, path)
        path = _move_single(d, _two_opt(d, path))
        if path_cost(d, path) >= before - 1e-12:
            break
    return path


def chain_fit(d: np.ndarray, path: Sequence[int], max_points: int = 60) -> float:
    """How much the distances grow with the number of steps along ``path``, in [0, 1].

    From each version, looking along the path to either side, a farther version should
    differ more: the share of such pairs (j nearer than k) where it does, less the share
    where it differs less, clipped at 0. 1 for one clean chain of edits; near 0 when the
    distances ignore the path (unrelated or rewritten texts). Long paths are measured on
    ``max_points`` evenly spaced versions. Two or fewer versions fit trivially (1).
    """
    n = len(path)
    if n <= 2:
        return 1.0
    p = np.asarray(path, dtype=np.int64)
    if n > max_points:
        p = p[np.linspace(0, n - 1, max_points).astype(np.int64)]
    sub = d[np.ix_(p, p)]
    m = p.shape[0]
    agree = pairs = 0.0
    for i in range(m):
        for side in (sub[i, i + 1:], sub[i, :i][::-1]):
            if side.shape[0] < 2:
                continue
            diff = np.sign(side[None, :] - side[:, None])[np.triu_indices(side.shape[0], 1)]
            agree += float(diff.sum())
            pairs += diff.shape[0]
    return max(0.0, agree / pairs) if pairs else 1.0


def kendall_tau(x: np.ndarray, y: np.ndarray, max_n: int = 400) -> float:
    """Kendall's tau-b of two equally long arrays (0 when either is constant). Above
    ``max_n`` values an evenly spaced subset is used, which keeps the cost bounded."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape[0] > max_n:
        pick = np.linspace(0, x.shape[0] - 1, max_n).astype(np.int64)
        x, y = x[pick], y[pick]
    if x.shape[0] < 2:
        return 0.0
    sx = np.sign(x[:, None] - x[None, :])
    sy = np.sign(y[:, None] - y[None, :])
    iu = np.triu_indices(x.shape[0], 1)
    sx, sy = sx[iu], sy[iu]
    tx, ty = np.count_nonzero(sx), np.count_nonzero(sy)
    if tx == 0 or ty == 0:
        return 0.0
    return float((sx * sy).sum() / np.sqrt(tx * ty))
