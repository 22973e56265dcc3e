"""How to say that a pair set is incomplete below some score (command line and window).

A scan stores every pair down to its floor, except on collections too large for an exact
join, where the banded search is designed for the default threshold: pairs below it are
stored only when the bands happened to find them (``store.PairSet.complete_from``).
"""

from __future__ import annotations


def incompleteness(complete_from: float) -> str:
    """One sentence: what a pair set that is complete only from ``complete_from`` lacks."""
    if complete_from >= 1.0:
        return ("the banded search of this large collection was designed for resemblance; "
                "pairs may be missing at any containment")
    return (f"this large collection was searched with bands designed for {complete_from:g}; "
            f"pairs below {complete_from:g} are only those the bands happened to find")
