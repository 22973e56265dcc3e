"""The pair set, threshold and grouping a view of the collection shows, resolved once.

The rules themselves are in :mod:`ndd_desktop.pipeline.selection` (the export resolves
its options with them too, and export sits below this layer); this module gathers them
into one :class:`Selection` with the notes a view shows about it, for the window and
``ndd`` alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..pipeline.completeness import incompleteness
from ..pipeline.selection import (
    GroupingChoice,
    PairSetChoice,
    SelectionError,
    choose_grouping,
    choose_pair_set,
    choose_threshold,
    saved_choice,
)

__all__ = ["GroupingChoice", "PairSetChoice", "Selection", "SelectionError", "choose_grouping",
           "choose_threshold", "default_selection", "saved_choice", "select"]


@dataclass(frozen=True)
class Selection:
    """A pair set and the threshold it is shown at.

    ``threshold_source`` is ``"option"`` (given by the caller), ``"saved"`` (saved with the
    collection for this pair set) or ``"default"`` (the method's default).
    """

    choice: PairSetChoice
    threshold: float
    threshold_source: str

    @property
    def method(self) -> Any:
        """The method object."""
        return self.choice.method

    @property
    def params(self) -> Any:
        """The method's parameters object."""
        return self.choice.params

    @property
    def pair_set(self) -> Any:
        """The store's ``PairSet``."""
        return self.choice.pair_set

    @property
    def pairs_key(self) -> str:
        """The pair set's key."""
        return self.choice.pairs_key

    def notes(self) -> list[str]:
        """What a reader should know about the threshold: where it came from, and that
        pairs below it may be missing."""
        out = []
        if self.threshold_source == "saved":
            out.append(f"threshold {self.threshold:g} saved with the collection (--threshold overrides it)")
        pset = self.pair_set
        if self.threshold < pset.floor:
            out.append(f"pairs below the floor {pset.floor} were not stored")
        elif pset.complete_from is not None and self.threshold < pset.complete_from:
            out.append(incompleteness(pset.complete_from, self.method.name))
        return out


def select(store, method: str | None = None, settings: dict | None = None, pairs_key: str | None = None,
           threshold: float | None = None) -> Selection:
    """The pair set and threshold to show (see :mod:`ndd_desktop.pipeline.selection`).

    Raises:
        SelectionError: nothing scanned, an unknown method, bad parameters, no such pairs,
            or a threshold outside [0, 1].
    """
    choice = choose_pair_set(store, method, settings, pairs_key)
    value, source = choose_threshold(store.settings, choice.name, choice.params, choice.pairs_key, threshold)
    if not 0.0 <= value <= 1.0:
        raise SelectionError(f"--threshold must be between 0 and 1, got {value}", usage=True)
    return Selection(choice, value, source)


def default_selection(store) -> Selection | None:
    """What a collection shows when it is opened: the last scan's pair set at its saved or
    default threshold; None when nothing has been scanned or no pairs are stored."""
    try:
        return select(store)
    except SelectionError:
        return None
