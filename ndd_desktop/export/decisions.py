"""The reviewer's decisions as the reports show them: one verdict per document.

The store keeps an append-only log; the reports use the decisions that stand
(``store.standing_decisions()``: the newest per pair or document, while its documents
hold the content it was made on). A
document's row in the reports shows the newest standing decision that concerns it in its
group: the verdict on its pair with the group's principal (else with the keeper), or the
reviewer choosing it as keeper. A document in no group shows its newest standing pair
verdict (typically the "not duplicate" that split it off).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class ShownDecision:
    """What the verdict, reviewer and decision-time columns hold for one document."""

    verdict: str  # "duplicate", "not_duplicate", "keeper" or ""
    reviewer: str = ""
    time: float | None = None

    @property
    def time_iso(self) -> str:
        """The decision time as ISO 8601 in UTC, or "" when there is none."""
        if self.time is None:
            return ""
        return datetime.fromtimestamp(self.time, tz=timezone.utc).isoformat(timespec="seconds")


NO_DECISION = ShownDecision("")


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class DecisionIndex:
    """The latest decision per pair and per keeper, from the store's decision log."""

    def __init__(self, history):
        ordered = sorted(history, key=lambda d: (d.time, d.id))
        self._pairs: dict[tuple[int, int], object] = {}
        self._keepers: dict[int, object] = {}
        for d in ordered:
            if d.kind == "verdict" and d.b is not None:
                self._pairs[_pair(d.a, d.b)] = d
            elif d.kind == "keeper":
                self._keepers[d.a] = d
        self._by_doc: dict[int, list] = {}
        for (a, b), d in self._pairs.items():
            if d.value:
                self._by_doc.setdefault(a, []).append(d)
                self._by_doc.setdefault(b, []).append(d)

    @staticmethod
    def _shown(d, verdict: str | None = None) -> ShownDecision:
        return ShownDecision(verdict or d.value, d.reviewer or "", float(d.time))

    def for_member(self, doc: int, principal: int, keeper: int) -> ShownDecision:
        """The decision shown for ``doc``, a member of the group led by ``principal``."""
        found = []
        for other in (principal, keeper):
            if other != doc:
                d = self._pairs.get(_pair(doc, other))
                if d is not None and d.value:
                    found.append(self._shown(d))
                    break
        k = self._keepers.get(doc)
        if k is not None and k.value:
            found.append(self._shown(k, "keeper"))
        if not found:
            return NO_DECISION
        return max(found, key=lambda s: s.time)

    def chose_keeper(self, doc: int) -> bool:
        """Whether the reviewer's standing decision makes ``doc`` a keeper."""
        k = self._keepers.get(doc)
        return k is not None and bool(k.value)

    def for_unique(self, doc: int) -> ShownDecision:
        """The decision shown for ``doc`` when it is in no group."""
        ds = self._by_doc.get(doc)
        if not ds:
            return NO_DECISION
        return self._shown(max(ds, key=lambda d: (d.time, d.id)))
