"""Candidate pairs from an inverted index over set sketches (sorted unique uint64 arrays).

Set-based methods (``qgram``, ``bottomk``) score a pair by the number of features the two
sketches share. :func:`overlap_join` finds every pair whose score reaches a floor, with
exact shared counts, and never enumerates all N^2 pairs:

* A :class:`~core.feature_index.FeatureIndex` gives every distinct feature a global id and its document
  frequency (df). It is built with sorts over hash-range partitions of the flat feature
  array, so temporaries stay bounded and each partition could run on its own worker.
* **count mode** (the DDD paper's per-document counters): every posting list emits its
  document pairs and the pairs are counted, so the counts *are* the shared counts and the
  pairs are scored directly. The cost is sum(df^2)/2, so this mode is used only when that
  sum is small (small or very diverse collections).
* **dense mode** (:mod:`core.dense_join`): for up to a few thousand documents whose sets
  share many common features (revisions of one text; English cut into character 4-grams),
  the common features become columns of a 0/1 matrix whose product with its transpose
  (BLAS, without the GIL) counts them for every pair at once; the rare features are
  counted as in count mode and added. Used when count mode is over its budget and the
  estimated cost of the product is small (:func:`core.dense_join.plan`).
* **prefix mode** (prefix filtering, as in the AllPairs/PPJoin family): features are
  ordered globally, rarest first. A pair that shares at least ``o`` features must share a
  feature inside the first ``|X| - o + 1`` features of each document, so only those
  prefixes are indexed; posting lists of rare features are short, so the work grows about
  linearly with the collection. The candidates are then verified with exact, vectorised
  intersections (:func:`shared_counts`).
* **clipping** (``max_df``): in prefix mode, features found in more than ``max_df`` of the
  documents (only with at least ``min_docs_to_clip`` documents) are left out of the
  prefixes. This bounds the cost when many short documents consist of common features
  only; the price is that a pair whose *rarest shared* feature is that common can be
  missed. Scores stay exact (they come from the full sketches); only recall can suffer,
  and :attr:`JoinResult.exact` says whether any prefix was actually clipped.

* **lsh** (:mod:`core.set_lsh`): when the prefixes would still emit too many pairs
  (estimated on a sample), banded MinHash finds every pair at ``recall_score`` with
  probability >= 99.5 %, and pairs between the floor and it when they collide; the
  candidates are verified exactly (small sketches by sorting each pair's two rows
  together, :func:`core.pair_overlap.padded_shared_counts`).

A time window (``window_seconds``) drops pairs whose dates lie further apart; a NaN date
is compared with everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from . import dense_join
from .feature_index import FeatureIndex, shared_counts
from .posting_pairs import count_groups, pair_counts, prefix_entries, probe_groups
from .sketch_batches import sketch_dtype, sketch_sizes
#: Count mode is used when the posting lists emit at most this many pairs.
COUNT_MODE_BUDGET = 5_000_000
#: Prefix mode is used while (pairs the prefixes emit) x (mean sketch length), the bound on
#: its verification work, stays below this; beyond, banded LSH (:mod:`core.set_lsh`).
PREFIX_MODE_BUDGET = 100_000_000
#: Once the feature index and the prefixes are built (the sampled estimate said prefix mode
#: fits), it is kept unless the exact count exceeds the budget by more than this factor:
#: falling back to the banded search then would cost more than the overrun saves.
PREFIX_OVERRUN = 1.5
#: Documents sampled to estimate the cost of the exact joins of a larger collection.
SAMPLE_DOCS = 1500
#: A first, smaller sample, and how far beyond the budget its estimate must lie to decide
#: alone (see _exact_joins_too_costly).
QUICK_SAMPLE_DOCS = 150
QUICK_MARGIN = 100.0
#: Candidates of sketches at most this long are verified by sorting row pairs together.
PADDED_VERIFY_MAX = 512
_EPS = 1e-9


@dataclass(frozen=True)
class JoinResult:
    """Pairs (i < j) with their exact shared feature counts.

    ``exact`` is False when clipping left features out of some prefix, or in "lsh" mode (a
    qualifying pair may then be missing); ``mode`` is "count", "dense", "prefix" or "lsh".
    """

    i: np.ndarray
    j: np.ndarray
    shared: np.ndarray
    exact: bool
    mode: str


def _empty(exact: bool = True, mode: str = "count") -> JoinResult:
    e = np.empty(0, dtype=np.int64)
    return JoinResult(e, e.copy(), e.copy(), exact, mode)


def overlap_join(
    sketches: Sequence[np.ndarray],
    floor: float,
    *,
    measure: str = "resemblance",
    dates: np.ndarray | None = None,
    window_seconds: float = 0.0,
    max_df: float = 1.0,
    min_docs_to_clip: int = 50,
    index: FeatureIndex | None = None,
    mode: str = "auto",
    recall_score: float | None = None,
    design_jaccard: float | None = None,
) -> JoinResult:
    """Every pair whose overlap score reaches ``floor``, with exact shared counts.

    The score is shared / max(|A|, |B|) for "resemblance" and shared / min(|A|, |B|) for
    "containment". Pairs sharing nothing are never returned (even with ``floor <= 0``).

    Args:
        sketches: sorted unique uint64 arrays, one per document.
        floor: lowest score kept.
        measure: "resemblance" or "containment".
        dates: seconds since the epoch per document (NaN unknown), for the time window.
        window_seconds: when > 0, pairs whose dates differ by more are dropped.
        max_df: share of documents above which a feature is clipped from the prefixes.
        min_docs_to_clip: clipping applies only to collections at least this large.
        index: a prebuilt :class:`FeatureIndex` of ``sketches`` (built when None).
        mode: "auto", "count", "dense", "prefix" or "lsh" (tests force one to compare them).
        recall_score: in "lsh" mode, pairs scoring at least this (default: the floor) are
            found with probability >= 99.5 %; pairs between the floor and it may be missed.
        design_jaccard: in "lsh" mode, the Jaccard similarity found with probability
            >= 99.5 % instead of the least Jaccard that shared / max >= max(floor,
            recall_score) implies (a caller whose own score is Jaccard passes its floor).
    """
    if measure not in ("resemblance", "containment"):
        raise ValueError(f"measure: {measure!r} is not one of resemblance, containment")
    n = len(sketches)
    if n < 2 or floor > 1.0:
        return _empty()
    floor_eff = max(float(floor), 0.0)
    if mode == "lsh" or (mode == "auto" and index is None and _exact_joins_too_costly(sketches, floor_eff)):
        return _lsh_join(sketches, floor_eff, measure, dates, float(window_seconds), recall_score, design_jaccard)
    index = index if index is not None else FeatureIndex(sketches)
    if index.n_features == 0:
        return _empty()
    lens = index.lengths
    resemblance = measure == "resemblance"
    window = float(window_seconds) > 0 and dates is not None
    date_arr = np.asarray(dates, dtype=np.float64) if window else None

    def keep(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        mask = np.ones(a.shape[0], dtype=bool)
        if resemblance and floor_eff > 0:  # shared <= min, so min/max must reach the floor
            lo, hi = np.minimum(lens[a], lens[b]), np.maximum(lens[a], lens[b])
            mask &= lo >= floor_eff * hi - _EPS * hi
        if window:
            mask &= ~(np.abs(date_arr[a] - date_arr[b]) > window_seconds)  # NaN: kept
        return mask

    df = index.df
    full_cost = int((df * (df - 1) // 2).sum())
    exact = True
    plan = None
    if mode == "dense" or (mode == "auto" and full_cost > COUNT_MODE_BUDGET):
        plan = dense_join.plan(df, n, int(lens.max()))
        if mode == "dense" and plan is None:
            raise ValueError("dense mode: the collection is too large for an n x n count matrix")
        if mode == "auto" and plan is not None and plan.seconds > dense_join.DENSE_MAX_SECONDS:
            plan = None
    if mode == "count" or (mode == "auto" and full_cost <= COUNT_MODE_BUDGET):
        used = "count"
        keys, shared = pair_counts(index, df >= 2, keep)
        i, j = keys // n, keys % n
    elif plan is not None:
        used = "dense"
        counts = dense_join.dense_counts(index.gid, index.entry_docs, plan.dense, n)
        flat = counts.reshape(-1)

        def add(codes: np.ndarray, found: np.ndarray) -> None:
            flat[codes] += found  # codes a * n + b, a < b, unique in a chunk: upper triangle

        pair_counts(index, (df >= 2) & ~plan.dense, keep, add)
        i, j, shared = dense_join.qualifying_pairs(counts, lens, floor_eff, resemblance, keep, _EPS)
    else:
        used = "prefix"
        rank = index.ranks()
        need = np.maximum(1, np.ceil(floor_eff * lens - _EPS)).astype(np.int64)
        prefix_len = np.clip(lens - need + 1, 0, lens)
        pr, pd = prefix_entries(index, rank, prefix_len)
        if n >= min_docs_to_clip and max_df < 1.0:
            df_of_rank = np.sort(df)
            common = df_of_rank[pr] > max_df * n
            if common.any():
                exact = False
                pr, pd = pr[~common], pd[~common]
        posting = np.bincount(pr, minlength=index.n_features)
        prefix_cost = int((posting * (posting - 1) // 2).sum())
        if mode == "auto" and prefix_cost * max(float(lens.mean()), 1.0) > PREFIX_MODE_BUDGET * PREFIX_OVERRUN:
            return _lsh_join(sketches, floor_eff, measure, dates, float(window_seconds), recall_score, design_jaccard)
        comp = np.sort(pr * n + pd)
        if resemblance:
            keys, _ = count_groups(comp // n, comp % n, n, keep)
        else:
            # The smaller document's prefix holds a shared feature, which may lie anywhere
            # in the larger one: probe prefixes against full posting lists.
            marked = np.zeros(index.n_features, dtype=bool)
            marked[pr] = True
            er = rank[index.gid]
            sel = np.flatnonzero(marked[er])
            all_comp = np.sort(er[sel] * n + index.entry_docs[sel])
            hit = np.searchsorted(comp, all_comp)
            hit[hit >= comp.shape[0]] = 0
            is_probe = comp[hit] == all_comp

            def keep_probe(a: np.ndarray, b: np.ndarray) -> np.ndarray:
                return (lens[a] <= lens[b]) & keep(a, b)

            keys = probe_groups(all_comp // n, all_comp % n, is_probe, n, keep_probe)
        i, j = keys // n, keys % n
        shared = shared_counts(index, i, j)
    denom = np.maximum(lens[i], lens[j]) if resemblance else np.minimum(lens[i], lens[j])
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(denom > 0, shared / np.maximum(denom, 1), 0.0)
    ok = (shared > 0) & (score >= floor_eff)
    return JoinResult(i[ok], j[ok], shared[ok], exact, used)


def _prefix_cost(index: FeatureIndex, floor: float) -> int:
    """Pairs the rarest-first prefixes of ``index`` would emit at ``floor``."""
    lens = index.lengths
    need = np.maximum(1, np.ceil(floor * lens - _EPS)).astype(np.int64)
    pr, _ = prefix_entries(index, index.ranks(), np.clip(lens - need + 1, 0, lens))
    posting = np.bincount(pr, minlength=index.n_features)
    return int((posting * (posting - 1) // 2).sum())


def _exact_joins_too_costly(sketches: Sequence[np.ndarray], floor: float) -> bool:
    """Whether both prefix mode (over PREFIX_MODE_BUDGET) and dense mode (over its time
    budget) would be too costly, estimated on a sample of documents, so that the feature
    index of the whole collection need not be built. Posting lists grow with N, so the
    pairs the prefixes emit grow with N^2, and the document frequencies with N.

    Where dense mode is out of reach, a sample of QUICK_SAMPLE_DOCS decides first when its
    estimate lies beyond the budget by QUICK_MARGIN or more (20,000 q-gram sets: some
    800,000 times the budget on 150 documents as on 1,500, in 0.03 s instead of 0.3-0.6 s);
    any nearer estimate is taken again on SAMPLE_DOCS."""
    n = len(sketches)
    if n <= SAMPLE_DOCS:
        return False
    if n > dense_join.DENSE_MAX_DOCS:
        quick, _ = _sampled_prefix_work(sketches, floor, QUICK_SAMPLE_DOCS)
        if quick > PREFIX_MODE_BUDGET * QUICK_MARGIN:
            return True
    work, sub = _sampled_prefix_work(sketches, floor, SAMPLE_DOCS)
    if n <= dense_join.DENSE_MAX_DOCS:
        max_len = int(sketch_sizes(sketches).max())
        plan = dense_join.plan(sub.df * (n / SAMPLE_DOCS), n, max_len)
        if plan is not None and plan.seconds <= dense_join.DENSE_MAX_SECONDS:
            return False
    return work > PREFIX_MODE_BUDGET


def _sampled_prefix_work(sketches: Sequence[np.ndarray], floor: float, sample: int) -> tuple[float, FeatureIndex]:
    """(the prefix join's pairs times the mean sketch length, estimated for the whole
    collection from ``sample`` documents drawn with a fixed seed; the sample's index)."""
    n = len(sketches)
    pick = np.random.default_rng(0).choice(n, sample, replace=False)
    sub = FeatureIndex([sketches[k] for k in pick])
    cost = _prefix_cost(sub, floor) * (n / sample) ** 2
    return cost * max(float(sub.lengths.mean()), 1.0), sub


def least_jaccard(score: float) -> float:
    """The least Jaccard similarity of two sets whose shared / max(|A|, |B|) is ``score``
    (equal sizes: s / (2 - s))."""
    s = max(float(score), 1e-3)
    return s / (2.0 - s)


def _lsh_join(sketches, floor, measure, dates, window_seconds, recall_score, design_jaccard=None) -> JoinResult:
    """Banded MinHash candidates (see :mod:`core.set_lsh`), verified exactly on an index
    of the documents involved only."""
    from .set_lsh import lsh_pairs

    if design_jaccard is None:
        design_jaccard = least_jaccard(max(floor, recall_score if recall_score is not None else floor))
    # Screening the candidates by an estimated Jaccard keeps every pair at the design
    # similarity; with containment the design promises nothing, so every candidate stays.
    i, j = lsh_pairs(sketches, max(float(design_jaccard), 1e-3), screen=measure == "resemblance")
    if window_seconds > 0 and dates is not None:
        d = np.asarray(dates, dtype=np.float64)
        near = ~(np.abs(d[i] - d[j]) > window_seconds)
        i, j = i[near], j[near]
    shared, lens_i, lens_j = candidate_shared_counts(sketches, i, j)
    score, _, _ = overlap_scores(lens_i, lens_j, shared, measure)
    ok = (shared > 0) & (score >= floor)
    return JoinResult(i[ok], j[ok], shared[ok], False, "lsh")


def candidate_shared_counts(sketches, i: np.ndarray, j: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(shared values, size of i's set, size of j's set) of each candidate pair (i[k],
    j[k]), looking only at the documents involved: no feature index over the collection."""
    if i.shape[0] and (sketch_dtype(sketches) == np.uint32 or int(sketch_sizes(sketches).max()) > PADDED_VERIFY_MAX):
        # 32-bit sets (qgram) and large 64-bit ones (hybrid's word shingles): merge each
        # pair's two sorted sketches, batch by batch
        from .pair_overlap import merge_shared_counts

        all_lens = sketch_sizes(sketches)
        return merge_shared_counts(sketches, i, j), all_lens[i], all_lens[j]
    involved, inv = np.unique(np.concatenate([i, j]), return_inverse=True)
    inv = inv.reshape(-1)
    sub_sketches = [sketches[k] for k in involved]
    if sub_sketches and max(s.shape[0] for s in sub_sketches) <= PADDED_VERIFY_MAX:
        # Small sketches (bottom-k): sort each pair's two rows together and count equal
        # neighbours; far cheaper than a feature index for many candidates.
        from .pair_overlap import padded_matrix, padded_shared_counts

        full, sub_lens = padded_matrix(sub_sketches)
        shared = padded_shared_counts(full, inv[: i.shape[0]], inv[i.shape[0] :])
    else:
        sub = FeatureIndex(sub_sketches)
        shared = shared_counts(sub, inv[: i.shape[0]], inv[i.shape[0] :])
        sub_lens = sub.lengths
    lens = sub_lens[inv]
    return shared, lens[: i.shape[0]], lens[i.shape[0] :]


# -- scoring shared by the set-based methods ---------------------------------------------


def overlap_scores(len_i: np.ndarray, len_j: np.ndarray, shared: np.ndarray, measure: str):
    """(score, cont_ij, cont_ji) from sketch sizes and shared counts; 0 where a sketch is empty."""
    len_i = np.asarray(len_i, dtype=np.float64)
    len_j = np.asarray(len_j, dtype=np.float64)
    shared = np.asarray(shared, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        cij = np.where(len_i > 0, shared / len_i, 0.0)
        cji = np.where(len_j > 0, shared / len_j, 0.0)
    score = np.maximum(cij, cji) if measure == "containment" else np.minimum(cij, cji)
    return score, cij, cji


