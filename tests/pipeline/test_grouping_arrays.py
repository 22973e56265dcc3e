"""groups_at over arrays (pipeline.pair_graph, group_list) against the straightforward
formulation it replaced (kept here as the reference: dicts, a loop per group, choose_keepers),
on random collections with reviewer verdicts, chosen keepers, reference folders and texts cut
at the size limit."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from ndd_desktop.core.clustering import component_groups, principal_groups
from ndd_desktop.core.cover import choose_keepers
from ndd_desktop.ingest.reasons import TEXT_TRUNCATED
from ndd_desktop.pipeline.group_list import GroupList
from ndd_desktop.pipeline.grouping import (
    GROUPINGS,
    MEASURES,
    DocGroup,
    Grouping,
    groups_at,
    keeper_key,
)
from ndd_desktop.pipeline.pair_graph import PairGraph
from ndd_desktop.pipeline.pair_lookup import PairLookup
from ndd_desktop.store import DocumentInfo, DocWrite, PairArrays, Root, Store

RULES = ("reference-oldest", "oldest", "newest", "longest", "folder-priority")


def _reference_groups_at(
    store: Store,
    method: str,
    pairs_key: str,
    threshold: float,
    *,
    measure: str = "score",
    keeper_rule: str = "reference-oldest",
    folder_priority: Sequence[str] = (),
    grouping: str = "components",
    arrays: PairArrays | None = None,
    docs: dict[int, DocumentInfo] | None = None,
) -> Grouping:
    """groups_at as it was written before the grouping over arrays: dicts and a loop per group."""
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r} (known: {', '.join(MEASURES)})")
    if grouping not in GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r} (known: {', '.join(GROUPINGS)})")
    sort_key = keeper_key(keeper_rule, folder_priority)
    pa = arrays if arrays is not None else store.pairs.arrays(method, pairs_key)
    value = pa.score
    if measure == "containment" and len(pa):
        cont = np.fmax(pa.cont_ab, pa.cont_ba)
        value = np.where(np.isnan(cont), pa.score, cont)
    verdicts = store.review.verdicts()
    keep = value >= threshold
    pair_value = PairLookup(pa.a, pa.b, value)
    edges = {(int(a), int(b)): float(v) for a, b, v in zip(pa.a[keep], pa.b[keep], value[keep])}
    above = {x for e in edges for x in e}  # before the reviewer's constraints
    cannot = []
    for (a, b), verdict in verdicts.items():
        if verdict == "not_duplicate":
            edges.pop((a, b), None)
            cannot.append((a, b))
        elif verdict == "duplicate":
            edges[(a, b)] = pair_value.get((a, b), 1.0)
    ids = sorted({x for e in edges for x in e} | above)
    if not ids:
        return Grouping([], set(), 0)
    known = docs or {}
    docs = {i: known[i] for i in ids if i in known}
    missing = [i for i in ids if i not in docs]
    if missing:
        docs.update((d.id, d) for d in store.documents.all(missing))
    ids = [i for i in ids if i in docs]  # documents gone since the pairs were stored
    # A text cut at the size limit was compared on its beginning only: two long files with
    # one beginning score 1.0 whatever follows. Such a document joins a group only through
    # a file of the very same bytes, so an export never leaves out content nobody compared.
    cut = {i for i in ids if TEXT_TRUNCATED in (docs[i].reason or "")}
    if cut:
        edges = {(a, b): v for (a, b), v in edges.items()
                 if not ((a in cut or b in cut) and docs[a].sha256 != docs[b].sha256)
                 or verdicts.get((a, b)) == "duplicate"}  # a reviewer who looked decides
    index = {doc_id: k for k, doc_id in enumerate(ids)}
    items = sorted(((v, a, b) for (a, b), v in edges.items() if a in index and b in index), key=lambda t: (-t[0], t[1], t[2]))
    i = np.array([index[a] for _, a, _ in items], dtype=np.int64)
    j = np.array([index[b] for _, _, b in items], dtype=np.int64)
    score = np.array([v for v, _, _ in items], dtype=np.float64)
    lengths = np.array([docs[d].text_length for d in ids], dtype=np.int64)
    cl = np.array([(index[a], index[b]) for a, b in cannot if a in index and b in index], dtype=np.int64).reshape(-1, 2)
    form = component_groups if grouping == "components" else principal_groups
    groups = form(len(ids), i, j, score, lengths, cl if len(cl) else None) if items else []
    chosen = store.review.keepers()
    formed = [[ids[int(m)] for m in g.members] for g in groups]
    shares = {(int(a), int(b)): (float(x), float(y)) for a, b, x, y in zip(pa.a, pa.b, pa.cont_ab, pa.cont_ba)}
    links = _reference_links_within(formed, items, verdicts, pair_value, shares, threshold)
    out: list[DocGroup] = []
    grouped: set[int] = set()
    if keeper_rule == "latest":  # the version order of every group, from their texts
        from .lineage import version_ranks

        sort_key = keeper_key(keeper_rule, folder_priority, version_ranks(store, formed))
    for n, (g, members) in enumerate(zip(groups, formed), start=1):
        grouped.update(members)
        principal = members[0]
        scores: dict[int, float | None] = {}
        direct: dict[int, bool] = {}
        for m, sc in zip(members, g.scores.tolist()):
            direct[m] = not math.isnan(sc)
            if direct[m] and m != principal and pair_value.get((min(m, principal), max(m, principal))) is None:
                scores[m] = None  # joined by a reviewer's "duplicate" on a pair with no stored score
            elif direct[m]:
                scores[m] = sc
            else:  # linked through others: its own stored score with the principal, if any
                scores[m] = pair_value.get((min(m, principal), max(m, principal)))
        ranked = sorted((docs[m] for m in members), key=sort_key)
        picked = [d.id for d in ranked if d.id in chosen]
        keeper = picked[0] if picked else ranked[0].id
        # A reviewer's keepers are all kept; a reference keeper never leaves out another
        # reference document (the holdings are compared with the new folders, not among
        # themselves: two copies already kept both stay).
        fixed = [keeper, *picked]
        if docs[keeper].reference:
            fixed += [m for m in members if docs[m].reference]
        cover = choose_keepers([keeper] + [d.id for d in ranked if d.id != keeper], links, fixed)
        to_keeper = {m: (None if m == keeper else pair_value.get((min(m, keeper), max(m, keeper))))
                     for m in members}
        out.append(DocGroup(n, principal, members, scores, keeper, direct, cover.keepers,
                            cover.covered_by, to_keeper))
    partial = cut - grouped
    apart = {x for a, b in cannot if a in index and b in index for x in (a, b)}  # kept apart by a verdict
    return Grouping(out, (set(ids) - grouped - partial) & apart, len(items), partial)


def _reference_links_within(groups: list[list[int]], items, verdicts, pair_value: PairLookup,
                            shares: dict[tuple[int, int], tuple[float, float]],
                            threshold: float) -> dict[int, dict[int, float | None]]:
    """The direct links between members of one group, in the directions a keeper covers:
    every edge the groups were formed from (pairs at the threshold, a reviewer's
    "duplicate"), with its stored value (None for a reviewer's "duplicate" on a pair with no
    stored score). A stored pair whose smaller share is below the threshold or below half
    covers a document only when half of it (and the threshold) is in the other, or, joined by a
    reviewer, when it is the more contained of the two; and a document wholly (95 %) in the
    other never covers it while five points more of the other are its own."""
    group_of = {m: k for k, members in enumerate(groups) for m in members}
    links: dict[int, dict[int, float | None]] = {}
    for v, a, b in items:
        ga = group_of.get(a)
        if ga is None or ga != group_of.get(b):
            continue
        joined = verdicts.get((a, b)) == "duplicate"
        if joined:
            v = pair_value.get((a, b))
        a_covers_b = b_covers_a = True
        if (a, b) in shares:
            a_in_b, b_in_a = shares[(a, b)]
            need = max(threshold, 0.5)
            smaller = min([x for x in (a_in_b, b_in_a) if not math.isnan(x)] or [1.0])
            # not each text in the other at the threshold and at half of it, whatever the
            # pair is valued by (the smaller share, or with containment the larger)
            low = smaller < need
            # a share not stored covers; a document wholly (95 %) in the other, which has
            # text of its own, never covers that other
            if not math.isnan(b_in_a):
                a_covers_b = ((not low or b_in_a >= need or (joined and b_in_a >= a_in_b))
                              and not (a_in_b >= 0.95 and b_in_a <= a_in_b - 0.05))
            if not math.isnan(a_in_b):
                b_covers_a = ((not low or a_in_b >= need or (joined and a_in_b >= b_in_a))
                              and not (b_in_a >= 0.95 and a_in_b <= b_in_a - 0.05))
        if a_covers_b:
            links.setdefault(a, {})[b] = v
        if b_covers_a:
            links.setdefault(b, {})[a] = v
    return links


def _random_store(seed: int):
    rng = np.random.default_rng(seed)
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/new"), Root("/ref", True), Root("/old")])
    n = int(rng.integers(3, 60))
    writes = []
    for k in range(n):
        root = ("/new", "/ref", "/old")[int(rng.integers(0, 3))]
        date = None if rng.random() < 0.2 else float(rng.integers(0, 5))  # ties on purpose
        cut = rng.random() < 0.15
        sha = f"{int(rng.integers(0, 3)):064x}" if cut else f"{k:064x}"
        writes.append(DocWrite(root=root, file_relpath=f"d{k}.txt", file_size=1, file_mtime_ns=1,
                               file_xxh128=f"{k:032x}", relpath=f"d{k}.txt", container=None, size=1 + k % 7,
                               mtime_ns=1, date=date, format="txt", xxh128=f"{k:032x}", sha256=sha,
                               text_length=int(rng.integers(1, 6)), status="ok",
                               reason=f"{TEXT_TRUNCATED} 100 characters" if cut else "", text="x"))
    ids = s.scans.write_documents(writes, "m", "k")
    m = int(rng.integers(0, 3 * n))
    x, y = rng.integers(0, n, m), rng.integers(0, n, m)
    pairs = sorted({(min(p, q), max(p, q)) for p, q in zip(x.tolist(), y.tolist()) if p != q})
    a = np.asarray([ids[p] for p, _ in pairs], dtype=np.int64)
    b = np.asarray([ids[q] for _, q in pairs], dtype=np.int64)
    score = np.round(rng.uniform(0.3, 1.0, len(pairs)), 1)
    cont = np.where(rng.random(len(pairs)) < 0.3, np.nan, np.round(rng.uniform(0.3, 1.0, len(pairs)), 1))
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", {"a": a, "b": b, "score": score, "cont_ab": cont,
                                                   "cont_ba": np.round(rng.uniform(0.3, 1.0, len(pairs)), 1)})
    for _ in range(int(rng.integers(0, 6))):
        p, q = sorted(rng.choice(n, 2, replace=False).tolist())
        s.review.set_verdict(ids[p], ids[q], "duplicate" if rng.random() < 0.5 else "not_duplicate")
    for _ in range(int(rng.integers(0, 4))):
        s.review.set_keeper(ids[int(rng.integers(0, n))], True)
    return s


@pytest.mark.parametrize("seed", range(30))
def test_random_collections_group_as_the_reference(seed, monkeypatch):
    from ndd_desktop.core import clustering_kernel, cover_kernel

    for module in (clustering_kernel, cover_kernel):  # odd seeds: the compiled loops (a large input's)
        monkeypatch.setattr(module, "SMALL", 0 if seed % 2 else module.SMALL)
    s = _random_store(seed)
    try:
        arrays = s.pairs.arrays("m", "pk")
        docs = {d.id: d for d in s.documents.all(sorted(set(arrays.a.tolist()) | set(arrays.b.tolist())))}
        graph = PairGraph(arrays, docs)  # the window's way: prepared once, every threshold
        for threshold in (0.3, 0.55, 0.8, 1.0):
            for measure in MEASURES:
                for grouping in GROUPINGS:
                    for rule in RULES:
                        kw = dict(measure=measure, keeper_rule=rule, grouping=grouping, folder_priority=("/old",))
                        want = _reference_groups_at(s, "m", "pk", threshold, **kw)
                        got = groups_at(s, "m", "pk", threshold, **kw)
                        assert got == want
                        assert [list(g.covered_by) for g in got.groups] == [list(g.covered_by) for g in want.groups]
                        assert got.member_count() == sum(len(g.members) for g in want.groups)
                        assert got.covered_count() == sum(len(g.covered_by) for g in want.groups)
                        if measure == "score":
                            assert groups_at(s, "m", "pk", threshold, graph=graph, **kw) == want
    finally:
        s.close()


def test_the_group_list_answers_from_its_arrays():
    s = _random_store(5)
    try:
        grouping = groups_at(s, "m", "pk", 0.3)
        groups = grouping.groups
        assert isinstance(groups, GroupList) and len(groups) > 1
        assert groups._made == [None] * len(groups)  # nothing made by forming them
        assert grouping.member_count() > 0 and groups._made == [None] * len(groups)
        assert [groups.member_ids(k) for k in range(len(groups))] == [g.members for g in groups]
        for row, g in enumerate(groups):
            assert groups.row_of(g.group_id) == row
            for k, m in enumerate(g.members):
                assert groups.place_of(m) == (row, k)
        assert groups.row_of(0) is None and groups.row_of(len(groups) + 1) is None
        last = groups[len(groups) - 1]
        made = sum(g is not None for g in groups._made)
        fresh = groups_at(s, "m", "pk", 0.3)
        assert fresh.group(last.group_id) == last and fresh.group(0) is None
        assert sum(g is not None for g in fresh.groups._made) == 1  # only the group asked for
        assert Grouping(list(groups)).group(last.group_id) is last and made == len(groups)
        assert groups.place_of(10**9) is None
        assert groups[-1] is groups[len(groups) - 1] and groups[1:3] == list(groups)[1:3]
        assert groups == list(groups) and groups != list(groups)[:-1]
        with pytest.raises(IndexError):
            groups[len(groups)]
    finally:
        s.close()
