"""Uniform 64-bit words parted by their top bits into temporary files, then read back part
by part.

A group of the banded search (:mod:`core.set_lsh`) gives every document a word per band:
512 words a document, 4 GB for a million documents, which the search held at once to sort
them and find the words two documents share. Equal words have equal top bits, so the
words can be parted by their top bits as they are made and each part sorted alone: only
one part is then in memory at a time. The parts wait in unnamed temporary files (deleted
when closed, or by the system if the process dies; the page cache keeps what fits), one a
part; words arrive in batches from several threads, each part's file behind its own lock.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator

import numpy as np

#: Most parts (their number is a power of two up to this: 16 bits of a word at most).
MAX_PARTS = 1 << 12


def parts_for(words: int, held: int) -> int:
    """How many parts keep each part of ``words`` uniform words to about ``held`` words:
    the least power of two that does, at most :data:`MAX_PARTS` (1 when all fit)."""
    parts = 1
    while parts < MAX_PARTS and words > parts * held:
        parts *= 2
    return parts


class WordParts:
    """Words added in batches, read back part by part (a part: the words of equal top
    ``log2(parts)`` bits). Use as a context manager: the files go when it closes."""

    def __init__(self, parts: int) -> None:
        if parts < 2 or parts & (parts - 1) or parts > MAX_PARTS:
            raise ValueError(f"parts must be a power of two from 2 to {MAX_PARTS}, got {parts}")
        self.parts = parts
        #: top bits that the words of one part share
        self.bits = parts.bit_length() - 1
        self._shift = np.uint64(64 - self.bits)
        self._files = [tempfile.TemporaryFile(prefix="ndd-words-") for _ in range(parts)]
        self._locks = [threading.Lock() for _ in range(parts)]
        self._sizes = [0] * parts

    def add(self, words: np.ndarray) -> None:
        """Append a batch of uint64 words to their parts (from any thread)."""
        words = np.asarray(words, dtype=np.uint64).reshape(-1)
        if words.shape[0] == 0:
            return
        top = (words >> self._shift).astype(np.uint16)
        order = np.argsort(top, kind="stable")  # a radix sort of 16-bit keys
        ordered = words[order]
        ends = np.cumsum(np.bincount(top, minlength=self.parts))
        start = 0
        for p, end in enumerate(ends.tolist()):
            if end > start:
                with self._locks[p]:
                    self._files[p].write(ordered[start:end].data)
                    self._sizes[p] += end - start
            start = end

    def sizes(self) -> list[int]:
        """Words in each part so far."""
        return list(self._sizes)

    def read(self) -> Iterator[np.ndarray]:
        """Each part's words in turn (a new array each; the part's file is emptied once read)."""
        for p, f in enumerate(self._files):
            with self._locks[p]:
                f.flush()
                f.seek(0)
                words = np.fromfile(f, dtype=np.uint64, count=self._sizes[p])
                f.seek(0)
                f.truncate()
                self._sizes[p] = 0
            yield words

    def close(self) -> None:
        """Delete the parts' files."""
        for f in self._files:
            f.close()

    def __enter__(self) -> WordParts:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
