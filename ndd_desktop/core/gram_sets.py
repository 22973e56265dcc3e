"""qgram's sketches of many texts: the sorted distinct 32-bit values of each text's
character q-grams, white space and punctuation left out (``core.normalize.strip_to_letters``).

The values are those of :func:`core.batch_hashing.char_gram_values` on the stripped
texts: a q-gram of Latin-1 text (q <= 8) is its q bytes read as one little-endian
integer, mixed (multiply, xor-shift, multiply), the high 32 bits forced odd; a text
shorter than q has one value, of the whole text. For Latin-1 texts (nearly all) one
compiled pass over the batch's bytes drops the characters ``strip_to_letters`` drops and
hashes the grams; numpy sorts each text's values (its vectorised sort beats a compiled
one on a few thousand values) and a second compiled pass removes the repeats. numpy
formerly needed four encodings of every text, a translation and a decoding, about ten
passes over the grams and several calls per text. Texts with other characters take that
path still (``core.utf8_words.letters_only``, then ``char_gram_values``): the same values.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit

from .batch_hashing import char_gram_values
from .normalize import strip_to_letters
from .utf8_words import letters_only

_K1 = np.uint64(0x9FB21C651E98DF25)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_SHORT_TAG = np.uint64(0xA0761D6478BD642F)  # as core.batch_hashing's "whole (short) text" key
#: The Latin-1 bytes strip_to_letters keeps (derived from it, so the two cannot drift).
_KEEP = np.array([strip_to_letters(chr(c)) != "" for c in range(256)], dtype=np.bool_)


def qgram_sets(texts: Sequence[str], q: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets): the sketch of text k, the sorted distinct values of the q-grams
    of ``strip_to_letters(text)``, is values[offsets[k] : offsets[k + 1]] (uint32)."""
    n = len(texts)
    raws: list[bytes] = []
    latin: list[int] = []
    wide: list[int] = []
    for k, text in enumerate(texts):
        try:
            raws.append(text.encode("latin-1"))
            latin.append(k)
        except UnicodeEncodeError:
            wide.append(k)
    if q > 8:
        latin, wide = [], list(range(n))
    parts: list[tuple[list[int], np.ndarray, np.ndarray]] = []
    if latin:
        parts.append((latin, *_latin1_sets(raws, q)))
    if wide:
        parts.append((wide, *_numpy_sets([letters_only(texts[k]) for k in wide], q)))
    if len(parts) == 1 and len(parts[0][0]) == n:
        return parts[0][1], parts[0][2]
    sizes = np.zeros(n, dtype=np.int64)
    for which, _, off in parts:
        sizes[which] = np.diff(off)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    values = np.empty(int(offsets[-1]), dtype=np.uint32)
    for which, vals, off in parts:
        for j, k in enumerate(which):
            values[offsets[k] : offsets[k + 1]] = vals[off[j] : off[j + 1]]
    return values, offsets


def _latin1_sets(raws: list[bytes], q: int) -> tuple[np.ndarray, np.ndarray]:
    lengths = np.fromiter(map(len, raws), dtype=np.int64, count=len(raws))
    starts = np.zeros(len(raws), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    raw = np.frombuffer(b"".join(raws), dtype=np.uint8)
    values, offsets = _stripped_grams(raw, starts, lengths, _KEEP, q, np.uint64((1 << (8 * q)) - 1))
    for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist()):
        values[a:b].sort()
    total = _drop_repeats(values, offsets)
    return values[:total], offsets


def _numpy_sets(texts: Sequence[str], q: int) -> tuple[np.ndarray, np.ndarray]:
    """The same sets by numpy (any characters, any q)."""
    values, starts, counts = char_gram_values(texts, q)
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    out = np.empty(int(offsets[-1]), dtype=np.uint32)
    for k, (s, c) in enumerate(zip(starts.tolist(), counts.tolist())):
        out[offsets[k] : offsets[k] + c] = np.sort(values[s : s + c])
    return out[: _drop_repeats(out, offsets)], offsets


@njit(cache=True, nogil=True)
def _mixed(key: np.uint64) -> np.uint32:
    z = key * _K1
    z ^= z >> np.uint64(32)
    z *= _K2
    return np.uint32(z >> np.uint64(32)) | np.uint32(1)


@njit(cache=True, nogil=True)
def _stripped_grams(raw: np.ndarray, starts: np.ndarray, lengths: np.ndarray, keep: np.ndarray, q: int,
                    mask: np.uint64) -> tuple[np.ndarray, np.ndarray]:
    """The q-gram values (with repeats, unsorted) of each text raw[starts[k] : starts[k] +
    lengths[k]] (Latin-1) with the bytes not in ``keep`` dropped; (values, offsets).
    ``mask`` keeps a gram's 8 * q bits."""
    n = starts.shape[0]
    room = 0
    longest = 0
    for k in range(n):
        room += max(lengths[k] - q + 1, 1)
        longest = max(longest, lengths[k])
    values = np.empty(room, dtype=np.uint32)
    offsets = np.zeros(n + 1, dtype=np.int64)
    kept = np.empty(longest, dtype=np.uint8)
    at = 0
    for k in range(n):
        size = 0
        for x in range(starts[k], starts[k] + lengths[k]):
            kept[size] = raw[x]
            size += 1 if keep[raw[x]] else 0  # a dropped byte is overwritten by the next
        if size >= q:
            _hash_grams(kept, size, q, mask, values, at)
            at += size - q + 1
        elif size > 0:  # the whole text, told apart from a gram of q bytes
            key = np.uint64(0)
            for b in range(size):
                key |= np.uint64(kept[b]) << np.uint64(8 * b)
            values[at] = _mixed(key ^ (_SHORT_TAG * np.uint64(size + 1)))
            at += 1
        offsets[k + 1] = at
    return values, offsets


@njit(cache=True, nogil=True)
def _hash_grams(kept: np.ndarray, size: int, q: int, mask: np.uint64, values: np.ndarray, at: int) -> None:
    """values[at + p] = the value of the gram kept[p : p + q], p <= size - q."""
    if q == 4:  # the default, spelt out: the loop then runs on vector registers (2.5x)
        for p in range(size - 3):
            values[at + p] = _mixed(np.uint64(kept[p]) | (np.uint64(kept[p + 1]) << np.uint64(8))
                                    | (np.uint64(kept[p + 2]) << np.uint64(16)) | (np.uint64(kept[p + 3]) << np.uint64(24)))
        return
    key = np.uint64(0)
    for b in range(q - 1):  # the first gram's bytes but its last, little-endian
        key |= np.uint64(kept[b]) << np.uint64(8 * (b + 1))
    top = np.uint64(8 * (q - 1))
    for p in range(size - q + 1):  # slide: drop the oldest byte, add the next on top
        key = ((key >> np.uint64(8)) | (np.uint64(kept[p + q - 1]) << top)) & mask
        values[at + p] = _mixed(key)


@njit(cache=True, nogil=True)
def _drop_repeats(values: np.ndarray, offsets: np.ndarray) -> int:
    """In place: each run values[offsets[k] : offsets[k + 1]] (sorted) without repeats,
    moved to the front; ``offsets`` updated; the new total."""
    at = 0
    for k in range(offsets.shape[0] - 1):
        a, b = offsets[k], offsets[k + 1]
        offsets[k] = at
        for x in range(a, b):  # without a branch: a repeat is written and then overwritten
            new = 1 if x == a or values[x] != values[x - 1] else 0
            values[at] = values[x]
            at += new
    offsets[offsets.shape[0] - 1] = at
    return at
