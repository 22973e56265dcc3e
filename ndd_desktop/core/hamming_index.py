"""Pairs of bit-string fingerprints within a Hamming radius, exactly.

Two strategies give the same pairs:

* pigeonhole: cut the bits into radius + 1 blocks; two fingerprints within the radius agree
  on at least one whole block, so a group-by over (block, value) keys finds every candidate,
  and a popcount verifies it. Cheap when the blocks are long (small radii).
* brute force: popcount of every pair, a few thousand rows at a time. O(N^2) but a handful
  of vector operations per pair; better when blocks are short and most pairs collide.

``radius_pairs`` estimates the pigeonhole candidate rate from the bit balance of the data
and picks the cheaper one.
"""

from __future__ import annotations

import numpy as np

from .hashing import mix64
from .lsh import bucket_pairs

_BRUTE_ROWS = 256
#: Pigeonhole is used while the expected share of pairs sharing a block stays below this.
PIGEONHOLE_MAX_RATE = 0.02

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


def pigeonhole_rate(fps: np.ndarray, radius: int) -> float:
    """Expected share of random pairs that agree on some block (from the bit balance)."""
    bits = fps.shape[1] * 64
    sample = fps[: min(fps.shape[0], 4096)]
    ones = np.stack([(sample[:, b // 64] >> np.uint64(b % 64)) & np.uint64(1) for b in range(bits)], axis=1)
    p = ones.mean(axis=0)
    agree = p * p + (1 - p) * (1 - p)
    return float(sum(np.prod(agree[lo:hi]) for lo, hi in block_bounds(bits, radius + 1)))


def radius_pairs(fps: np.ndarray, radius: int, strategy: str = "auto") -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i < j) of rows of ``fps`` (N, W) uint64 with Hamming distance <= radius.

    Returns (pairs (m, 2) int64, distances (m,)). ``strategy`` is "auto", "pigeonhole"
    or "brute"; all give the same pairs.
    """
    fps = np.ascontiguousarray(fps, dtype=np.uint64)
    n = fps.shape[0]
    if n < 2 or radius < 0:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.int64)
    bits = fps.shape[1] * 64
    if strategy == "auto":
        use_pigeonhole = radius + 1 <= bits and n > 2000 and pigeonhole_rate(fps, radius) < PIGEONHOLE_MAX_RATE
        strategy = "pigeonhole" if use_pigeonhole else "brute"
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


def _brute_pairs(fps: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]:
    n = fps.shape[0]
    found_i, found_j, found_d = [], [], []
    for lo in range(0, n - 1, _BRUTE_ROWS):
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
