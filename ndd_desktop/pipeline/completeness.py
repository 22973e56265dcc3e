"""How to say that a pair set is incomplete below some score (command line and window).

A scan stores every pair down to its floor, except where the candidate search does not
reach it (``store.PairSet.complete_from``): on collections too large for an exact join
the banded search of the set methods is designed for the default threshold, so pairs
below it are stored only when the bands happened to find them; fingerprint searches
Hamming distances up to its search radius only; and filters designed for resemblance
(banded qgram/bottomk, minhash's features) promise nothing for containment.
"""

from __future__ import annotations

BITS = 128  # fingerprint's bits: a score s is a Hamming distance of (1 - s) * 128


def incompleteness(complete_from: float, method: str | None = None) -> str:
    """One sentence: what a pair set that is complete only from ``complete_from`` lacks."""
    if method == "fingerprint":
        radius = round((1.0 - complete_from) * BITS)
        return (f"fingerprint searched Hamming distances up to {radius} (scores from {complete_from:g}); "
                f"pairs below {complete_from:g} were not searched (a larger search_radius looks further)")
    if complete_from >= 1.0:
        return ("the candidate search was designed for resemblance; "
                "pairs may be missing at any containment")
    return (f"this large collection was searched with bands designed for {complete_from:g}; "
            f"pairs below {complete_from:g} are only those the bands happened to find")
