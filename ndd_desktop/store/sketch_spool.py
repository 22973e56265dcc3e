"""Sketches waiting for a scan's pair stage in a temporary file instead of in memory.

A method whose sketches are made from the text (``sketch_from_text``: qgram, ~10 KB a
document) stores only a mark in the collection file; the sketches a scan makes are handed
to its own pair stage. Held in memory they were the largest part of a scan's memory (1 GB
at 100,000 documents, 10 GB at a million). :class:`SketchSpool` appends them to an
unnamed temporary file (deleted when closed; the operating system's page cache keeps
what fits) and keeps only where each lies; :class:`SpooledSketches` hands them to a search
as a sequence of arrays with ``sizes``, ``dtype`` and ``gather`` (``core.sketch_batches``),
reading each batch with one read where its documents lie together (the pair stage takes
them in the order they were written: by document id).
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import MutableMapping
from typing import Iterator, Sequence

import numpy as np


class SketchSpool(MutableMapping):
    """Sketch bytes by document id, in an unnamed temporary file (written at its end; a
    replaced or removed sketch leaves its bytes behind, unreferenced)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="ndd-sketches-")
        self._end = 0
        self._unflushed = False
        # offset << 32 | length: one Python int a document (~100 bytes with the dict's entry)
        self._where: dict[int, int] = {}
        self._lock = threading.Lock()

    def __setitem__(self, doc_id: int, blob: bytes) -> None:
        self.update(((doc_id, blob),))

    def update(self, items=(), /, **kwargs) -> None:
        """Add many sketches with one write (a batch's sketches lie together in the file;
        one write a sketch cost a system call each, 0.7 s for qgram's 20,000)."""
        if kwargs:
            raise TypeError("SketchSpool keys are document ids")
        pairs = list(items.items() if hasattr(items, "items") else items)
        if not pairs:
            return
        blobs = [blob for _, blob in pairs]
        with self._lock:
            self._file.seek(self._end)
            self._file.write(b"".join(blobs))
            at = self._end
            for (doc_id, _), blob in zip(pairs, blobs):
                self._where[int(doc_id)] = at << 32 | len(blob)
                at += len(blob)
            self._end = at
            self._unflushed = True

    def __getitem__(self, doc_id: int) -> bytes:
        at = self._where[doc_id]
        return self.read(at >> 32, at & 0xFFFFFFFF)

    def __delitem__(self, doc_id: int) -> None:
        del self._where[doc_id]

    _MISSING = object()

    def pop(self, doc_id: int, default=_MISSING):
        """Remove a document's sketch and return its bytes (``default`` when there is none)."""
        at = self._where.pop(doc_id, None)
        if at is None:
            if default is SketchSpool._MISSING:
                raise KeyError(doc_id)
            return default
        return self.read(at >> 32, at & 0xFFFFFFFF)

    def __iter__(self) -> Iterator[int]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)

    def location(self, doc_id: int) -> tuple[int, int] | None:
        """(offset, length) of a document's sketch bytes, or None."""
        at = self._where.get(doc_id)
        return None if at is None else (at >> 32, at & 0xFFFFFFFF)

    def read(self, offset: int, length: int) -> bytes:
        """``length`` bytes at ``offset`` (any thread)."""
        if self._unflushed:
            with self._lock:
                self._file.flush()
                self._unflushed = False
        if hasattr(os, "pread"):
            data = os.pread(self._file.fileno(), length, offset)
        else:  # no positioned reads (Windows): one reader at a time
            with self._lock:
                self._file.seek(offset)
                data = self._file.read(length)
        if len(data) != length:
            raise OSError(f"sketch spool: {len(data)} of {length} bytes at {offset}")
        return data

    def close(self) -> None:
        """Delete the file (the spool is empty afterwards)."""
        self._where.clear()
        self._file.close()


class SpooledSketches(Sequence):
    """Sketches (arrays of one dtype) of a collection's documents, in order, read from a
    :class:`SketchSpool` when asked for."""

    def __init__(self, spool: SketchSpool, offsets: np.ndarray, lengths: np.ndarray, dtype: np.dtype) -> None:
        self._spool = spool
        self._offsets = np.asarray(offsets, dtype=np.int64)
        self._lengths = np.asarray(lengths, dtype=np.int64)
        self.dtype = np.dtype(dtype)
        #: Values of each sketch.
        self.sizes = self._lengths // self.dtype.itemsize

    def __len__(self) -> int:
        return self._offsets.shape[0]

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        return np.frombuffer(self._spool.read(int(self._offsets[k]), int(self._lengths[k])), dtype=self.dtype)

    def gather(self, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, offsets): the sketches of ``docs`` end to end (``core.sketch_batches``)."""
        docs = np.asarray(docs, dtype=np.int64)
        starts, lengths = self._offsets[docs], self._lengths[docs]
        out = np.empty(int(lengths.sum()), dtype=np.uint8)
        if docs.shape[0]:
            # runs of documents whose bytes follow each other in the file: one read each
            breaks = np.flatnonzero(starts[1:] != starts[:-1] + lengths[:-1]) + 1
            first = np.concatenate(([0], breaks))
            last = np.concatenate((breaks, [docs.shape[0]]))
            at = np.concatenate(([0], np.cumsum(lengths)))
            for a, b in zip(first.tolist(), last.tolist()):
                size = int(at[b] - at[a])
                if size:
                    out[at[a] : at[b]] = np.frombuffer(self._spool.read(int(starts[a]), size), dtype=np.uint8)
        offsets = np.zeros(docs.shape[0] + 1, dtype=np.int64)
        np.cumsum(lengths // self.dtype.itemsize, out=offsets[1:])
        return out.view(self.dtype), offsets
