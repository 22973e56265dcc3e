"""Sketching inside the extraction workers, so it runs in parallel with everything else.

``SketchingExtractor`` is handed to ``ingest.extract_many`` as its ``extractor``: each
worker extracts a chunk of files (``extract``, one file at a time) and then sketches all
their documents with the scan's method in one call (``finish``: the method's batched path,
not its per-call overhead once per document), and the sketch bytes come back on the
document as the attribute ``sketch_blob``. Once the collection has a text dictionary the
extractor carries it (``dictionary``) and the worker also compresses each text as the
store keeps it (``store.text_codec``; a text that is its own file, from the start, as the
mark of ``store.originals``): the text comes back as the attribute ``text_blob``
and, unless ``keep_text``, without the text itself (half the bytes to send, nothing to
compress in the process that writes). The main process then only writes. A worker that
cannot sketch (any exception) leaves both attributes off and keeps the text, and the main
process sketches that document itself, so a failure shows up there, in the scan.

For a method whose sketches are made from the text and only held for the scan's pair
stage (``sketch_from_text``: qgram's q-gram sets, ~16 KB a document), the scan gives the
extractor its spool's folder (``spool_folder``): a worker appends its chunk's sketches to
a file of its own there and sends back only where they lie (``store.sketch_spool``
``SpooledBlob``). A worker that cannot write there sends the bytes as before.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Callable

from ..core.method import Method
from ..core.methods import get_method
from ..ingest.document import ExtractedDocument, FileEntry
from ..ingest.extract import extract_entry
from ..ingest.options import ExtractOptions
from ..store.originals import ORIGINAL, is_original
from ..store.sketch_spool import SpooledBlob
from ..store.text_codec import encoder_of
from . import completion
from .kernel_preload import modules_for

#: Attribute name of the sketch bytes a worker attaches to an ExtractedDocument.
SKETCH_ATTR = "sketch_blob"
#: Attribute name of the compressed text a worker attaches (``DocWrite.text_blob``).
TEXT_ATTR = "text_blob"
#: Attribute name of the word sketch a worker attaches for the completing search
#: (``pipeline.completion``), for methods whose own search may cover part of the range.
WORDS_ATTR = "words_blob"


def has_text(d: ExtractedDocument) -> bool:
    """Whether a document came with a text: as a string, or compressed by the worker."""
    return d.text is not None or getattr(d, TEXT_ATTR, None) is not None


def sketch_texts(method: Method, params: Any, texts: list[str]) -> list:
    """Normalise and sketch a batch of extracted texts (``Method.sketch_extracted``).

    What the parameter ``ignore`` names (links, e-mail addresses, numbers) is left out of
    what is sketched, never out of the stored text."""
    return method.sketch_extracted(texts, params)


def sketch_blobs(method: Method, params: Any, texts: list[str]) -> list[bytes]:
    """:func:`sketch_texts` as bytes (``Method.to_bytes``)."""
    return [method.to_bytes(s) for s in sketch_texts(method, params, texts)]


@dataclass(frozen=True)
class SketchingExtractor:
    """A picklable extractor: ``extract_entry`` with the scan's options, followed by the
    method's sketch."""

    method: str
    params: tuple[tuple[str, Any], ...]  # the parameter overrides, as sorted items
    options: ExtractOptions = ExtractOptions()
    #: the collection's text dictionary (its stored bytes): texts come back compressed
    dictionary: bytes | None = None
    #: with ``dictionary``: send the text too (the scan compares it with the stored one)
    keep_text: bool = False
    #: the folder of the scan's sketch spool: the sketches are written there, not sent
    spool_folder: str | None = None
    #: a large read: load the method's compiled sketching in the worker where its server
    #: did not (``Method.load_sketch_kernels``; ~0.3 s once, against ~50 us a document)
    load_kernels: bool = False

    @property
    def server_modules(self) -> tuple[str, ...]:
        """What the workers' server imports for this method before a large read, when it
        is not running yet (``pipeline.kernel_preload``); nothing for a few files, which
        would wait for numba's load."""
        return modules_for(self.method) if self.load_kernels else ()

    def __call__(self, entry: FileEntry, limits) -> list[ExtractedDocument]:
        """Extract and sketch one file."""
        docs = self.extract(entry, limits)
        self.finish([docs])
        return docs

    def extract(self, entry: FileEntry, limits) -> list[ExtractedDocument]:
        """The documents of one file, not yet sketched."""
        return extract_entry(entry, limits, self.options)

    def finish(self, results: list[list[ExtractedDocument]]) -> None:
        """Sketch the documents of a chunk of files in one call, in place."""
        ok = [d for docs in results for d in docs if d.status == "ok" and d.text is not None]
        if not ok:
            return
        try:
            method = get_method(self.method)
            params = method.params(dict(self.params))
            completing = completion.may_apply(method, params)
            if self.load_kernels:
                method.load_sketch_kernels(params)
                if completing:
                    completion.load_kernels()
            if completing:
                ignore = getattr(params, "ignore", "")
                normalised = method.texts_to_sketch([d.text for d in ok], ignore)  # once, for both sketches
                sketches = method.sketch_many(normalised, params)
                words = completion.rows_of_normalised(normalised)
            else:
                sketches, words = method.sketch_extracted([d.text for d in ok], params), None
            blobs = [method.to_bytes(s) for s in sketches]
        except Exception:  # the main process sketches again and reports the error
            return
        if self.spool_folder is not None:
            blobs = _spooled(self.spool_folder, blobs)
        for d, blob in zip(ok, blobs):
            setattr(d, SKETCH_ATTR, blob)
        if words is not None:
            for d, row in zip(ok, words):
                setattr(d, WORDS_ATTR, row.tobytes())
        # a text that is its own file is stored as a mark (store.originals), else compressed
        # once the collection has a dictionary (before, the scan's process compresses it)
        encode = None if self.dictionary is None else _encoder(self.dictionary)
        for d in ok:
            if is_original(d.text, container=d.container, size=d.size, xxh128=d.xxh128):
                setattr(d, TEXT_ATTR, ORIGINAL)
            elif encode is not None:
                setattr(d, TEXT_ATTR, encode(d.text))
            else:
                continue
            if not self.keep_text:
                d.drop_text()


