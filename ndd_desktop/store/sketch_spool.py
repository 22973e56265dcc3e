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

The extraction workers that make the sketches can write them themselves: each appends its
sketches to a file of its own in the spool's folder (:meth:`SketchSpool.folder`, deleted
with the spool) and sends back only where they lie (:class:`SpooledBlob`), which the spool
adopts without reading. The bytes then never travel through the pipes nor through the
scan's process (qgram: 320 MB for 20,000 documents, which the scan's process received and
wrote again beside the workers). A sketch's place is one number: the file (0 is the
spool's own), the offset in it and the length, so a batch of documents that lie together
in one file is still read with one read.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import MutableMapping
from typing import Iterator, NamedTuple, Sequence

import numpy as np


class SpooledBlob(NamedTuple):
    """Sketch bytes a worker wrote into a file of a spool's folder: the file, where they
    start in it and how many there are."""

    path: str
    offset: int
    length: int


#: Prefix of a spool's folder; the process id that made it follows (see _sweep).
FOLDER_PREFIX = "ndd-spool-"
#: A sketch's place is (file << FILE_SHIFT | offset) << 32 | length: files of up to 1 TB.
FILE_SHIFT = 40


class SketchSpool(MutableMapping):
    """Sketch bytes by document id, in an unnamed temporary file (written at its end; a
    replaced or removed sketch leaves its bytes behind, unreferenced) and in the files
    workers wrote into its folder."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="ndd-sketches-")
        self._end = 0
        self._unflushed = False
        # place << 32 | length: one Python int a document (~100 bytes with the dict's entry)
        self._where: dict[int, int] = {}
        self._lock = threading.Lock()
        self._folder: str | None = None
        self._file_no: dict[str, int] = {}  # a worker's file -> its number (from 1)
        self._paths: list[str] = []  # by number - 1
        self._fds: dict[int, int] = {}  # open for reading, by number
        self._release = weakref.finalize(self, _release, self._fds, None)

    def folder(self) -> str:
        """A folder of this spool's own for workers to write their sketches into
        (:class:`SpooledBlob`), made on the first call and deleted with the spool. Folders
        that spools of processes no longer running left behind are deleted first."""
        with self._lock:
            if self._folder is None:
                _sweep(tempfile.gettempdir())
                self._folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")
                # the folder goes when the spool is closed, let go, or at the latest at exit
                self._release.detach()
                self._release = weakref.finalize(self, _release, self._fds, self._folder)
            return self._folder

    def __setitem__(self, doc_id: int, blob: bytes) -> None:
        self.update(((doc_id, blob),))

    def update(self, items=(), /, **kwargs) -> None:
        """Add many sketches: bytes with one write (a batch's sketches lie together in the
        file; one write a sketch cost a system call each, 0.7 s for qgram's 20,000), and
        :class:`SpooledBlob` places as they are."""
        if kwargs:
            raise TypeError("SketchSpool keys are document ids")
        pairs, placed = [], []
        for pair in (items.items() if hasattr(items, "items") else items):
            (placed if isinstance(pair[1], SpooledBlob) else pairs).append(pair)
        if placed:
            self._adopt(placed)
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

    def _adopt(self, placed: list[tuple[int, SpooledBlob]]) -> None:
        """Take the places of sketches a worker wrote (nothing is read)."""
        with self._lock:
            for doc_id, blob in placed:
                no = self._file_no.get(blob.path)
                if no is None:
                    self._paths.append(blob.path)
                    no = self._file_no[blob.path] = len(self._paths)
                self._where[int(doc_id)] = ((no << FILE_SHIFT) | blob.offset) << 32 | blob.length

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
        """(place, length) of a document's sketch bytes, or None; the place is what
        :meth:`read` takes (its file and the offset in it), and the bytes of documents that
        follow each other in one file have places that follow each other."""
        at = self._where.get(doc_id)
        return None if at is None else (at >> 32, at & 0xFFFFFFFF)

    def read(self, offset: int, length: int) -> bytes:
        """``length`` bytes at the place ``offset`` (:meth:`location`; any thread)."""
        no, offset = offset >> FILE_SHIFT, offset & ((1 << FILE_SHIFT) - 1)
        if no:
            fd = self._fds.get(no)
            if fd is None:
                with self._lock:
                    fd = self._fds.get(no)
                    if fd is None:
                        fd = self._fds[no] = os.open(self._paths[no - 1], os.O_RDONLY | getattr(os, "O_BINARY", 0))
        else:
            if self._unflushed:
                with self._lock:
                    self._file.flush()
                    self._unflushed = False
            fd = self._file.fileno()
        if hasattr(os, "pread"):
            data = os.pread(fd, length, offset)
        else:  # no positioned reads (Windows): one reader at a time
            with self._lock:
                os.lseek(fd, offset, os.SEEK_SET)
                data = os.read(fd, length)
        if len(data) != length:
            raise OSError(f"sketch spool: {len(data)} of {length} bytes at {offset}")
        return data

    def close(self) -> None:
        """Delete the files and the folder (the spool is empty afterwards)."""
        self._where.clear()
        self._file.close()
        self._release()


def _release(fds: dict[int, int], folder: str | None) -> None:
    """Close a spool's open files and delete its folder, if it has one."""
    for fd in fds.values():
        try:
            os.close(fd)
        except OSError:
            pass
    fds.clear()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _sweep(parent: str) -> None:
    """Delete the spool folders in ``parent`` whose process no longer runs (a scan that was
    killed); the folder of a running process is left alone, and one this user may not
    delete stays as it is."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if not name.startswith(FOLDER_PREFIX):
            continue
        pid = name[len(FOLDER_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _running(int(pid)):
            continue
        shutil.rmtree(os.path.join(parent, name), ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether a process of this id runs (or cannot be asked about: then it counts as
    running)."""
    try:
        import psutil

        return psutil.pid_exists(pid)
    except Exception:
        return True


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

    def close(self) -> None:
        """Delete the spool these sketches are read from (nothing can be read afterwards)."""
        self._spool.close()

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
