"""Groups of near-duplicates at a threshold, with the document to keep in each.

Shared by the command line, the window and the export so that all three agree on what a
group is. Pairs at or above the threshold are edges, strongest first; a reviewer's
"not duplicate" is a cannot-link constraint (that pair never ends in one group) and a
reviewer's "duplicate" is an edge whatever its score.

Two ways to form groups (``grouping``):

* ``"components"`` (the default): one group per connected component, led by its hub (the
  document with the most direct links). Partial copies of one source that share nothing with
  each other meet in the source's group; members linked only through others are shown with
  their stored score to the principal (below the threshold) or none when it was below the
  floor. Measured on labelled collections in docs/quality.md.
* ``"principal"``: the longest document leads a group of the documents directly similar to
  it (``core.clustering.principal_groups``), so every member is similar to its principal.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..core.clustering import component_groups, principal_groups
from ..core.cover import choose_keepers
from ..ingest.reasons import TEXT_TRUNCATED
from ..store import DocumentInfo, PairArrays, Store
from .pair_lookup import PairLookup

KEEPER_RULES = ("reference-oldest", "oldest", "newest", "longest", "folder-priority", "latest")
MEASURES = ("score", "containment")
GROUPINGS = ("components", "principal")


@dataclass(frozen=True)
class DocGroup:
    """One group: its principal, members (principal first), score to the principal, keeper,
    and whether each member is directly similar to the principal.

    ``keepers``: every member an export keeps, the group's keeper first, then the extra
    keepers a chained group needs (see :mod:`ndd_desktop.core.cover`); ``covered_by`` maps
    each member left out to the kept document it duplicates directly and their score (or
    None for a reviewer's "duplicate" on a pair with no stored score); ``to_keeper``: each
    member's stored score with the keeper (None: below the floor). ``group_id`` counts from
    1 in the order the groups were formed.
    """

    group_id: int
    principal: int
    members: list[int]
    scores: dict[int, float | None]  # None: no stored pair with the principal (below the floor)
    keeper: int
    direct: dict[int, bool] = field(default_factory=dict)  # False: linked only through others
    keepers: tuple[int, ...] = ()
    covered_by: dict[int, tuple[int, float | None]] = field(default_factory=dict)
    to_keeper: dict[int, float | None] = field(default_factory=dict)

    def linked(self, member: int) -> bool:
        """Whether ``member`` is directly similar to the principal (not only through others)."""
        return self.direct.get(member, True)

    @property
    def left_out(self) -> list[int]:
        """The members an export leaves out, in member order: each duplicates a keeper directly."""
        return [m for m in self.members if m in self.covered_by]

    def is_extra_keeper(self, member: int) -> bool:
        """Whether ``member`` is kept besides the group's keeper (nothing kept covers it)."""
        return member != self.keeper and member in self.keepers


@dataclass(frozen=True)
class Grouping:
    """The groups at one threshold; ``left_out``: documents with an edge but in no group
    (kept apart by a reviewer's "not duplicate"); ``partial``: documents kept out of every
    group because their text was truncated (compared on a prefix only) and no document of
    the same bytes matched them; ``pair_count``: the edges used."""

    groups: list[DocGroup]
    left_out: set[int] = field(default_factory=set)
    pair_count: int = 0
    partial: set[int] = field(default_factory=set)


def _date(d: DocumentInfo) -> float:
    return d.date if d.date is not None and not math.isnan(d.date) else math.inf


def _under(path: str, folder: str) -> bool:
    folder = folder.rstrip("/\\")
    return path == folder or path.startswith(folder + os.sep) or path.startswith(folder + "/")


def keeper_key(rule: str, folder_priority: Sequence[str] = (),
               version_rank: dict[int, int] | None = None) -> Callable[[DocumentInfo], tuple]:
    """The sort key that puts the document to keep first under ``rule``.

    ``latest`` keeps the last version written: the highest place in ``version_rank``
    (document id -> place in its group's version order, ``pipeline.lineage``), then the
    newest date.

    Raises:
        ValueError: an unknown rule.
    """
    if rule == "reference-oldest":
        return lambda d: (not d.reference, _date(d), d.id)
    if rule == "oldest":
        return lambda d: (_date(d), d.id)
    if rule == "newest":
        return lambda d: (-_date(d) if _date(d) != math.inf else math.inf, d.id)
    if rule == "longest":
        return lambda d: (-d.text_length, _date(d), d.id)
    if rule == "folder-priority":
        folders = [os.path.abspath(f) for f in folder_priority]

        def rank(d: DocumentInfo) -> tuple:
            path = os.path.join(d.root, *d.relpath.split("/"))
            pos = next((k for k, f in enumerate(folders) if _under(path, f)), len(folders))
            return (pos, not d.reference, _date(d), d.id)

        return rank
    if rule == "latest":
        ranks = version_rank or {}
        return lambda d: (-ranks.get(d.id, 0), -_date(d) if _date(d) != math.inf else math.inf, d.id)
    raise ValueError(f"unknown keeper rule {rule!r} (known: {', '.join(KEEPER_RULES)})")


def groups_at(
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
    """Group the stored pairs of (method, pairs_key) at ``threshold``.

    ``measure`` is "score" (the method's score) or "containment" (the larger of the two
    containments; the score where the method has none). A reviewer's keeper choice in a
    group wins over ``keeper_rule``. ``grouping`` is "components" or "principal" (see the
    module docstring). ``arrays``: the pair set already read with ``store.pair_arrays``
    (the window keeps it, so moving the threshold does not read it again); ``docs``: documents
    already read, by id (the rest are read from the store).

    Raises:
        ValueError: an unknown measure, grouping or keeper rule.
    """
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
    links = _links_within(formed, items, verdicts, pair_value)
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
    return Grouping(out, set(ids) - grouped - partial, len(items), partial)


def _links_within(groups: list[list[int]], items, verdicts, pair_value: PairLookup) -> dict[int, dict[int, float | None]]:
    """The direct links between members of one group, both ways: every edge the groups were
    formed from (pairs at the threshold, a reviewer's "duplicate"), with its stored value
    (None for a reviewer's "duplicate" on a pair with no stored score)."""
    group_of = {m: k for k, members in enumerate(groups) for m in members}
    links: dict[int, dict[int, float | None]] = {}
    for v, a, b in items:
        ga = group_of.get(a)
        if ga is None or ga != group_of.get(b):
            continue
        if verdicts.get((a, b)) == "duplicate":
            v = pair_value.get((a, b))
        links.setdefault(a, {})[b] = v
        links.setdefault(b, {})[a] = v
    return links
