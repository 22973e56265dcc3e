"""Document pairs from posting lists: every pair of documents that meet under one key.

The joins of :mod:`core.inverted_index` reduce to this step. Entries (key, document)
sorted by key form groups; each group emits its document pairs, in chunks of about
``CHUNK_PAIRS`` so the temporaries stay bounded, and the pairs are counted (the number
of keys a pair shares) or, for prefix probes, listed once.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .checkpoint import checkpoint
from .feature_index import FeatureIndex
from .unique import sorted_unique

#: Pairs emitted per chunk (bounds the temporaries of pair generation).
CHUNK_PAIRS = 4_000_000

#: Keeps the pairs (a[k], b[k]) whose mask entry is True.
PairFilter = Callable[[np.ndarray, np.ndarray], np.ndarray]


def count_groups(
    keys: np.ndarray,
    docs: np.ndarray,
    n_docs: int,
    keep: PairFilter | None,
    sink: Callable[[np.ndarray, np.ndarray], None] | None = None,
):
    """Pairs of documents sharing a group key, with the number of groups they share.

    ``keys``/``docs`` are sorted by (key, doc); documents are unique within a key.
    Pairs are emitted in chunks of about CHUNK_PAIRS and counted with np.unique. With a
    ``sink``, each chunk's (pair codes a * n_docs + b, counts) go to it instead and
    nothing is returned (no merge of the chunks).
    """
    m = keys.shape[0]
    if m < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    new_group = np.concatenate(([True], keys[1:] != keys[:-1]))
    group_start = np.flatnonzero(new_group)
    group_end = np.append(group_start[1:], m)
    sizes = group_end - group_start
    ends = np.repeat(group_end, sizes)
    after = ends - np.arange(m) - 1  # partners of each entry later in its group
    cum = np.cumsum(after)
    chunk_keys, chunk_counts = [], []
    start = 0
    while start < m:
        checkpoint()
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + CHUNK_PAIRS, side="right"))
        stop = min(max(stop, start + 1), m)
        c = after[start:stop]
        total = int(c.sum())
        if total:
            first = np.repeat(np.arange(start, stop) + 1, c)
            within = np.arange(total) - np.repeat(np.cumsum(c) - c, c)
            a = np.repeat(docs[start:stop], c).astype(np.int64)
            b = docs[first + within].astype(np.int64)
            if keep is not None:
                mask = keep(a, b)
                a, b = a[mask], b[mask]
            k, n = np.unique(a * n_docs + b, return_counts=True)
            if sink is not None:
                sink(k, n)
            else:
                chunk_keys.append(k)
                chunk_counts.append(n)
        start = stop
    return merge_counts(chunk_keys, chunk_counts)


def pair_counts(index: FeatureIndex, features: np.ndarray, keep: PairFilter | None, sink=None):
    """(a * n + b, count) for the pairs a < b sharing features marked in ``features`` (a
    bool per feature id), counted posting list by posting list (or passed to ``sink`` in
    chunks, see :func:`count_groups`)."""
    sel = np.flatnonzero(features[index.gid])
    order = sel[np.argsort(index.gid[sel], kind="stable")]  # stable: docs stay ascending
    return count_groups(index.gid[order], index.entry_docs[order], index.n_docs, keep, sink)


def merge_counts(chunk_keys, chunk_counts):
    if not chunk_keys:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    if len(chunk_keys) == 1:
        return chunk_keys[0], chunk_counts[0].astype(np.int64)
    keys, inv = np.unique(np.concatenate(chunk_keys), return_inverse=True)
    counts = np.bincount(inv.reshape(-1), weights=np.concatenate(chunk_counts), minlength=keys.shape[0])
    return keys, counts.astype(np.int64)


def probe_groups(keys, docs, is_probe, n_docs, keep: PairFilter | None):
    """Pairs (probe entry, any other entry of its group); returns unique sorted pair keys."""
    m = keys.shape[0]
    new_group = np.concatenate(([True], keys[1:] != keys[:-1]))
    group_start = np.flatnonzero(new_group)
    sizes = np.diff(np.append(group_start, m))
    g_start = np.repeat(group_start, sizes)
    g_size = np.repeat(sizes, sizes)
    probes = np.flatnonzero(is_probe & (g_size > 1))
    c = g_size[probes]
    cum = np.cumsum(c)
    out = []
    start = 0
    while start < probes.shape[0]:
        checkpoint()
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + CHUNK_PAIRS, side="right"))
        stop = min(max(stop, start + 1), probes.shape[0])
        pk, cc = probes[start:stop], c[start:stop]
        total = int(cc.sum())
        within = np.arange(total) - np.repeat(np.cumsum(cc) - cc, cc)
        a = np.repeat(docs[pk], cc).astype(np.int64)
        b = docs[np.repeat(g_start[pk], cc) + within].astype(np.int64)
        mask = a != b
        if keep is not None:
            mask &= keep(a, b)
        a, b = a[mask], b[mask]
        out.append(sorted_unique(np.minimum(a, b) * n_docs + np.maximum(a, b)))
        start = stop
    return sorted_unique(np.concatenate(out)) if out else np.empty(0, np.int64)


def prefix_entries(index: FeatureIndex, rank: np.ndarray, prefix_len: np.ndarray):
    """(rank, doc) of the first ``prefix_len[d]`` features of each document in rank order."""
    n_feat = np.int64(index.n_features)
    ranks_out, docs_out = [], []
    for b0, b1 in index.doc_batches():
        s, e = int(index.offsets[b0]), int(index.offsets[b1])
        local = np.repeat(np.arange(b1 - b0, dtype=np.int64), index.lengths[b0:b1])
        comp = np.sort(local * n_feat + rank[index.gid[s:e]])
        local = comp // n_feat
        r = comp - local * n_feat
        pos = np.arange(e - s) - (index.offsets[b0 + local] - s)
        sel = pos < prefix_len[b0 + local]
        ranks_out.append(r[sel])
        docs_out.append(local[sel] + b0)
    return np.concatenate(ranks_out), np.concatenate(docs_out)