_LOCAL = threading.local()
#: This process's file in a spool folder: [folder, descriptor, path], opened on first use.
_SPOOL_FILE: list = [None, -1, ""]


def _spooled(folder: str, blobs: list[bytes]) -> list:
    """``blobs`` appended to this process's file in ``folder``, as their places
    (:class:`SpooledBlob`); the blobs themselves when the file cannot be written (they are
    sent then, as without a folder)."""
    try:
        if _SPOOL_FILE[0] != folder:
            if _SPOOL_FILE[1] >= 0:
                os.close(_SPOOL_FILE[1])
                _SPOOL_FILE[:] = [None, -1, ""]
            path = os.path.join(folder, f"{os.getpid()}.sketches")
            flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_BINARY", 0)
            _SPOOL_FILE[:] = [folder, os.open(path, flags, 0o600), path]
        _, fd, path = _SPOOL_FILE
        start = os.lseek(fd, 0, os.SEEK_END)
        data = memoryview(b"".join(blobs))
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
    except OSError:
        return blobs
    out, at = [], start
    for blob in blobs:
        out.append(SpooledBlob(path, at, len(blob)))
        at += len(blob)
    return out


def _encoder(dictionary: bytes) -> Callable[[str], bytes]:
    """One compressor per dictionary and thread (a compressor is not to be shared between
    threads, and loading a dictionary costs more than compressing a text)."""
    held = getattr(_LOCAL, "encoder", None)
    if held is None or held[0] != dictionary:
        held = _LOCAL.encoder = (dictionary, encoder_of(dictionary))
    return held[1]
