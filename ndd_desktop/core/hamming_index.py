"""Pairs of bit-string fingerprints within a Hamming radius, exactly.

Three strategies give the same pairs:

* covering (the default for large collections): cut the bits into m parts and give part p
  a sub-radius s_p by the refined pigeonhole principle (r = s*m + a: one of the first a + 1
  parts differs in <= s bits, or one of the others in <= s - 1). Inside a part, a
  *covering family* of bit masks guarantees that any <= s differing positions miss at
  least one mask entirely: every bit position k gets a nonzero vector m(k) of GF(2)^(s+1),
  and mask M_v holds the positions with <m(k), v> = 1, for each of the 2^(s+1) - 1
  nonzero v. The vectors of <= s differing positions span at most s dimensions, so some
  nonzero v is orthogonal to all of them and M_v avoids them (the construction of Pagh,
  "Locality-sensitive hashing without false negatives", SODA 2016). Each mask holds about
  half of its part's bits, so it is a hash table key; a pair within the radius shares the
  key of at least one table, and each candidate is verified with a popcount. The number
  of parts is chosen from a cost model (tables x N keys against the expected random
  collisions, from the bit balance of the data), so the work is a sort of N keys per
  table plus a small share of the N^2 pairs.
* pigeonhole: cut the bits into radius + 1 blocks; two fingerprints within the radius agree
  on at least one whole block, so a group-by over (block, value) keys finds every candidate,
  and a popcount verifies it. Cheap when the blocks are long (small radii).
* brute force: popcount of every pair, a few thousand rows at a time. O(N^2) but a handful
  of vector operations per pair; best for small collections.

``radius_pairs`` picks the cheapest by the cost model.
"""

from __future__ import annotations

import functools

import numpy as np

from .checkpoint import checkpoint
from .hashing import mix64
from .key_runs import run_pairs
from .lsh import bucket_pairs
from .unique import sorted_unique

_BRUTE_ROWS = 256

if hasattr(np, "bitwise_count"):

    def popcount(x: np.ndarray) -> np.ndarray:
        """Number of set bits of each uint64 (numpy >= 2: a CPU instruction)."""
        return np.bitwise_count(np.asarray(x, dtype=np.uint64))

else:  # pragma: no cover - numpy 1.x
    _BYTE_COUNTS = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)

    def popcount(x: np.ndarray) -> np.ndarray:
        """Number of set bits of each uint64 (byte lookup table)."""
        x = np.ascontiguousarray(x, dtype=np.uint64)
        return _BYTE_COUNTS[x.view(np.uint8)].reshape(x.shape + (8,)).sum(axis=-1).astype(np.uint8)


def hamming(a, b) -> int:
    """Hamming distance of two bit strings: Python ints or equal-length uint64 arrays."""
    if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)):
        return (int(a) ^ int(b)).bit_count()
    x = np.bitwise_xor(np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64))
    return int(popcount(x).sum(dtype=np.int64))


