"""The shares of a reviewer's joins that have no stored score, read from their texts.

A reviewer's "duplicate" may join two documents whose pair was never stored (its score was
below the floor, or it was marked in the group view against a member linked through
others). Whether a kept one may stand in for the other at export depends on how much of
each is found in the other (``pipeline.group_edges``): a letter quoted in a report is a
duplicate of the report, not the report of the letter. Those shares are worked out here,
on the same scale as verification (``core.text_share``: runs of five words), from the two
stored texts. The joins are few (a reviewer marks them one by one or a group at a time),
and a process remembers the answers by pair and content, so moving the threshold does not
read the texts again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

import numpy as np

from ..core.normalize import normalize
from ..core.text_share import runs_many, share_in
from ..store import DocumentInfo, Store

#: Pairs remembered per process (two floats and a key each).
REMEMBERED = 100_000

_known: OrderedDict[tuple, tuple[float, float]] = OrderedDict()
_lock = threading.Lock()


def shares_from_texts(store: Store, docs: Mapping[int, DocumentInfo]):
    """A ``group_edges.SharesOf`` over ``store``'s texts: ``(share of a in b, share of b in
    a)`` for document ids ``a[k], b[k]`` (NaN where a text is missing). ``docs``: the
    documents by id, whose content hashes key what is remembered."""

    def shares_of(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keys = [(x, y, _content(docs, x), _content(docs, y)) for x, y in zip(a.tolist(), b.tolist())]
        with _lock:
            missing = [k for k in keys if k not in _known]
        got: dict[tuple, tuple[float, float]] = {}
        if missing:
            ids = sorted({x for k in missing for x in k[:2]})
            texts = store.documents.texts(ids)
            found = [i for i in ids if texts.get(i)]
            runs = dict(zip(found, runs_many([normalize(texts[i]) for i in found])))
            got = {k: ((share_in(runs[k[0]], runs[k[1]]), share_in(runs[k[1]], runs[k[0]]))
                       if k[0] in runs and k[1] in runs else (np.nan, np.nan)) for k in missing}
            with _lock:
                _known.update(got)
                while len(_known) > REMEMBERED:
                    _known.popitem(last=False)
        with _lock:
            pairs = [got.get(k) or _known.get(k, (np.nan, np.nan)) for k in keys]
        return (np.asarray([p[0] for p in pairs], dtype=np.float64),
                np.asarray([p[1] for p in pairs], dtype=np.float64))

    return shares_of


def _content(docs: Mapping[int, DocumentInfo], doc_id: int) -> str:
    d = docs.get(doc_id)
    return d.xxh128 if d is not None else ""
