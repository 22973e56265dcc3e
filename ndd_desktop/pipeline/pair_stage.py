"""The sketch-catch-up and pair stages of a scan.

Documents that are in the store but lack a sketch for the method and key (a new method,
a changed parameter) are sketched from their stored text: no file is read again. Then
all sketches are compared with the method's candidate strategy; pairs of two documents
under reference roots are dropped; the pair set replaces the stored one in one
transaction. When the input (documents, contents, reference flags, floor, parameters)
is exactly what the stored set was computed from, the comparison is skipped.
"""

from __future__ import annotations

import hashlib
from contextlib import AbstractContextManager
from typing import Any, Callable

import numpy as np

from ..core import gc_pause
from ..core.checkpoint import checkpoints
from ..core.method import Method, PairScores
from ..core.normalize import NORMALIZATION
from ..core.signature_memo import signatures_kept
from ..core.sketch_batches import sketch_sizes
from ..core.thread_slot import ThreadSlot
from ..ingest.reasons import CHANGED_WHILE_READ, UNREADABLE
from ..store import DocumentInfo, Store
from ..store.documents import ORIGINAL_MISSING
from ..store.sketch_spool import SpooledSketches
from . import changed_pairs, completion
from .cancel import CancelToken
from .memory_guard import MemoryGuard
from .progress import ProgressMeter
from .verify_stage import VERIFY_VERSION, StoredShares, verify_pairs
from .worker_sketch import sketch_blobs, sketch_texts

SKETCH_BATCH = 500


def sketch_missing(store: Store, method: Method, params: Any, sketch_key: str,
                   meter: ProgressMeter, cancel: CancelToken) -> int:
    """Sketch stored documents that have no sketch for (method, sketch_key); how many."""
    # "every document has its sketch" is kept (store.facts) until a document or sketch changes
    fact = f"sketched:{method.name}:{sketch_key}"
    if store.facts.get(fact) is not None:
        ids = []
    else:
        ticket = store.facts.ticket(fact)
        ids = store.sketches.unsketched(method.name, sketch_key)
        if not ids:
            store.facts.settle(fact, ticket, "every document")
    meter.stage("sketch", len(ids))
    if method.sketch_from_text:  # only marks: the pair stage makes the sketches it needs
        store.sketches.put(method.name, sketch_key, [(i, b"") for i in ids])
        meter.update(len(ids))
        meter.finish()
        return len(ids)
    done = 0
    for start in range(0, len(ids), SKETCH_BATCH):
        cancel.raise_if_cancelled()
        part = ids[start : start + SKETCH_BATCH]
        texts = store.documents.texts(part)
        have = [i for i in part if i in texts]
        blobs = sketch_blobs(method, params, [texts[i] for i in have])
        store.sketches.put(method.name, sketch_key, list(zip(have, blobs)))
        _record_unread(store, _unread_now(store, {i for i in part if i not in texts}))
        done += len(part)
        meter.update(done)
    meter.finish()
    return done


def input_hash(ids: np.ndarray, hashes: list[str], refs: np.ndarray, floor: float, pairs_key: str,
               reading: str = "") -> str:
    """A digest of everything a pair set depends on besides the method's code; ``reading``
    names the options the documents were read with (a web page's text depends on them, its
    content hash does not)."""
    h = hashlib.sha256()
    h.update(f"{pairs_key}|{float(floor)!r}|{VERIFY_VERSION}|{completion.VERSION}|n{NORMALIZATION}|".encode())
    if reading:
        h.update(f"reading={reading}|".encode())
    h.update(np.ascontiguousarray(ids, dtype=np.int64).tobytes())
    h.update(np.packbits(refs.astype(bool)).tobytes())
    h.update("\n".join(hashes).encode())
    return h.hexdigest()


def _current_fact(method: Method, sketch_key: str, pairs_key: str, floor: float, reading: str) -> str:
    """The key under which ``store.facts`` keeps the :func:`input_hash` of the sketched
    documents for this input (kept until a document, sketch or root changes)."""
    spec = (f"{method.name}|{sketch_key}|{pairs_key}|{float(floor)!r}|{VERIFY_VERSION}|{completion.VERSION}|"
            f"n{NORMALIZATION}|{reading}")
    return "pairs:" + hashlib.sha256(spec.encode()).hexdigest()[:32]


def _stored_set_current(store: Store, method: Method, sketch_key: str, pairs_key: str, floor: float,
                        reading: str) -> bool:
    """Whether a pair set of ``pairs_key`` is stored and its :func:`input_hash` is that of
    the sketched documents now (read apart from the sketches: ids, hashes, reference flags;
    or the hash kept since they last changed)."""
    stored = store.pairs.input_hash(method.name, pairs_key)
    if stored is None:
        return False
    fact = _current_fact(method, sketch_key, pairs_key, floor, reading)
    if store.facts.get(fact) == stored:
        return True
    ticket = store.facts.ticket(fact)
    with gc_pause.paused():  # a row per sketched document, no cycles among them
        ids, hashes, refs = store.sketches.inventory(method.name, sketch_key)
        current = input_hash(ids, hashes, refs, floor, pairs_key, reading) == stored
    if current:
        store.facts.settle(fact, ticket, stored)
    return current


