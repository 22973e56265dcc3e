"""The extract stage: stream files through ingest, sketch each batch, write it whole.

Documents arrive from ``extract_many`` in any order. They are gathered into batches
(a number of documents, an amount of text or a time span, whichever comes first); each
batch is matched against the store (same path, or same content at a missing path: a
move), the documents that need it are normalised and sketched, and the batch is written
in one transaction. A cancel or a crash therefore loses at most the batch in flight.
When the reading options changed (``pipeline.reading``), a document of the same content
whose text comes out different counts as changed: its old sketches go.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..core.method import Method
from ..ingest.document import ExtractedDocument, free_numbered_name
from ..ingest.options import ExtractOptions
from ..store import DocumentInfo, DocWrite, Store
from .cancel import CancelToken
from .config import ScanStopped
from .plan import ScanPlan
from .progress import ProgressMeter
from ..store.text_codec import TRAIN_MAX_BYTES, TRAIN_MAX_TEXTS
from . import completion
from .worker_sketch import SKETCH_ATTR, TEXT_ATTR, WORDS_ATTR, SketchingExtractor, has_text, sketch_blobs

BATCH_DOCS = 2000
BATCH_TEXT_CHARS = 32_000_000
BATCH_SECONDS = 2.0
#: Files in the collection from which a scan that reads files starts verification helpers:
#: each loads the compiled kernel (0.5-0.7 s of a core) and opens the collection, which
#: costs a small collection more than verifying its few candidates in its own process (its
#: kernel, once loaded, serves every later scan of the process). A rescan that reads a few
#: changed files of a large collection verifies all of its candidates again, so the
#: collection's size counts, not the files read, unless the scores of the others are kept
#: (``ExtractStage.reuses_scores``).
HELPERS_FROM_FILES = 2_000
#: Files to read from which each worker loads the method's compiled sketching itself when
#: its server has not (``SketchingExtractor.load_kernels``): numba's load costs a worker
#: ~0.3 s of CPU and saves it ~50 us a document (minhash), so it pays from ~6,000
#: documents a worker; the window's server starts before a method is chosen.
KERNELS_FROM_FILES = 20_000


@dataclass
class ExtractCounts:
    """What the extract stage did, in documents."""

    new: int = 0
    changed: int = 0
    moved: int = 0
    same: int = 0  # re-extracted (the file was touched) but the content is the same
    removed: int = 0  # documents of a re-read file that it no longer holds (an archive's member)
    files_done: int = 0
    written: set[int] = field(default_factory=set)


class ExtractStage:
    """Runs extraction for a plan and writes the results batch by batch."""

    def __init__(
        self,
        store: Store,
        method: Method,
        params: Any,
        sketch_key: str,
        plan: ScanPlan,
        meter: ProgressMeter,
        cancel: CancelToken,
        on_error: Callable[[DocumentInfo], None] | None = None,
    ) -> None:
        self.store, self.method, self.params, self.sketch_key = store, method, params, sketch_key
        self.plan, self.meter, self.cancel, self.on_error = plan, meter, cancel, on_error
        self.param_overrides: dict = {}
        #: the pair set was current before this scan: only the candidates of the documents it
        #: reads are verified (``pair_stage.reusing``), so their number decides the helpers
        self.reuses_scores = False
        self.counts = ExtractCounts()
        self._pending: list[ExtractedDocument] = []
        self._pending_chars = 0
        self._last_flush = time.monotonic()
        self._problems: set[tuple[str, str]] | None = None  # the paths of the walk's problems
        self._dictionary: bytes | None = None  # the collection's text dictionary, once it has one
        self._extractor: SketchingExtractor | None = None  # what the workers read with
        self._plain: list[str] = []  # texts pending that came back uncompressed (no dictionary yet)
        #: processes that load the verification while the workers read (pipeline.verify_helpers)
        self.helpers = None
        #: called once the reading has begun (the workers have their first files): the scan
        #: starts its pair search's kernel warm-up then (``pipeline.kernel_warmup``)
        self.on_reading: Callable[[], None] | None = None
        self._writer: ThreadPoolExecutor | None = None  # writes a batch while the next one arrives
        self._writing: Future | None = None

    #: What the progress says while the first files are being read.
    starting = "starting the extraction workers"

    def run(self, limits, workers: int | None, options: ExtractOptions | None = None) -> ExtractCounts:
        """Extract every planned file (read with ``options``); raise ScanCancelled after
        writing the finished batch."""
        self.meter.stage("extract", len(self.plan.to_extract))
        if self.plan.walk_errors:
            self._add(list(self.plan.walk_errors), count_files=False)
        if self.plan.to_extract:
            # the workers start (and load what the method needs, e.g. hybrid's dictionary)
            # before the first file comes back: say so rather than sit at 0
            self.meter.update(0, current=self.starting, force=True)
            # the workers compress the texts once the collection has a dictionary; they send
            # the text too only when it is to be compared with the stored one
            self._dictionary = self.store.scans.text_dictionary()
            # sketches held only for the pair stage are written by the workers into the
            # spool's folder (store.sketch_spool), not sent
            spool_folder = (self.store.sketches.spool_folder(self.method.name, self.sketch_key)
                            if self.method.sketch_from_text and workers != 0 else None)
            self._extractor = SketchingExtractor(self.method.name, tuple(sorted(self.param_overrides.items())),
                                                 options or ExtractOptions(), dictionary=self._dictionary,
                                                 keep_text=self.plan.reading_changed, spool_folder=spool_folder,
                                                 load_kernels=len(self.plan.to_extract) >= KERNELS_FROM_FILES)
            if workers != 0:  # with a pool: the workers get their next files while a batch is written
                self._writer = ThreadPoolExecutor(1, thread_name_prefix="ndd-write")
            try:
                for docs in self._read(self._extractor, limits, workers):
                    if self.helpers is None:  # (where the pool does not say when it started)
                        self._reading_begun(workers, limits.worker_niceness)
                    # after a cancel the readers hand out no new file, and the documents
                    # already read (the rest of a chunk, of a Dask partition) are still
                    # written: breaking here dropped them, and the next run read them again
                    self._add(docs)
            finally:
                if self._writer is not None:  # the batch in flight is written (or fails) before the stage ends
                    try:
                        self._settle()
                    finally:
                        self._writer.shutdown()
                        self._writer = None
        self.flush()
        self.cancel.raise_if_cancelled()
        self.meter.finish()
        return self.counts

    def _read(self, extractor: SketchingExtractor, limits, workers: int | None):
        """The documents of the planned files, file by file, from this machine's process pool."""
        from ..ingest.extract import likely_readers
        from ..ingest.pool import WorkersCannotStart, extract_many  # the pool starts processes: import on use

        # a rescan's few files name their formats: its workers' server imports those
        # readers only (a first scan started the server with all of them, beside its walk)
        readers = likely_readers(self.plan.to_extract.relpaths())
        # the helpers start as soon as the workers' server runs (it holds their modules),
        # so that they have loaded by the time a short extraction ends
        try:
            yield from extract_many(self.plan.to_extract, limits, workers=workers, cancel=self.cancel,
                                    extractor=extractor, refresh=lambda: self._extractor, readers=readers,
                                    started=lambda: (self._reading_begun(workers, limits.worker_niceness)
                                                     if self.helpers is None else None))
        except WorkersCannotStart as exc:  # what was read is kept; the message says what to try
            raise ScanStopped(str(exc)) from exc

    def _reading_begun(self, workers: int | None, niceness: int) -> None:
        """The verification's helpers start, and :attr:`on_reading` is called (once)."""
        self._start_helpers(workers, niceness)
        if self.on_reading is not None:
            call, self.on_reading = self.on_reading, None
            call()

    def _start_helpers(self, workers: int | None, niceness: int = 0) -> None:
        """Start the verification's helper processes, ``niceness`` steps below this one (not
        with ``workers=0``: everything then runs in this process, nor for a collection in
        memory, which no other process reads, nor for a collection of fewer than
        HELPERS_FROM_FILES files, nor when fewer are read and the stored scores of the others
        are kept: ``reuses_scores``)."""
        path = self.store.path
        files = len(self.plan.to_extract) if self.reuses_scores else self.plan.files_walked
        if workers == 0 or not path or path == ":memory:" or files < HELPERS_FROM_FILES:
            self.helpers = False
            return
        from ..ingest.pool import default_workers
        from .verify_helpers import VerifyHelpers

        self.helpers = VerifyHelpers(path, self.method.name, self.params, workers or default_workers(),
                                     niceness=niceness)

    def close(self) -> None:
        """Stop the helper processes (at the end of the scan, whatever happened)."""
        if self.helpers:
            self.helpers.close()
        self.helpers = None

    def _train(self, docs: list[ExtractedDocument]) -> None:
        """Before the collection has a text dictionary: once enough texts came back, train it
        (``store.scans.text_dictionary``) and hand it to the workers, which compress every
        later text (the main process compresses the ones before)."""
        self._plain += [d.text for d in docs if d.status == "ok" and d.text and getattr(d, TEXT_ATTR, None) is None]
        if len(self._plain) >= TRAIN_MAX_TEXTS or sum(map(len, self._plain)) >= TRAIN_MAX_BYTES:
            self._dictionary, self._plain = self.store.scans.text_dictionary(self._plain), []
            self._handed()

    def _handed(self) -> None:
        """The workers' extractor with the collection's dictionary, once it has one."""
        if self._dictionary is not None and self._extractor is not None and self._extractor.dictionary is None:
            self._extractor = replace(self._extractor, dictionary=self._dictionary)

    def _add(self, docs: list[ExtractedDocument], count_files: bool = True) -> None:
        self._rename_clashing_members(docs)
        if self._dictionary is None and self._extractor is not None:
            self._train(docs)
        self._pending.extend(docs)
        self._pending_chars += sum(d.text_length for d in docs)
        if count_files:
            files = {(d.root, d.container or d.relpath) for d in docs}
            self.counts.files_done += len(files)
            current = docs[-1].relpath if docs else ""
            self.meter.update(self.counts.files_done, current=current)
        if (
            len(self._pending) >= BATCH_DOCS
            or self._pending_chars >= BATCH_TEXT_CHARS
            or time.monotonic() - self._last_flush >= BATCH_SECONDS
        ):
            self.flush()

    def _rename_clashing_members(self, docs: list[ExtractedDocument]) -> None:
        """A member is named ``container!member``, which a file on disk may also be called
        (``box.zip!note.txt`` beside ``box.zip``); one record would then replace the other.
        Such a member takes the first free name ``box.zip!note (2).txt``, ``(3)``, ...
        (``docs`` are the records of one file, so the choice is the same on every scan)."""
        members = [d for d in docs if d.container is not None]
        if not members:
            return
        if self._problems is None:  # the walk's problems are recorded as files too
            self._problems = {(d.root, d.relpath) for d in self.plan.walk_errors}

        def on_disk(root: str, name: str) -> bool:
            return (root, name) in self._problems or self.plan.walked_file(root, name) is not None

        taken = {d.relpath for d in docs}
        for d in members:
            if not on_disk(d.root, d.relpath):
                continue
            root = d.root
            d.relpath = free_numbered_name(d.relpath, lambda n: n in taken or on_disk(root, n))
            taken.add(d.relpath)

    def flush(self) -> None:
        """Match, sketch and write the pending documents in one transaction (on the writer
        thread while the pool runs: the batch before is finished first, so batches are
        written one at a time and in order)."""
        docs, self._pending, self._pending_chars = self._pending, [], 0
        self._last_flush = time.monotonic()
        self._settle()
        if not docs:
            return
        if self._writer is not None:
            self._writing = self._writer.submit(self._write, docs)
        else:
            self._report(self._write(docs))

    def _settle(self) -> None:
        """Wait for the batch being written; its error, if any, is raised here."""
        writing, self._writing = self._writing, None
        if writing is not None:
            self._report(writing.result())

    def _report(self, failed: list[int]) -> None:
        """Tell ``on_error`` about the documents of a written batch that failed (on the
        scan's thread, whichever thread wrote them)."""
        if failed and self.on_error is not None:
            for info in self.store.documents.all(failed, status=None):
                self.on_error(info)

    def _write(self, docs: list[ExtractedDocument]) -> list[int]:
        """Match, sketch and write a batch; the ids of its failed documents."""
        # a collection that recorded no file before the scan holds no document at these paths
        existing = (self.store.scans.documents_at([(d.root, d.relpath) for d in docs])
                    if self.plan.recorded_files != 0 else {})
        writes: list[DocWrite] = []
        kinds: list[str] = []
        for d in docs:
            writes.append(self._doc_write(d))
            known = existing.get((d.root, d.relpath))
            w = writes[-1]
            if known is not None:
                w.doc_id = known.doc_id
                w.content_changed = known.xxh128 != d.xxh128 or known.status != d.status
                kinds.append("changed" if w.content_changed else "same")
            elif d.status == "ok" and d.xxh128 and self.plan.move_pool.get(d.xxh128):
                w.doc_id = self.plan.move_pool[d.xxh128].pop()
                kinds.append("moved")
            else:
                kinds.append("new")
        retexted = self._retexted(docs, writes, kinds)
        # Sketch what has no sketch for this method and key yet.
        have = self.store.sketches.sketched([w.doc_id for w, k in zip(writes, kinds) if k in ("same", "moved")],
                                   self.method.name, self.sketch_key)
        need = [
            n for n, (d, w, k) in enumerate(zip(docs, writes, kinds))
            if d.status == "ok" and has_text(d)
            and not (k in ("same", "moved") and w.doc_id in have and n not in retexted)
        ]
        for n in need:  # sketched in the extraction worker
            writes[n].sketch = getattr(docs[n], SKETCH_ATTR, None)
        rest = [n for n in need if writes[n].sketch is None]
        if rest:
            blobs = sketch_blobs(self.method, self.params, [docs[n].text for n in rest])
            for n, blob in zip(rest, blobs):
                writes[n].sketch = blob
        gone: list[int] = []
        ids = self.store.scans.write_documents(writes, self.method.name, self.sketch_key, keep_ids=self.counts.written,
                                               gone=gone)
        self.counts.removed += len(gone)
        if self._dictionary is None and self._extractor is not None:  # trained by that write?
            self._dictionary = self.store.scans.text_dictionary()
            self._handed()
        self.counts.written.update(ids)
        # the word sketches the workers made for the completing search wait for the pair stage
        self.store.sketches.hold(completion.HELD, [(i, getattr(d, WORDS_ATTR)) for i, d in zip(ids, docs)
                                                   if getattr(d, WORDS_ATTR, None) is not None])
        for k in kinds:
            setattr(self.counts, k, getattr(self.counts, k) + 1)
        return [i for i, d in zip(ids, docs) if d.status != "ok"]

    def _retexted(self, docs: list[ExtractedDocument], writes: list[DocWrite], kinds: list[str]) -> set[int]:
        """After a change of the reading options: the positions of the documents of the same
        content (or moved) whose text is not the stored one. They are marked changed, so
        their old sketches of every method are dropped and their new text is sketched."""
        if not self.plan.reading_changed:
            return set()
        same = [n for n, (d, k) in enumerate(zip(docs, kinds))
                if k in ("same", "moved") and d.status == "ok" and d.text is not None]
        if not same:
            return set()
        stored = self.store.documents.texts([writes[n].doc_id for n in same])
        out = {n for n in same if stored.get(writes[n].doc_id) != docs[n].text}
        for n in out:
            writes[n].content_changed = True
            if kinds[n] == "same":
                kinds[n] = "changed"
        return out

    def _doc_write(self, d: ExtractedDocument) -> DocWrite:
        file_rel = d.container or d.relpath
        size, mtime = self.plan.walked_file(d.root, file_rel) or (d.size, d.mtime_ns)
        return DocWrite(
            root=d.root,
            file_relpath=file_rel,
            file_size=size,
            file_mtime_ns=mtime,
            file_xxh128=(d.xxh128 or None) if d.container is None else None,
            relpath=d.relpath,
            container=d.container,
            size=d.size,
            mtime_ns=d.mtime_ns,
            date=d.date,
            format=d.format,
            xxh128=d.xxh128,
            sha256=d.sha256,
            text_length=d.text_length,
            status=d.status,
            reason=d.reason,
            text=d.text if d.status == "ok" else None,
            text_blob=getattr(d, TEXT_ATTR, None) if d.status == "ok" else None,
            email=d.email,
        )
