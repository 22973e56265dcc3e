"""How to say that a pair set is incomplete below some score (command line and window).

A scan stores every pair down to its floor, except where the candidate search does not
reach it (``store.PairSet.complete_from``, a share of text like the scores): a method
whose own search covers only part of the range (banded qgram, bottomk and hybrid on
large collections, fingerprint) is completed by a search on the words
(:mod:`pipeline.completion`) designed to find pairs sharing about half their text and
more, so below that a pair is stored only when a search happened to meet it; and filters
designed for resemblance promise nothing for containment.
"""

from __future__ import annotations


def incompleteness(complete_from: float, method: str | None = None) -> str:
    """One sentence: what a pair set that is complete only from ``complete_from`` lacks."""
    if complete_from >= 1.0:
        return ("the candidate search was designed for resemblance; "
                "pairs may be missing at any containment")
    return (f"the search was designed for pairs sharing at least {complete_from:g} of their text; "
            f"pairs below {complete_from:g} are only those it happened to find")
