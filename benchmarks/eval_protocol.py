"""The scoring protocol of ../shared/eval/README.md: labels in, precision / recall / F1 out.

A labelled collection says, for every unordered pair of its documents, whether the pair is a
positive, a negative or ignored. A scan's output is scored two ways:

* pairwise: on the pairs it lists;
* group-wise: on its groups, every two members of one group counting as a listed pair.
"""

from __future__ import annotations

import csv
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

POSITIVE, NEGATIVE, IGNORED = 1, 0, -1


@dataclass
class LabelledCollection:
    """Documents of one collection and the label of each pair of them."""

    name: str
    docs_dir: Path
    doc_ids: list[str]
    positives: set[frozenset[str]]
    ignored: set[frozenset[str]]

    def label(self, a: str, b: str) -> int:
        """POSITIVE, IGNORED or NEGATIVE for the unordered pair (a, b)."""
        key = frozenset((a, b))
        if key in self.positives:
            return POSITIVE
        if key in self.ignored:
            return IGNORED
        return NEGATIVE


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load_collection(folder: Path) -> LabelledCollection:
    """Read ``docs/``, ``labels.csv`` and ``pairs.csv`` of one collection folder."""
    folder = Path(folder)
    labels = _read_csv(folder / "labels.csv")
    pairs = _read_csv(folder / "pairs.csv")
    doc_ids = [row["doc_id"] for row in labels]
    positives: set[frozenset[str]] = set()
    ignored: set[frozenset[str]] = set()
    if "is_dup_strict" in pairs[0]:  # clough_stevenson
        for row in pairs:
            key = frozenset((row["doc_a"], row["doc_b"]))
            if row["is_dup_strict"] == "1":
                positives.add(key)
            elif row["is_dup_loose"] == "1":
                ignored.add(key)
    else:  # site_policy
        for row in pairs:
            key = frozenset((row["doc_a"], row["doc_b"]))
            (positives if row["consecutive"] == "1" else ignored).add(key)
        related = folder / "related_lineages_observed.csv"
        if related.exists():
            cluster_of = {row["doc_id"]: row["cluster_id"] for row in labels}
            members: dict[str, list[str]] = {}
            for doc, cluster in cluster_of.items():
                members.setdefault(cluster, []).append(doc)
            # Documents of two related lineages share much text by design: neither way.
            for row in _read_csv(related):
                for a in members.get(row["cluster_a"], []):
                    for b in members.get(row["cluster_b"], []):
                        ignored.add(frozenset((a, b)))
    return LabelledCollection(folder.name, folder / "docs", doc_ids, positives, ignored)


@dataclass(frozen=True)
class Score:
    """Precision, recall and F1 with the counts behind them."""

    precision: float
    recall: float
    f1: float
    true_pos: int
    false_pos: int
    positives: int


def score_pairs(collection: LabelledCollection, listed: Iterable[tuple[str, str]]) -> Score:
    """Score a set of listed pairs (document ids) against the labels."""
    seen: set[frozenset[str]] = set()
    tp = fp = 0
    for a, b in listed:
        key = frozenset((a, b))
        if a == b or key in seen:
            continue
        seen.add(key)
        label = collection.label(a, b)
        if label == POSITIVE:
            tp += 1
        elif label == NEGATIVE:
            fp += 1
    total = len(collection.positives)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / total if total else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1, tp, fp, total)


def group_pairs(groups: Iterable[Iterable[str]]) -> Iterable[tuple[str, str]]:
    """Every two members of each group, as pairs."""
    for group in groups:
        yield from itertools.combinations(sorted(set(group)), 2)


def score_groups(collection: LabelledCollection, groups: Iterable[Iterable[str]]) -> Score:
    """Group-wise score: every two members of one group count as a listed pair."""
    return score_pairs(collection, group_pairs(groups))