def pair_set_current(store: Store, method: Method, params: Any, floor: float, reading: str = "") -> bool:
    """Whether the method's stored pair set is the one its input gives now: every score
    in it is that of the documents as they are (a scan asks before it changes any)."""
    return _stored_set_current(store, method, method.sketch_key(params), method.pairs_key(params), floor, reading)


_reuse: "ThreadSlot[set[int]]" = ThreadSlot()


def reusing(changed: set[int] | None) -> AbstractContextManager[None]:
    """Within the block, :func:`compute_pairs` on this thread takes the stored scores of
    the candidates it finds in the stored pair set when neither document is in
    ``changed``, and verifies only the others (None: every candidate is verified). For a
    scan whose pair set was current before it wrote ``changed`` (:func:`pair_set_current`):
    a document changed by an earlier scan that stopped before its pair stage must not keep
    its old scores."""
    return _reuse.installed(changed)


def drop_reference_pairs(scores: PairScores, refs: np.ndarray) -> PairScores:
    """Remove pairs of two documents that are both under reference roots."""
    if len(scores) == 0 or not refs.any():
        return scores
    both = refs[scores.i] & refs[scores.j]
    return scores.select(~both)


def to_columns(scores: PairScores, ids: np.ndarray) -> dict[str, np.ndarray]:
    """Pair columns by document id with a < b (containment swapped where needed)."""
    a, b = ids[scores.i], ids[scores.j]
    swap = a > b
    cab = np.where(swap, scores.cont_ji, scores.cont_ij)
    cba = np.where(swap, scores.cont_ij, scores.cont_ji)
    cols = {
        "a": np.where(swap, b, a),
        "b": np.where(swap, a, b),
        "score": np.asarray(scores.score, dtype=np.float64),
        "cont_ab": np.asarray(cab, dtype=np.float64),
        "cont_ba": np.asarray(cba, dtype=np.float64),
    }
    for name in ("hamming", "estimate"):
        if name in scores.extra:
            cols[name] = np.asarray(scores.extra[name], dtype=np.float64)
    keep = cols["a"] != cols["b"]
    return {k: v[keep] for k, v in cols.items()}