def pair_distances(fps: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Hamming distances of the given rows pairs of an (N, W) uint64 matrix."""
    if len(pairs) == 0:
        return np.empty(0, dtype=np.int64)
    x = fps[pairs[:, 0]] ^ fps[pairs[:, 1]]
    return popcount(x).sum(axis=1, dtype=np.int64)


def block_bounds(bits: int, blocks: int) -> list[tuple[int, int]]:
    """Cut ``bits`` bit positions into ``blocks`` contiguous nearly equal [lo, hi) ranges."""
    edges = np.linspace(0, bits, blocks + 1).round().astype(int)
    return [(int(lo), int(hi)) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo]


def block_values(fps: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Bits [lo, hi) (bit b is bit b % 64 of word b // 64) of each row, as uint64."""
    out = np.zeros(fps.shape[0], dtype=np.uint64)
    pos = lo
    while pos < hi:
        word, bit = divmod(pos, 64)
        take = min(hi - pos, 64 - bit)
        mask = np.uint64((1 << take) - 1)
        part = (fps[:, word] >> np.uint64(bit)) & mask
        out |= part << np.uint64(pos - lo)
        pos += take
    return out


def bit_agreement(fps: np.ndarray, sample: int = 4096) -> np.ndarray:
    """Per bit position, the probability that two random rows agree: p^2 + (1 - p)^2."""
    bits = fps.shape[1] * 64
    rows = fps[: min(fps.shape[0], sample)]
    ones = np.stack([(rows[:, b // 64] >> np.uint64(b % 64)) & np.uint64(1) for b in range(bits)], axis=1)
    p = ones.mean(axis=0) if rows.shape[0] else np.full(bits, 0.5)
    return p * p + (1 - p) * (1 - p)


@functools.lru_cache(maxsize=256)
def covering_tables(bits: int, radius: int, parts: int) -> tuple[tuple[int, int, int], ...]:
    """The tables of the covering strategy: (lo, hi, mask) per table.

    Bits [lo, hi) form one part (hi - lo <= 64); ``mask`` selects bits of that part (bit k
    of the mask is bit lo + k). Two bit strings within ``radius`` agree on every bit of at
    least one table's mask (refined pigeonhole over the parts, then a GF(2) covering
    family inside the part; see the module docstring).
    """
    bounds = block_bounds(bits, parts)
    m = len(bounds)
    s, a = divmod(radius, m)
    tables = []
    for p, (lo, hi) in enumerate(bounds):
        sub = s if p <= a else s - 1
        if sub < 0:
            continue
        width = hi - lo
        if sub == 0:  # the part must agree exactly
            tables.append((lo, hi, (1 << width) - 1))
            continue
        for mask in _part_masks(width, sub + 1):
            tables.append((lo, hi, mask))
    return tuple(tables)


@functools.lru_cache(maxsize=256)
def _part_masks(width: int, d: int, tries: int = 32) -> tuple[int, ...]:
    """Masks M_v (v = 1 .. 2^d - 1) of a part of ``width`` bits: bit k is in M_v when
    <m(k), v> is odd. Any nonzero vectors m(k) make a covering family; these are drawn
    (distinct while possible) so that the masks are long (few random collisions): the
    draw with the fewest expected collisions, sum of 2^-|M_v|, of ``tries`` seeded ones."""
    n_vec = (1 << d) - 1
    v = np.arange(1, n_vec + 1, dtype=np.int64)
    best, best_rate = None, float("inf")
    for seed in range(tries):
        rng = np.random.default_rng(seed)
        reps = -(-width // n_vec)
        vecs = np.concatenate([rng.permutation(n_vec) + 1 for _ in range(reps)])[:width]
        parity = np.zeros((n_vec, width), dtype=np.int64)
        both = v[:, None] & vecs[None, :]
        while both.any():
            parity ^= both & 1
            both >>= 1
        rate = float(np.exp2(-parity.sum(axis=1)).sum())
        if rate < best_rate:
            best, best_rate = parity, rate
    weights = [1 << k for k in range(width)]
    return tuple(sum(w for w, bit in zip(weights, row) if bit) for row in best.tolist())


#: Cost model constants (seconds, measured with numpy 2 on one core): per covering table
#: (fixed), per key of a covering table, per candidate pair it verifies, per brute-force pair.
COST_TABLE = 3e-5
COST_KEY = 1.4e-8
COST_CANDIDATE = 2e-8
COST_BRUTE_PAIR = 1e-8
#: Never use more covering tables than this (their masks are built in Python).
MAX_TABLES = 4096


def covering_plan(fps: np.ndarray, radius: int) -> tuple[int, float, float]:
    """(parts, estimated covering seconds, estimated brute-force seconds) for ``fps``."""
    n, words = fps.shape
    bits = words * 64
    pairs = n * (n - 1) / 2.0
    brute = pairs * COST_BRUTE_PAIR
    if radius < 0:
        return 1, 0.0, brute
    log_agree = np.log(np.maximum(bit_agreement(fps), 1e-12))
    best = (0, float("inf"))
    for parts in range(words, bits + 1):
        m = len(block_bounds(bits, parts))
        s, a = divmod(radius, m)
        n_tables = (a + 1) * ((1 << (s + 1)) - 1) + (m - a - 1) * max((1 << s) - 1, 0)
        if n_tables > MAX_TABLES:
            continue
        rate = 0.0
        for lo, hi, mask in covering_tables(bits, radius, parts):
            sel = [lo + k for k in range(hi - lo) if (mask >> k) & 1]
            rate += float(np.exp(log_agree[sel].sum()))
        cost = n_tables * (COST_TABLE + n * COST_KEY) + pairs * min(rate, 1.0) * COST_CANDIDATE
        if cost < best[1]:
            best = (parts, cost)
        if m > radius:  # more parts only make the exact-match blocks shorter
            break
    return best[0], best[1], brute


def radius_pairs(
    fps: np.ndarray, radius: int, strategy: str = "auto", parts: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i < j) of rows of ``fps`` (N, W) uint64 with Hamming distance <= radius.

    Returns (pairs (m, 2) int64, distances (m,)). ``strategy`` is "auto", "covering",
    "pigeonhole" or "brute"; all give the same pairs. ``parts`` forces the number of parts
    of the covering strategy (default: from the cost model).
    """
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    n = fps.shape[0]
    if n < 2 or radius < 0:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.int64)
    bits = fps.shape[1] * 64
    if radius >= bits:
        return _brute_pairs(fps, radius)
    if strategy in ("auto", "covering") and parts is None:
        if strategy == "auto" and n <= 2000:
            strategy = "brute"
        else:
            parts, cover_cost, brute_cost = covering_plan(fps, radius)
            if strategy == "auto":
                strategy = "covering" if parts and cover_cost < brute_cost else "brute"
            if not parts:
                parts = max(fps.shape[1], radius + 1)
    elif strategy == "auto":
        strategy = "covering"
    if strategy == "covering":
        return _covering_pairs(fps, radius, int(parts))
    if strategy == "pigeonhole" and radius + 1 <= bits:
        # At least one block per word, so each block fits a uint64 (more blocks stay exact).
        bounds = block_bounds(bits, max(radius + 1, fps.shape[1]))
        keys = np.empty((n, len(bounds)), dtype=np.uint64)
        for g, (lo, hi) in enumerate(bounds):
            # A different mixing seed per block: equal values of different blocks differ.
            keys[:, g] = mix64(block_values(fps, lo, hi), g + 1)
        pairs = bucket_pairs(keys, 1, max_bucket=None)
        dist = pair_distances(fps, pairs)
        keep = dist <= radius
        return pairs[keep], dist[keep]
    return _brute_pairs(fps, radius)


def _covering_pairs(fps: np.ndarray, radius: int, parts: int) -> tuple[np.ndarray, np.ndarray]:
    n, words = fps.shape
    bits = words * 64
    cols = [np.ascontiguousarray(fps[:, w]) for w in range(words)]
    rows = np.arange(n, dtype=np.uint64)
    found = []
    part = (-1, -1)
    values = np.empty(0, np.uint64)
    with np.errstate(over="ignore"):
        for t, (lo, hi, mask) in enumerate(covering_tables(bits, radius, parts)):
            checkpoint()
            if (lo, hi) != part:
                part, values = (lo, hi), block_values(fps, lo, hi)
            masked = values & np.uint64(mask)
            if mask >= 1 << 32:  # multiply-shift hash to 32 bits: collisions only add candidates
                masked = (masked * np.uint64(0x9E3779B97F4A7C15 ^ (t << 1))) >> np.uint64(32)
            composite = np.sort((masked << np.uint64(32)) | rows)
            key = composite >> np.uint64(32)
            a, b = run_pairs(composite, key[1:] == key[:-1], row_mask=0xFFFFFFFF)
            if a.shape[0] == 0:
                continue
            dist = popcount(cols[0][a] ^ cols[0][b])
            for w in range(1, words):
                dist = dist + popcount(cols[w][a] ^ cols[w][b])
            ok = dist <= radius
            a, b = a[ok], b[ok]
            found.append(a * n + b)
    if not found:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.int64)
    codes = sorted_unique(np.concatenate(found))
    pairs = np.stack((codes // n, codes % n), axis=1).astype(np.int64)
    return pairs, pair_distances(fps, pairs)


def _brute_pairs(fps: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]:
    n = fps.shape[0]
    found_i, found_j, found_d = [], [], []
    for lo in range(0, n - 1, _BRUTE_ROWS):
        checkpoint()
        hi = min(lo + _BRUTE_ROWS, n)
        rows = fps[lo:hi]
        cols = fps[lo + 1 :]
        dist = np.zeros((hi - lo, n - lo - 1), dtype=np.int16)
        for w in range(fps.shape[1]):
            dist += popcount(rows[:, w, None] ^ cols[None, :, w]).astype(np.int16)
        # Row a (document lo + a) pairs with column c (document lo + 1 + c) only when c >= a.
        a, c = np.nonzero((dist <= radius) & (np.arange(n - lo - 1)[None, :] >= np.arange(hi - lo)[:, None]))
        found_i.append(lo + a)
        found_j.append(lo + 1 + c)
        found_d.append(dist[a, c])
    if not found_i:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.int64)
    pairs = np.stack((np.concatenate(found_i), np.concatenate(found_j)), axis=1).astype(np.int64)
    return pairs, np.concatenate(found_d).astype(np.int64)
