"""Direction from corrected typos: later versions fix misspellings far more often than
they introduce them.

Along each step of a group's path, a word removed on one side and a word added on the
other that differ by one letter (inserted, dropped, changed or two swapped; two for words
of 8 letters or more) form a substitution. When one of the two is much more frequent in
the language (by ``wordfreq``'s Zipf frequency, at least ``MARGIN`` apart), the frequent
one is taken as the correction: the substitution votes for the direction in which the
rare word is replaced by the frequent one. Steps that change many words are rewrites, not
corrections, and are skipped. Words that the dictionary does not tell apart (names, other
languages: both rare) give no vote.
"""

from __future__ import annotations

import functools
from typing import Sequence

import jellyfish

from .normalize import tokens

MARGIN = 1.5  # Zipf units (a factor of ~30 in frequency) between a typo and its correction
MAX_CHANGED = 40  # words removed (or added) by one step beyond which it is a rewrite
MIN_LENGTH = 4
FULL_SHARE = 2  # corrections for a full-weight vote


@functools.lru_cache(maxsize=200_000)
def _zipf(word: str, language: str) -> float:
    from wordfreq import zipf_frequency  # loads its word list on first use

    return zipf_frequency(word, language)


def _close(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    limit = 2 if min(len(a), len(b)) >= 8 else 1
    return jellyfish.damerau_levenshtein_distance(a, b) <= limit


def step_votes(before: set[str], after: set[str], language: str = "en") -> int:
    """Corrections minus typos introduced between two versions' word sets (forward)."""
    removed = [w for w in before - after if len(w) >= MIN_LENGTH and w.isalpha()]
    added = [w for w in after - before if len(w) >= MIN_LENGTH and w.isalpha()]
    if not removed or not added or len(removed) > MAX_CHANGED or len(added) > MAX_CHANGED:
        return 0
    vote = 0
    for r in removed:
        for a in added:
            if _close(r, a):
                zr, za = _zipf(r, language), _zipf(a, language)
                if za >= zr + MARGIN:
                    vote += 1
                elif zr >= za + MARGIN:
                    vote -= 1
    return vote


def typo_vote(normalized_texts: Sequence[str], path: Sequence[int], language: str = "en") -> tuple[float, float] | None:
    """The typo clue along ``path``: (tau in [-1, 1]: corrections forward minus backward
    over all substitutions judged, share in [0, 1]), None when no substitution was judged."""
    words = {k: set(tokens(normalized_texts[k])) for k in path}
    forward = backward = 0
    for u, v in zip(path[:-1], path[1:]):
        vote = step_votes(words[u], words[v], language)
        forward += max(vote, 0)
        backward += max(-vote, 0)
    judged = forward + backward
    if judged == 0:
        return None
    return (forward - backward) / judged, min(1.0, judged / FULL_SHARE)
