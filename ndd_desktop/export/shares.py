"""How much of a left-out document the export holds: the share of its text found in the
document it is left out for, and the warning when that share is small.

The share is read from the stored pair (its containment columns), is 1 for the same
bytes, and for a reviewer's "duplicate" on a pair that was never stored (no score) it is
worked out from the two texts, as the grouping itself did to decide the join
(``pipeline.join_shares``, which remembers its answers, so the texts are not read twice).
A reviewer may join two texts that share little or nothing; the document is then left out
as the groups say, but its row says how little of it the export holds.
"""

from __future__ import annotations

import math

import numpy as np

from ..pipeline.join_shares import shares_from_texts

#: Below this share of a left-out document found in what it is left out for, its note
#: asks to check it before the original is deleted (the half the groups ask of a link).
LOW_SHARE = 0.5


def containment_lookup(pairs) -> callable:
    """A function ``(x, y) -> share of x found in y`` over the store's pair arrays."""
    if len(pairs) == 0:
        return lambda x, y: None
    a = pairs.a.astype(np.int64)
    b = pairs.b.astype(np.int64)
    keys = (a << 32) | b
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]

    def lookup(x: int, y: int) -> float | None:
        lo, hi = (x, y) if x < y else (y, x)
        k = (int(lo) << 32) | int(hi)
        pos = int(np.searchsorted(skeys, k))
        if pos >= len(skeys) or int(skeys[pos]) != k:
            return None
        idx = order[pos]
        value = float(pairs.cont_ab[idx] if x < y else pairs.cont_ba[idx])
        return None if math.isnan(value) else value

    return lookup


def found_in(contained, d, other, texts=None) -> float | None:
    """The share of ``d``'s text found in ``other`` (documents): the stored one, 1 for the
    same bytes (the exact method stores no shares), else from the two texts when
    ``texts`` is given (a ``join_shares`` function: only for pairs with no stored score),
    None when not known. The score of a pair with containment is its larger share, which
    may be the other's share in ``d``: the reports give this one beside it, so that no one
    reads "score 1" as "all of it kept"."""
    if other is None:
        return None
    share = contained(d.id, other.id)
    if share is None and d.sha256 and d.sha256 == other.sha256:
        return 1.0
    if share is None and texts is not None:
        value = float(texts(np.asarray([d.id], dtype=np.int64), np.asarray([other.id], dtype=np.int64))[0][0])
        share = None if math.isnan(value) else value
    return share


def text_shares(store, by_id):
    """The ``join_shares`` function over ``store``'s texts (documents ``by_id``)."""
    return shares_from_texts(store, by_id)


def low_share_note(row) -> str:
    """The warning on a left-out row of which less than :data:`LOW_SHARE` is found in the
    document it is left out for ("" otherwise, or when the share is not known)."""
    share = row.found_in_duplicate_of
    if share is None or share >= LOW_SHARE or not row.duplicate_of:
        return ""
    return (f"check before deleting the original: only {share:.0%} of its text is found in "
            f"{row.duplicate_of}, the document it is left out for")


#: A left-out document with less than this share of its text found in what it is left out
#: for holds a tenth or more of its own: the export's summary counts such documents.
MOSTLY_FOUND = 0.9


def partly_elsewhere(rows) -> int:
    """How many left-out rows (``DocumentRow`` with a ``duplicate_of``) have less than
    :data:`MOSTLY_FOUND` of their text in the document they are left out for."""
    return sum(1 for r in rows if r.duplicate_of and r.found_in_duplicate_of is not None
               and r.found_in_duplicate_of < MOSTLY_FOUND)


def partly_elsewhere_summary(n: int) -> str:
    """One sentence on :func:`partly_elsewhere` ("" when none): a near-duplicate differs by
    definition, and its differences go out only if another kept document holds them."""
    if not n:
        return ""
    return (f"{n:,} document{'s' if n != 1 else ''} left out {'have' if n != 1 else 'has'} a tenth or more of "
            f"{'their' if n != 1 else 'its'} text in no document {'they are' if n != 1 else 'it is'} left out "
            "for (found_in_duplicate_of under 0.9 in left_out.csv): read the differences (ndd compare) before "
            "deleting originals, or export with a higher threshold to keep them")


#: The formats of e-mail messages (``pipeline.threads.MESSAGE_FORMATS``, without importing
#: the threads here).
_MESSAGES = ("eml", "msg")


def mails_left_out(rows) -> int:
    """How many left-out rows are e-mail messages left out as near-duplicates."""
    return sum(1 for r in rows if r.duplicate_of and r.format in _MESSAGES)


def mails_left_out_summary(n: int) -> str:
    """One sentence on :func:`mails_left_out` for an export of every e-mail ("" when none):
    a reply that adds a line to the message it quotes is its near-duplicate, and its line
    goes out only if another kept message holds it (5 of 60 threads lost their last message,
    "Fine by me too, let us proceed.", with no note: a tenth of it was not its own)."""
    if not n:
        return ""
    return (f"{n:,} e-mail{'s' if n != 1 else ''} left out as {'near-duplicates' if n != 1 else 'a near-duplicate'} "
            "of what is kept: a reply that "
            "adds a line to the message it quotes is one; --emails inclusive (Only inclusive e-mails in the "
            "window) keeps every message whose text no later message of its thread holds")

