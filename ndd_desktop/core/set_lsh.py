"""Banded one-permutation MinHash candidates for large collections of set sketches.

Used by :func:`core.inverted_index.overlap_join` when exact prefix filtering would emit
too many pairs. Character q-grams live in a small universe (26^4 letter 4-grams), so in
a large collection every q-gram, even a document's rarest, is shared by a share of the
documents that grows with the collection: any index over single features then emits a
number of pairs that grows with N^2. Bands of r hashed-together values make keys from a
huge universe, so unrelated documents rarely collide.

Each *round* (:func:`band_pairs`) permutes every value once (multiplication by the
round's odd constant modulo 2^32: the values are uniform hashes already), cuts the hash
range into bins and keeps each bin's smallest value
(one-permutation hashing; an empty bin borrows its next non-empty neighbour's value, mixed
with the distance). Two sets agree in a bin with probability about their Jaccard
similarity J. A band takes one bin in each of r rounds; with b bands a pair becomes a
candidate with probability 1 - (1 - J^r)^b, and :func:`choose_bands` picks r and b so that
a pair at the design similarity is found with probability >= ``target``. Rounds run over
flat batches of documents and only one group of r rounds' band keys is held at a time, so
memory and the work per document stay flat as the collection grows. Candidates are
verified exactly by the caller (:func:`merge_shared_counts` for uint32 sketches,
:func:`padded_shared_counts` for small ones).

Large sets (character q-grams, thousands of values) take LARGE_BINS bins per round. Small
sets (median below SMALL_SET values, e.g. bottom-k sketches of 128 values) take
SMALL_BINS = 128 bins, about one value per bin, and up to SMALL_ROUNDS rounds: bands of
r = 6 values (at bottomk's default threshold 0.7) keep the chance collisions of unrelated
sketches (which share a few values at random, Jaccard ~0.08 on English-like text) rare
enough that their number, which grows with the square of the collection, stays far below
the linear work of the rounds.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .checkpoint import checkpoint
from .hashing import mix64
from .band_grouping import installed
from .key_runs import run_pair_codes

_SEED = 0x5E7
#: Sets with a median size below this (bottom-k sketches) are "small".
SMALL_SET = 512
#: Bins per round and largest number of rounds for small sets.
SMALL_BINS = 128
SMALL_ROUNDS = 12


def choose_bands(t_max: int, jaccard: float, target: float = 0.995) -> tuple[int, int]:
    """(b, r): the most selective banding of at most ``t_max`` bins that finds a pair of
    Jaccard ``jaccard`` with probability >= ``target`` (r = 1 if none does)."""
    best = (max(1, t_max), 1)
    for r in range(1, 9):
        b = t_max // r
        if b >= 1 and 1.0 - (1.0 - jaccard**r) ** b >= target:
            best = (b, r)
    return best


_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def _padded(sketches: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(N, max length) uint64 matrix of the sketches padded with 2^64 - 1, and lengths."""
    n = len(sketches)
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=n)
    width = max(int(lens.max()) if n else 0, 1)
    full = np.full((n, width), _ONES, dtype=np.uint64)
    if int(lens.sum()):
        valid = np.arange(width)[None, :] < lens[:, None]
        full[valid] = np.concatenate([s for s in sketches if s.shape[0]]).astype(np.uint64)
    return full, lens


def _multiplier(k: int) -> int:
    """An odd 64-bit multiplier for round k (SplitMix64 of k)."""
    z = (k * 0x9E3779B97F4A7C15 + 0x5E7) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) | 1


_DOC_BITS = 24


def _run_pairs(key: np.ndarray, doc: np.ndarray, n: int) -> np.ndarray:
    """Codes i * n + j (i < j) of the documents sharing a run of equal ``key`` (sorted)."""
    return run_pair_codes(doc, key[1:] == key[:-1], n)


_CHUNK = 1 << 20


def _packed_run_pairs(comp: np.ndarray, n: int) -> np.ndarray:
    """As :func:`_run_pairs` for sorted words (key << _DOC_BITS | document). Neighbours
    share a key when they differ only in the document bits; that test runs in chunks so
    no temporary array of the whole size is made, and documents are unpacked only at the
    positions that pair up."""
    m = comp.shape[0]
    same = np.empty(max(m - 1, 0), dtype=bool)
    limit = np.uint64(1 << _DOC_BITS)
    for s in range(0, m - 1, _CHUNK):
        e = min(s + _CHUNK, m - 1)
        np.less(comp[s + 1 : e + 1] ^ comp[s:e], limit, out=same[s:e])
    return run_pair_codes(comp, same, n, row_mask=(1 << _DOC_BITS) - 1)


