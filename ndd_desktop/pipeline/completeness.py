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


#: Documents whose shared words lie in short runs between fields that differ: tables (as
#: sheets, or as text with delimiters) and logs (docs/quality.md, *Forms filled in, logs
#: and sparse tables*).
SHORT_RUN_FORMATS = ("xlsx", "xls", "ods")
SHORT_RUN_SUFFIXES = (".csv", ".tsv", ".tab", ".log")
#: The share of a collection's documents from which a scan says so.
SHORT_RUN_SHARE = 0.25
#: Methods whose search rests on longer runs of shared words or on sketches of their
#: characters with the punctuation (searches that missed reformatted tables verifying at
#: up to 1.0); qgram's exact join does not.
PASSAGE_METHODS = ("minhash", "hybrid", "bottomk", "fingerprint")


def short_run_note(store, method: str) -> str:
    """One sentence when a scan with ``method`` may miss pairs of a collection made largely of
    tables or logs ("" otherwise): its search finds pairs sharing passages, while a table
    reformatted (other delimiters, number formats) shares its words in short runs only;
    tried on generated tables: bottomk missed 8 of 21 pairs qgram verified at 0.54-1.0,
    minhash 6, hybrid 2, with no note."""
    if method not in PASSAGE_METHODS:
        return ""
    tables, total = store.documents.count_kinds(SHORT_RUN_FORMATS, SHORT_RUN_SUFFIXES)
    if tables < 2 or tables < SHORT_RUN_SHARE * total:
        return ""
    return (f"{tables:,} of the {total:,} documents are tables or logs, whose shared words lie in short runs "
            f"between fields that differ: the {method} search can miss their pairs (a table saved with other "
            "delimiters or number formats); scan them with qgram (--method qgram), whose exact search does not")
