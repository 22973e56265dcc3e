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
candidate with probability 1 - (1 - J^r)^b; every banding :func:`band_designs` offers
finds a pair at the design similarity with probability >= ``target``, and
:func:`band_design` takes the most selective one, or the one of one value less a band when
its fewer rounds cost less than its extra chance candidates (estimated on a sample of the
collection's own documents). Rounds run over
flat batches of documents (a compiled kernel, :mod:`core.oph_kernel`, batches on all
cores) and only one group of r rounds' band keys is held at a time, and of a large group
only a part (the rest waits in temporary files, parted by the keys' top bits:
:data:`HELD_WORDS`, :mod:`core.word_parts`), so memory and the work per document stay
flat as the collection grows; the sketches themselves may stay outside memory
(:mod:`core.sketch_batches`). Candidates are
verified exactly by the caller (:func:`core.pair_overlap.merge_shared_counts` for uint32 sketches,
:func:`core.pair_overlap.padded_shared_counts` for small ones).

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
from .kernel_load import KernelLoader
from .band_grouping import installed
from .band_words import DOC_BITS, band_word_codes
from .oph import as_u32, batch_cuts, bin_shift, flat_batch, oph_signatures, round_seed
from .oph_kernel import agreements, band_key_rows
from .parallel import run_threads
from .sketch_batches import gather, sketch_sizes
from .unique import sorted_unique
from .word_parts import WordParts, parts_for

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


# -- large sets (character q-grams): rounds of one-permutation hashing (core.oph) --

#: Bins per round for large sets (a document of ~2,500 q-grams puts ~5 in each).
LARGE_BINS = 512
#: Largest number of rounds for large sets.
LARGE_ROUNDS = 16


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
    number of groups are the choice of at most ``max_rounds`` rounds that finds a pair of
    ``jaccard`` with probability >= ``target`` at the least estimated cost
    (:func:`band_design`). The rounds are computed over flat batches of documents with one
    32-bit multiplication per value and round, and only one group's band keys (one 64-bit
    word per document and band) are held at a time: beyond :data:`HELD_WORDS` of them, a
    part of them at a time (:func:`_parted_group_codes`).
    """
    n = len(sketches)
    lens = sketch_sizes(sketches)
    live = np.flatnonzero(lens > 0)
    if live.shape[0] < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    groups, r = band_design(sketches, lens, live, jaccard, max_rounds, bins, target)
    grouper = installed()
    u = None if grouper is None else grouper.set_band_codes(sketches, live, groups, r, bins)
    if u is not None:  # found elsewhere (a cluster), with the same keys: the same pairs
        return u // n, u % n
    batches = band_key_batches(lens[live], bins)
    wide = n >= 1 << DOC_BITS
    parts = 1 if wide else parts_for(live.shape[0] * bins, HELD_WORDS)
    codes = []
    for g in range(groups):
        if parts > 1:
            try:
                codes += _parted_group_codes(sketches, live, batches, g, r, bins, n, parts)
                continue
            except OSError:  # no room for the parts in the temporary folder: in memory, as before
                parts = 1
        words = np.empty(live.shape[0] * bins, dtype=np.uint64)
        owners = np.empty(live.shape[0] * bins, dtype=np.int64) if wide else None

        def fill(batch: tuple[int, int]) -> None:  # on a thread: the kernel releases the GIL
            c0, c1 = batch
            docs = live[c0:c1]
            _band_rows(sketches, docs, g, r, bins, 0 if wide else DOC_BITS, words[c0 * bins : c1 * bins])
            if wide:
                owners[c0 * bins : c1 * bins] = np.repeat(docs, bins)

        run_threads(fill, batches)
        codes.append(band_word_codes(words, owners, n))
        del words, owners
    u = sorted_unique_codes(codes)
    return u // n, u % n


def _band_rows(sketches: Sequence[np.ndarray], docs: np.ndarray, g: int, r: int, bins: int, doc_bits: int,
               out: np.ndarray) -> np.ndarray:
    """The band words of group ``g`` of the documents ``docs``, written by the kernel into
    ``out`` (a flat run of ``len(docs) * bins`` words: band_words' packed layout with
    ``doc_bits``, whole keys with 0)."""
    values, off = gather(sketches, docs)
    flat_band_keys(np.ascontiguousarray(as_u32(values)), off, g, r, bins, docs, doc_bits, out.reshape(-1, bins))
    return out


#: Band words of one group held in memory at once, at most (a group is a word per band and
#: document: 4 GB for a million documents at 512 bins). A larger group is parted by the
#: words' top bits into temporary files as its batches are made (:mod:`core.word_parts`),
#: and the documents sharing a key are found one part at a time: equal words lie in one part.
HELD_WORDS = 1 << 25


def _parted_group_codes(sketches: Sequence[np.ndarray], live: np.ndarray, batches: list[tuple[int, int]], g: int,
                        r: int, bins: int, n: int, parts: int) -> list[np.ndarray]:
    """The pair codes of group ``g`` (packed words) found part by part, each part's
    words in memory only while its documents are paired."""
    with WordParts(parts) as held:

        def fill(batch: tuple[int, int]) -> None:  # on a thread: the kernel releases the GIL
            c0, c1 = batch
            held.add(_band_rows(sketches, live[c0:c1], g, r, bins, DOC_BITS, np.empty((c1 - c0) * bins, np.uint64)))

        run_threads(fill, batches)
        codes = []
        for words in held.read():
            checkpoint()
            codes.append(band_word_codes(words, None, n, shared_bits=held.bits))
            del words
    return codes


#: Documents whose signatures estimate how similar a collection's unrelated pairs are.
DESIGN_SAMPLE = 200
#: Seconds (2-core build machine) of the banded search's parts, to weigh its designs: a
#: value permuted into a round's bins, a bin densified and folded into a band key, a band
#: key sorted and grouped, a chance candidate screened (and held until then).
COST_VALUE_ROUND = 1.7e-9
COST_BIN_ROUND = 2e-9
COST_KEY = 2e-8
COST_CANDIDATE = 3e-6


def band_designs(jaccard: float, max_rounds: int, bins: int, target: float = 0.995) -> list[tuple[int, int]]:
    """(groups, r) of every banding of at most ``max_rounds`` rounds that finds a pair of
    ``jaccard`` with probability >= ``target``: for each r, the fewest groups of ``bins``
    bands that do (none when even ``max_rounds // r`` groups do not)."""
    out = []
    for r in range(1, 9):
        p = jaccard**r
        if p >= 1.0:
            need = 1
        elif p <= 0.0:
            continue
        else:
            need = int(np.ceil(np.log1p(-target) / np.log1p(-p) - 1e-9))
        groups = max(1, -(-need // bins))
        if groups * r <= max_rounds:
            out.append((groups, r))
    return out


def band_design(sketches: Sequence[np.ndarray], lens: np.ndarray, live: np.ndarray, jaccard: float,
                max_rounds: int, bins: int, target: float = 0.995) -> tuple[int, int]:
    """(groups, r) of the banding of :func:`band_designs` with the least estimated cost:
    the rounds (every value of every document, r rounds per group) against the chance
    candidates of unrelated pairs, which grow with the square of the collection.

    The chance candidates are estimated from DESIGN_SAMPLE documents' signatures (a round
    of SCREEN_BINS bins of their own): a pair of estimated Jaccard J becomes a candidate
    with probability 1 - (1 - J^r)^b. Only the most selective banding and the one with
    one value less a band are weighed. Fewer rounds with more chance candidates suit a
    collection of tens of thousands of documents (qgram at 20,000: 7 rounds instead of
    16, 50,795 candidates instead of 16,436 before the screen, the same pairs after it);
    a million documents take the most selective banding. Every design finds a pair of
    ``jaccard`` with probability >= ``target``. With one design, or none (the most
    selective of :func:`choose_bands` then), no sample is taken."""
    # the most selective banding and the one of one value less a band, no further: a
    # sample of 200 documents cannot see the rare pairs that bands of a few values would
    # all make candidates
    designs = band_designs(jaccard, max_rounds, bins, target)[-2:]
    if not designs:
        b, r = choose_bands(max_rounds * bins, jaccard, target)
        return max(1, -(-b // bins)), r
    if len(designs) == 1:
        return designs[0]
    n = live.shape[0]
    pick = np.sort(np.random.default_rng(0).choice(live, min(n, DESIGN_SAMPLE), replace=False))
    sig = oph_signatures(sketches, pick, lens[pick], SCREEN_BINS)
    a, b = np.triu_indices(pick.shape[0], 1)
    similar = agreements(sig, a, b) / float(SCREEN_BINS)
    values = float(lens[live].sum())
    pairs = n * (n - 1) / 2.0

    def cost(design: tuple[int, int]) -> float:
        groups, r = design
        rounds = groups * r * (values * COST_VALUE_ROUND + n * bins * COST_BIN_ROUND) + groups * n * bins * COST_KEY
        with np.errstate(divide="ignore"):  # a pair of the sample alike in every bin: a certain candidate
            chance = pairs * float(np.mean(-np.expm1(groups * bins * np.log1p(-(similar**r)))))
        return rounds + chance * COST_CANDIDATE

    return min(designs, key=lambda d: (cost(d), -d[1]))


def band_keys(batch: Sequence[np.ndarray], g: int, r: int, bins: int) -> np.ndarray:
    """(len(batch), bins) uint64: the band keys of group ``g`` (rounds g*r .. g*r + r - 1)
    of a batch of non-empty sketches; the same for a document wherever it is computed.
    Keep a batch to about SIGNATURE_BATCH values (:func:`band_key_batches`)."""
    return flat_band_keys(*flat_batch(batch), g, r, bins)


def flat_band_keys(flat: np.ndarray, off: np.ndarray, g: int, r: int, bins: int, docs: np.ndarray | None = None,
                   doc_bits: int = 0, out: np.ndarray | None = None) -> np.ndarray:
    """:func:`band_keys` of a flat batch (:func:`core.oph.flat_batch`), into ``out`` when
    given; with ``doc_bits``, the low bits of each key hold its document in ``docs``
    instead (:func:`core.band_words.band_words`' packed words)."""
    seeds = np.array([round_seed(g * r + k) for k in range(r)], dtype=np.uint32)
    keys = np.empty((off.shape[0] - 1, bins), dtype=np.uint64) if out is None else out
    if docs is None:
        docs = np.zeros(keys.shape[0], dtype=np.int64)
    # the rounds folded bin by bin (keys * FNV prime + round), the bin number xor-ed in,
    # then core.hashing.mix64 seeded by the group
    band_key_rows(flat, off, seeds, bin_shift(bins), _mix_add(_SEED + 2 + g), np.asarray(docs, dtype=np.int64),
                  np.uint64(doc_bits), keys)
    return keys


def _mix_add(seed: int) -> np.uint64:
    """What :func:`core.hashing.mix64` with ``seed`` adds before it mixes."""
    return np.uint64((seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)


def band_key_batches(lens: np.ndarray, bins: int) -> list[tuple[int, int]]:
    """(start, stop) of the batches :func:`band_keys` takes over documents of these
    (non-zero) sizes."""
    cuts = batch_cuts(lens, bins)
    return list(zip(cuts[:-1], cuts[1:]))


#: Bins of the signature that screens the candidates of large sets.
SCREEN_BINS = 128
#: A candidate is dropped when its estimated Jaccard lies this many standard deviations
#: below the design similarity (for a pair at the design, about 3e-7 of a chance).
SCREEN_SIGMAS = 5.0
#: Candidates screened between two checkpoints.
SCREEN_STEP = 1 << 16


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
    m = i.shape[0]
    if m == 0:
        return i, j
    # the documents involved, and each one's row in the signatures (no sort of the pairs:
    # at a million documents there are tens of millions of chance candidates)
    involved = np.zeros(len(sketches), dtype=bool)
    involved[i] = True
    involved[j] = True
    docs = np.flatnonzero(involved)
    row = np.cumsum(involved) - 1
    del involved
    sizes = sketch_sizes(sketches)
    sig = oph_signatures(sketches, docs, sizes[docs], bins)
    keep = np.empty(m, dtype=bool)
    for s in range(0, m, SCREEN_STEP):
        checkpoint()
        e = min(s + SCREEN_STEP, m)
        agree = agreements(sig, row[i[s:e]], row[j[s:e]])
        keep[s:e] = screen_mask(agree, sizes[i[s:e]], sizes[j[s:e]], jaccard, bins)
    return i[keep], j[keep]


def screen_mask(agree: np.ndarray, size_i: np.ndarray, size_j: np.ndarray, jaccard: float, bins: int) -> np.ndarray:
    """Which candidates pass the screen: ``agree`` bins of ``bins`` equal in the two
    signatures, an estimated Jaccard not more than SCREEN_SIGMAS standard deviations below
    ``jaccard`` (the deviation of the smaller set's bins, at most ``bins``)."""
    eff = np.minimum(np.minimum(size_i, size_j), bins).astype(np.float64)
    margin = SCREEN_SIGMAS * np.sqrt(jaccard * (1.0 - jaccard) / np.maximum(eff, 1.0))
    return agree / bins >= jaccard - margin


def sorted_unique_codes(codes: list[np.ndarray]) -> np.ndarray:
    """Sorted distinct values of several arrays (a sort and a mask)."""
    if not codes:
        return np.empty(0, np.int64)
    u = np.concatenate(codes)
    u.sort()
    if u.shape[0] > 1:
        u = u[np.concatenate(([True], u[1:] != u[:-1]))]
    return u


def lsh_pairs(sketches: Sequence[np.ndarray], jaccard: float, screen: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Candidate pairs likely (>= 99.5 %) to include every pair of Jaccard >= ``jaccard``
    (the caller verifies them exactly), from :func:`band_pairs`: SMALL_BINS bins and
    at most SMALL_ROUNDS rounds for small sets (median below SMALL_SET values), LARGE_BINS
    and LARGE_ROUNDS otherwise. With ``screen`` (large sets), candidates whose estimated
    Jaccard lies far below ``jaccard`` are dropped before they cost an exact verification
    (:func:`screen_candidates`); only pairs below the design, which the bands found by
    chance, can be lost that way."""
    lens = sketch_sizes(sketches)
    nonzero = lens[lens > 0]
    if nonzero.shape[0] < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    if float(np.median(nonzero)) < SMALL_SET:
        return band_pairs(sketches, jaccard, max_rounds=SMALL_ROUNDS, bins=SMALL_BINS)
    i, j = band_pairs(sketches, jaccard)
    return screen_candidates(sketches, i, j, jaccard) if screen else (i, j)


def _warm() -> None:
    """Load the compiled kernels of the banded search and of the exact verification after
    it, for the set types of every set-based method (32-bit q-gram sets, large and small
    64-bit sets), by running them on a few tiny sets. Numba's import and the loading of its
    cached machine code take about a second the first time in a process; a scan does this
    on a thread while its files are read (``pipeline.kernel_warmup``), so that its pair
    stage does not wait for it. The band words' sort is timed here too
    (``core.word_sort.part_sorter``). Nothing else is kept."""
    from .pair_overlap import merge_shared_counts
    from .word_sort import part_sorter

    part_sorter()  # which sort serves the band words on this machine, timed here
    rng = np.random.default_rng(0)
    for dtype, size in ((np.uint32, SMALL_SET + 64), (np.uint64, SMALL_SET + 64), (np.uint64, 64)):
        values = sorted_unique(rng.integers(1, 1 << 31, 4 * size).astype(dtype))
        a, b = values[:size], values[size : 2 * size]
        sets = [a, a.copy(), b, b.copy()]  # two pairs for the bands to find
        i, j = lsh_pairs(sets, 0.5, screen=True)
        merge_shared_counts(sets, i, j)


#: :func:`_warm` once per process, numba's NumPy support loaded without SciPy's BLAS
#: (``core.kernel_load``: importing ``scipy.linalg`` cost the scan's process a quarter of a
#: CPU second while its workers read the files).
warm = KernelLoader(_warm)