def padded_shared_counts(full: np.ndarray, i: np.ndarray, j: np.ndarray, batch: int = 8192) -> np.ndarray:
    """Exact shared values of rows i[k] and j[k] of a padded sketch matrix (:func:`_padded`):
    the two rows are sorted together and equal neighbours counted (the padding value
    2^64 - 1 is never counted)."""
    out = np.empty(i.shape[0], dtype=np.int64)
    for s in range(0, i.shape[0], batch):
        z = np.concatenate([full[i[s : s + batch]], full[j[s : s + batch]]], axis=1)
        z.sort(axis=1)
        out[s : s + batch] = ((z[:, 1:] == z[:, :-1]) & (z[:, 1:] != _ONES)).sum(axis=1)
    return out



# -- large sets (character q-grams): rounds of one-permutation hashing over flat batches --

#: Bins per round for large sets (a document of ~2,500 q-grams puts ~5 in each).
LARGE_BINS = 512
#: Largest number of rounds for large sets.
LARGE_ROUNDS = 16
#: Sketch values handled at once when candidates are verified.
BATCH_ENTRIES = 8_000_000
#: Sketch values plus band keys handled at once while signatures are built: numpy's
#: temporaries stay below glibc's mmap threshold (32 MB), so they are reused instead of
#: being mapped and page-faulted afresh on every operation.
SIGNATURE_BATCH = 1_000_000
_U32 = np.uint32(0xFFFFFFFF)
_F1, _F2 = np.uint32(0x85EBCA6B), np.uint32(0xC2B2AE35)
_S16, _S13 = np.uint32(16), np.uint32(13)


def _fmix32(h: np.ndarray) -> np.ndarray:
    """In place: the 32-bit finaliser of MurmurHash3 (a bijection of uint32)."""
    with np.errstate(over="ignore"):
        h ^= h >> _S16
        h *= _F1
        h ^= h >> _S13
        h *= _F2
        h ^= h >> _S16
    return h