def compute_pairs(store: Store, method: Method, params: Any, params_dict: dict, floor: float,
                  meter: ProgressMeter, cancel: CancelToken, reading: str = "") -> int:
    """Find, filter and store the pairs of the method; returns how many are stored
    (``reading``: see :func:`input_hash`)."""
    sketch_key, pairs_key = method.sketch_key(params), method.pairs_key(params)
    guard = MemoryGuard(floor)
    meter.stage("pairs", None)
    if _stored_set_current(store, method, sketch_key, pairs_key, floor, reading):
        existing = store.pairs.find_set(method.name, pairs_key)
        meter.finish("unchanged")
        return existing.count if existing else 0
    # a sketch_from_text method's sketches are made again from the stored texts, except
    # those this scan made; they wait in a temporary file (store.sketch_spool), read batch by
    # batch by the search, so the memory does not grow with the collection
    # the input read below is kept as current once its pair set is stored, if nothing changed
    fact = _current_fact(method, sketch_key, pairs_key, floor, reading)
    ticket = store.facts.ticket(fact)
    spool_dtype = method.sketch_dtype if method.sketch_from_text else None
    together = method.decodes_together and spool_dtype is None
    hashes: list[str] = []  # the input's digest, from the same pass (no inventory of its own)
    unread: set[int] = set()  # documents whose text could not be read again (see _unread_now)
    changed = _reuse.get()
    # a few documents changed in a large collection: only those are searched (changed_pairs),
    # and the sets of the others are not made again unless the search needs them
    unmade: list[int] | None = [] if changed_pairs.may_search(store, method, params, changed) else None

    def load() -> tuple:
        return store.sketches.load(method.name, sketch_key, decode=None if together else method.from_bytes,
                                   derive=lambda texts: sketch_texts(method, params, texts), spool_dtype=spool_dtype,
                                   hashes=hashes, unread=unread, unmade=unmade)

    ids, sketches, dates, refs = load()
    digest = input_hash(ids, hashes, refs, floor, pairs_key, reading)
    if together:
        sketches = method.from_bytes_many(sketches)
    cancel.raise_if_cancelled()
    def check() -> None:
        cancel.raise_if_cancelled()
        guard()

    scores = None
    if unmade is not None:
        try:
            with checkpoints(check), guard.stopping_when_out_of_memory(store.documents.largest_copies):
                scores = changed_pairs.search_changed(store, method, params, floor, ids, sketches, unmade, dates,
                                                      changed or set(), unread, check)
        finally:  # the sets this scan made are read by now
            if isinstance(sketches, SpooledSketches):
                sketches.close()
        if scores is None:  # it does not apply after all: every set is made from its text
            unmade = None
            hashes.clear()
            ids, sketches, dates, refs = load()
    hashes.clear()  # the digest is made: the strings go (load above still appends to this list)
    try:
        if scores is None and len(sketches) >= 2:
            # the search's loops stop at their next checkpoint once the scan is cancelled
            # (qgram's screen and its records ask for the same signatures: made once)
            with checkpoints(check), guard.stopping_when_out_of_memory(store.documents.largest_copies), \
                    signatures_kept():
                scores = method.find_pairs(sketches, params, floor, dates)
                if completion.applies(method, params, scores):
                    # the method searched only part of the range: the word search completes it
                    held = store.sketches.take_held(completion.HELD)
                    try:
                        words = completion.word_sketches(held, store.documents.texts, ids,
                                                         getattr(params, "ignore", ""), check=check)
                    finally:
                        if held is not None:
                            held.close()
                    scores = completion.complete(method, params, scores, sketches, words, floor, dates)
                    if changed_pairs.applies(method, params):  # the next rescan may search what it changes only
                        changed_pairs.keep_records(store, method, sketch_key, ids, np.arange(len(ids)), sketches,
                                                   sketch_sizes(sketches), words, unread)
                    del words
        elif scores is None:
            scores = PairScores.empty()
    finally:  # spooled sketches: their files (and the workers' folder) go now, whatever happened
        if isinstance(sketches, SpooledSketches):
            sketches.close()
    del sketches
    scores = drop_reference_pairs(scores, refs)
    cancel.raise_if_cancelled()
    meter.finish()
    # every candidate is scored on its two texts: one scale whatever the method
    meter.stage("verify", len(scores))
    known = None
    if changed is not None and len(scores):
        old = store.pairs.arrays(method.name, pairs_key)
        known = StoredShares.of(old.a, old.b, old.cont_ab, old.cont_ba, changed)
    with guard.stopping_when_out_of_memory(store.documents.largest_copies):
        scores = verify_pairs(store.documents, method, params, scores, ids, floor, check=check,
                              progress=meter.update, known=known, unread=unread)
    meter.finish()
    failed = _unread_now(store, unread)
    if failed:  # stored under a digest no input gives: the next scan computes the pairs again
        digest = f"unread|{digest}"
    meter.stage("store", len(scores))

    def stored(rows: int) -> None:  # Ctrl-C or Cancel stop the writing too (nothing is kept)
        cancel.raise_if_cancelled()
        guard()
        meter.update(rows)

    with guard.stopping_when_out_of_memory(store.documents.largest_copies):
        n = store.pairs.replace(method.name, pairs_key, sketch_key, params_dict, floor, digest,
                                to_columns(scores, ids), complete_from=scores.complete_from, on_chunk=stored)
    if failed:
        _record_unread(store, failed)
    else:
        store.facts.settle(fact, ticket, digest)
    meter.finish()
    return n


_unread_report: "ThreadSlot[Callable[[DocumentInfo], None]]" = ThreadSlot()


def reporting_unread(report: Callable[[DocumentInfo], None] | None) -> AbstractContextManager[None]:
    """Within the block, :func:`compute_pairs` on this thread tells ``report`` about each
    document it recorded as failed because its text could not be read (as the extraction
    tells ``on_error`` about the files it could not read)."""
    return _unread_report.installed(report)


def _record_unread(store: Store, failed: dict[int, str]) -> None:
    """Record ``failed`` (see :func:`_unread_now`) and tell the installed report of each."""
    if not failed:
        return
    store.documents.fail_for_now(failed)
    report = _unread_report.get()
    if report is not None:
        for info in store.documents.all(sorted(failed), status=None):
            report(info)


def _unread_now(store: Store, candidates: set[int]) -> dict[int, str]:
    """Of ``candidates`` (documents of a pair the search or the verification could not score
    on both texts), those whose text cannot be read now, with the reason to record: a text
    kept as its file (``store.originals``), and the file unreadable, gone or changed with its
    size and time unchanged since the scan read it. Their pairs were not found (an empty text
    scores 0); recorded as failed for a passing reason, they are listed as errors and the next
    scan reads them again, where before they kept their place with no pair and no word."""
    failed = {}
    for doc_id in sorted(candidates):
        why = store.documents.text_missing(doc_id)
        if why.startswith(ORIGINAL_MISSING):  # a permission, else a file changed or gone meanwhile
            start = UNREADABLE if "cannot be read" in why else f"{CHANGED_WHILE_READ}:"
            failed[doc_id] = f"{start} not compared: {why}"
    return failed