def _as_u32(values: np.ndarray) -> np.ndarray:
    """uint32 view of uniform hash values (64-bit values are folded)."""
    if values.dtype == np.uint32:
        return values
    v = values.astype(np.uint64, copy=False)
    return ((v ^ (v >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _seed32(k: int) -> np.uint32:
    return np.uint32(_multiplier(k + 1000) & 0xFFFFFFFF)


def _flat_round(flat: np.ndarray, base: np.ndarray, lens: np.ndarray, k: int, bins: int) -> np.ndarray:
    """(docs, bins) uint32: round ``k`` of one-permutation hashing of a flat batch.

    ``flat`` holds the batch's values (uint32, document after document) and ``base`` the
    first slot (document * bins) of each value's document. The round permutes the values
    by multiplying them with its own odd constant modulo 2^32 (the values are already
    uniform hashes, so one multiplication reorders them as MinHash's permutations do; see
    core.minhash_sketch); the top bits pick the bin and a bin keeps its smallest permuted
    value. An empty bin borrows the next filled bin of its row (circularly), mixed with the
    distance.
    """
    n = lens.shape[0]
    with np.errstate(over="ignore"):
        h = flat * _seed32(k)
    slot = (h >> np.uint32(32 - int(np.log2(bins)))).astype(base.dtype)
    slot += base
    vals = np.full(n * bins, _U32, dtype=np.uint32)
    np.minimum.at(vals, slot, h)
    vals = vals.reshape(n, bins)
    filled = vals != _U32
    if not filled.all():
        _densify(vals, filled, vals)
    return vals


_GOLDEN32 = np.uint32(0x9E3779B1)


def _densify(vals: np.ndarray, filled: np.ndarray, out: np.ndarray) -> None:
    """Into ``out`` (which may be ``vals``): each empty bin of ``vals`` takes the value of
    the next filled bin of its row (circularly), mixed with the distance; rows with no
    filled bin are left alone. ``bins`` (the row width) is a power of two.

    Empty bins are few (a document of thousands of values over hundreds of bins leaves
    well under 1 % empty), so the work follows them: every empty bin looks one bin further
    along its row per step until it meets a filled one, and a step handles only the bins
    still looking."""
    bins = vals.shape[1]
    flat_f = filled.reshape(-1)
    flat_v = vals.reshape(-1)
    pos = np.flatnonzero(~flat_f)
    src = np.empty_like(pos)
    dist = np.zeros(pos.shape[0], dtype=np.uint32)
    looking = np.arange(pos.shape[0])
    for step in range(1, bins):
        if looking.shape[0] == 0:
            break
        p = pos[looking]
        nxt = p - (p & (bins - 1)) + ((p + step) & (bins - 1))
        hit = flat_f[nxt]
        found = looking[hit]
        src[found] = nxt[hit]
        dist[found] = step
        looking = looking[~hit]
    done = dist > 0  # bins of rows with no filled bin found nothing
    with np.errstate(over="ignore"):
        borrowed = _fmix32(flat_v[src[done]] + dist[done] * _GOLDEN32)
    out.reshape(-1)[pos[done]] = borrowed


def band_pairs(
    sketches: Sequence[np.ndarray],
    jaccard: float,
    max_rounds: int = LARGE_ROUNDS,
    bins: int = LARGE_BINS,
    target: float = 0.995,
) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j) agreeing on all r values of at least one band (defaults for large
    sets; :func:`lsh_pairs` passes SMALL_BINS and SMALL_ROUNDS for small ones).

    A band is one bin in each of r rounds, ``bins`` bands per group of r rounds; r and the
    number of groups are the most selective choice of at most ``max_rounds`` rounds that
    finds a pair of ``jaccard`` with probability >= ``target``. The rounds are computed
    over flat batches of documents with one 32-bit multiplication per value and round, and only one
    group's band keys (one 64-bit word per document and band) are held at a time.
    """
    n = len(sketches)
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=n)
    b, r = choose_bands(max_rounds * bins, jaccard, target)
    groups = -(-b // bins)
    while groups > 1 and 1.0 - (1.0 - jaccard**r) ** ((groups - 1) * bins) >= target:
        groups -= 1
    live = np.flatnonzero(lens > 0)
    if live.shape[0] < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    grouper = installed()
    if grouper is not None:  # elsewhere (a cluster), with the same keys: the same pairs
        u = grouper.set_band_codes(sketches, live, groups, r, bins)
        return u // n, u % n
    cuts = _batch_cuts(lens[live], bins)
    wide = n >= 1 << _DOC_BITS
    codes = []
    for g in range(groups):
        comp = np.empty(live.shape[0] * bins, dtype=np.uint64)
        owner = np.empty(live.shape[0] * bins, dtype=np.int64) if wide else None
        for c0, c1 in zip(cuts[:-1], cuts[1:]):
            checkpoint()
            docs = live[c0:c1]
            keys = band_keys([sketches[d] for d in docs], g, r, bins)
            part = slice(c0 * bins, c1 * bins)
            if wide:
                comp[part] = keys.reshape(-1)
                owner[part] = np.repeat(docs, bins)
            else:
                comp[part] = ((keys >> np.uint64(_DOC_BITS)) << np.uint64(_DOC_BITS) | docs.astype(np.uint64)[:, None]).reshape(-1)
            del keys
        if wide:
            order = np.argsort(comp, kind="stable")
            codes.append(_run_pairs(comp[order], owner[order], n))
        else:
            # One sort of (40-bit key, document) codes; a rare false key match only adds a
            # candidate, which the caller verifies.
            comp.sort()
            codes.append(_packed_run_pairs(comp, n))
        del comp, owner
    u = sorted_unique_codes(codes)
    return u // n, u % n


def band_keys(batch: Sequence[np.ndarray], g: int, r: int, bins: int) -> np.ndarray:
    """(len(batch), bins) uint64: the band keys of group ``g`` (rounds g*r .. g*r + r - 1)
    of a batch of non-empty sketches; the same for a document wherever it is computed.
    Keep a batch to about SIGNATURE_BATCH values (:func:`band_key_batches`)."""
    blens = np.fromiter((s.shape[0] for s in batch), dtype=np.int64, count=len(batch))
    flat = _as_u32(np.concatenate(list(batch)))
    # slots (document * bins + bin) of a batch fit 32 bits: a batch holds at most
    # max(SIGNATURE_BATCH, bins) of them
    base = np.repeat(np.arange(len(batch), dtype=np.int32) * np.int32(bins), blens)
    keys = np.zeros((len(batch), bins), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(r):
            keys *= np.uint64(0x100000001B3)
            keys += _flat_round(flat, base, blens, g * r + k, bins)
    return mix64(keys ^ np.arange(bins, dtype=np.uint64)[None, :], _SEED + 2 + g)


def band_key_batches(lens: np.ndarray, bins: int) -> list[tuple[int, int]]:
    """(start, stop) of the batches :func:`band_keys` takes over documents of these
    (non-zero) sizes."""
    cuts = _batch_cuts(lens, bins)
    return list(zip(cuts[:-1], cuts[1:]))


def band_match_keys(keys: np.ndarray, n: int) -> np.ndarray:
    """What of a band key two documents must share, in a collection of ``n`` documents:
    its top 40 bits below 2^24 documents (:func:`band_pairs` packs the document number into
    the low 24; a rare false match only adds a candidate), the whole key beyond."""
    return keys if n >= 1 << _DOC_BITS else keys >> np.uint64(_DOC_BITS)


def _batch_cuts(lens: np.ndarray, bins: int) -> list[int]:
    """Cut documents of these sizes into batches of about SIGNATURE_BATCH values plus
    ``bins`` slots each (at least one document per batch): [0, c1, ..., len(lens)]."""
    cum = np.cumsum(lens + bins)
    cuts = [0]
    while cuts[-1] < lens.shape[0]:
        base = cum[cuts[-1] - 1] if cuts[-1] else 0
        nxt = int(np.searchsorted(cum, base + SIGNATURE_BATCH, side="right"))
        cuts.append(min(max(nxt, cuts[-1] + 1), lens.shape[0]))
    return cuts


#: Bins of the signature that screens the candidates of large sets, and its round (one
#: that band_pairs never uses).
SCREEN_BINS = 128
_SCREEN_ROUND = 10_000
#: A candidate is dropped when its estimated Jaccard lies this many standard deviations
#: below the design similarity (for a pair at the design, about 3e-7 of a chance).
SCREEN_SIGMAS = 5.0


def oph_signatures(sketches: Sequence[np.ndarray], docs: np.ndarray, lens: np.ndarray, bins: int = SCREEN_BINS) -> np.ndarray:
    """(len(docs), bins) uint32: one densified one-permutation round of each document
    (``lens`` its number of values; a round of its own, independent of the band rounds);
    two rows agree in a bin with probability about the documents' Jaccard similarity."""
    out = np.full((docs.shape[0], bins), _U32, dtype=np.uint32)
    live = np.flatnonzero(lens > 0)
    cuts = _batch_cuts(lens[live], bins)
    for c0, c1 in zip(cuts[:-1], cuts[1:]):
        checkpoint()
        rows = live[c0:c1]
        blens = lens[rows]
        flat = _as_u32(np.concatenate([sketches[d] for d in docs[rows].tolist()]))
        base = np.repeat(np.arange(rows.shape[0], dtype=np.int32) * np.int32(bins), blens)
        out[rows] = _flat_round(flat, base, blens, _SCREEN_ROUND, bins)
    return out


def screen_candidates(
    sketches: Sequence[np.ndarray], i: np.ndarray, j: np.ndarray, jaccard: float, bins: int = SCREEN_BINS
) -> tuple[np.ndarray, np.ndarray]:
    """The candidates whose Jaccard similarity, estimated on a ``bins``-bin signature,
    is not far below ``jaccard`` (more than SCREEN_SIGMAS standard deviations).

    On English text most band collisions of a large collection are chance ones between
    unrelated documents (Jaccard ~0.14 between their 4-gram sets: 97 % of 368,712
    candidates at 100,000 documents), and verifying each exactly merges two sketches of
    thousands of values. The estimate costs a comparison of 128 values. Its standard
    deviation is sqrt(J (1 - J) / b) with b the bins, or fewer for documents with fewer
    values than bins (their bins are mostly borrowed), so the margin widens for them.
    """
    if i.shape[0] == 0:
        return i, j
    docs, inv = np.unique(np.concatenate([i, j]), return_inverse=True)
    inv = inv.reshape(-1)
    lens = np.fromiter((sketches[d].shape[0] for d in docs.tolist()), dtype=np.int64, count=docs.shape[0])
    sig = oph_signatures(sketches, docs, lens, bins)
    m = i.shape[0]
    agree = np.empty(m, dtype=np.int64)
    step = max(1, (1 << 20) // bins)
    for s in range(0, m, step):
        checkpoint()
        e = min(s + step, m)
        agree[s:e] = np.count_nonzero(sig[inv[s:e]] == sig[inv[m + s : m + e]], axis=1)
    eff = np.minimum(np.minimum(lens[inv[:m]], lens[inv[m:]]), bins).astype(np.float64)
    margin = SCREEN_SIGMAS * np.sqrt(jaccard * (1.0 - jaccard) / np.maximum(eff, 1.0))
    keep = agree / bins >= jaccard - margin
    return i[keep], j[keep]


def sorted_unique_codes(codes: list[np.ndarray]) -> np.ndarray:
    """Sorted distinct values of several arrays (a sort and a mask)."""
    if not codes:
        return np.empty(0, np.int64)
    u = np.concatenate(codes)
    u.sort()
    if u.shape[0] > 1:
        u = u[np.concatenate(([True], u[1:] != u[:-1]))]
    return u


def merge_shared_counts(
    sketches: Sequence[np.ndarray], i: np.ndarray, j: np.ndarray, batch_entries: int = BATCH_ENTRIES
) -> np.ndarray:
    """Exact number of values shared by sketches i[k] and j[k] (sorted unique uint32 arrays).

    Pairs are taken in batches; the sketches of pair p become keys p * 2^32 + value, so
    the i side and the j side of a batch are each one sorted run, a stable sort (merge of
    two runs) puts equal keys side by side, and equal neighbours are the shared values.
    """
    m = i.shape[0]
    out = np.zeros(m, dtype=np.int64)
    if m == 0:
        return out
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    cum = np.cumsum(lens[i] + lens[j])
    start = 0
    while start < m:
        checkpoint()
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + batch_entries, side="right"))
        stop = min(max(stop, start + 1), m)
        ii, jj = i[start:stop], j[start:stop]
        tag = np.arange(stop - start, dtype=np.uint64) << np.uint64(32)
        a = np.concatenate([sketches[d] for d in ii]).astype(np.uint64)
        a |= np.repeat(tag, lens[ii])
        bb = np.concatenate([sketches[d] for d in jj]).astype(np.uint64)
        bb |= np.repeat(tag, lens[jj])
        z = np.concatenate((a, bb))
        del a, bb
        z.sort(kind="stable")
        eq = z[1:][z[1:] == z[:-1]]
        out[start:stop] = np.bincount((eq >> np.uint64(32)).astype(np.intp), minlength=stop - start)
        start = stop
    return out


def lsh_pairs(sketches: Sequence[np.ndarray], jaccard: float, screen: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Candidate pairs likely (>= 99.5 %) to include every pair of Jaccard >= ``jaccard``
    (the caller verifies them exactly), from :func:`band_pairs`: SMALL_BINS bins and
    at most SMALL_ROUNDS rounds for small sets (median below SMALL_SET values), LARGE_BINS
    and LARGE_ROUNDS otherwise. With ``screen`` (large sets), candidates whose estimated
    Jaccard lies far below ``jaccard`` are dropped before they cost an exact verification
    (:func:`screen_candidates`); only pairs below the design, which the bands found by
    chance, can be lost that way."""
    lens = np.fromiter((s.shape[0] for s in sketches), dtype=np.int64, count=len(sketches))
    nonzero = lens[lens > 0]
    if nonzero.shape[0] < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    if float(np.median(nonzero)) < SMALL_SET:
        return band_pairs(sketches, jaccard, max_rounds=SMALL_ROUNDS, bins=SMALL_BINS)
    i, j = band_pairs(sketches, jaccard)
    return screen_candidates(sketches, i, j, jaccard) if screen else (i, j)


def band_words(keys: np.ndarray, docs: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(words, owners) of a batch's band keys (:func:`band_keys`, one row per document of
    ``docs``) as :func:`band_pairs` sorts them in a collection of ``n`` documents: below
    2^24 documents one word per key, its top 40 bits and the document (owners None),
    beyond the whole key and its document apart."""
    if n >= 1 << _DOC_BITS:
        return keys.reshape(-1), np.repeat(docs.astype(np.int64), keys.shape[1])
    words = (keys >> np.uint64(_DOC_BITS)) << np.uint64(_DOC_BITS) | docs.astype(np.uint64)[:, None]
    return words.reshape(-1), None


def band_word_codes(words: np.ndarray, owners: np.ndarray | None, n: int) -> np.ndarray:
    """Sorted distinct codes ``a * n + b`` (a < b) of the documents sharing a key among
    one group's words (:func:`band_words`), for words holding every word of each of their
    keys (the whole group, or a shuffle partition of it): :func:`band_pairs`'s pairs."""
    if words.shape[0] < 2:
        return np.empty(0, np.int64)
    if owners is not None:
        order = np.argsort(words, kind="stable")
        return _run_pairs(words[order], owners[order], n)
    words = np.sort(words)
    return _packed_run_pairs(words, n)
