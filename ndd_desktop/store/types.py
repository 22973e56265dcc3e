"""Plain dataclasses the store hands out (never ORM objects, so they cross threads freely)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class StoreError(Exception):
    """The store cannot be used: an unreadable file, a newer schema, a bad argument."""


class StoreDamaged(StoreError):
    """The collection file is damaged ("database disk image is malformed", a text that does
    not decompress): ``ndd check`` says what, ``ndd repair`` saves what can be saved."""


class StoreNotThere(StoreError):
    """The path names no collection file and cannot hold one here: a folder, a missing file
    (when not creating), a file in a folder that does not exist. Refused before any work."""


class StoreFull(StoreError):
    """A write failed because the disk (or the file's size cap) is full; what was committed
    before is kept."""


class StoreReadOnly(StoreError):
    """A write was asked of a collection opened read-only (read-only media or permissions)."""


@dataclass(frozen=True)
class Root:
    """A folder of the collection; a reference root holds documents already kept."""

    path: str
    reference: bool = False


@dataclass(frozen=True)
class DocumentInfo:
    """One document as the store knows it.

    ``abspath`` is the file on disk (for a container member, the container file);
    ``relpath`` is relative to ``root`` and names the member for container members
    (``"mail.eml!attachment.pdf"``).
    """

    id: int
    root: str
    relpath: str
    abspath: str
    container: str | None
    size: int
    mtime_ns: int
    date: float | None
    format: str
    xxh128: str
    sha256: str
    text_length: int
    status: str
    reason: str
    reference: bool


@dataclass(frozen=True)
class ScanRun:
    """One run of the scan job, with its counts (``status``: running, finished, cancelled, failed)."""

    id: int
    started: float
    finished: float | None
    status: str
    method: str
    params: dict
    pairs_key: str
    floor: float
    documents: int
    new: int
    changed: int
    unchanged: int
    removed: int
    errors: int
    pairs: int
    message: str


@dataclass(frozen=True)
class PairSet:
    """The stored pairs of one method under one set of parameters.

    ``complete_from``: None when every pair down to ``floor`` was searched for; otherwise
    the score from which the search was complete (below it pairs are there only when the
    banded search of a large collection happened to find them).
    """

    method: str
    params: dict
    pairs_key: str
    floor: float
    count: int
    complete_from: float | None = None


@dataclass(frozen=True)
class PairArrays:
    """All pairs of a pair set as parallel numpy arrays (``a < b``; ``hamming`` NaN if none)."""

    pair_id: np.ndarray
    a: np.ndarray
    b: np.ndarray
    score: np.ndarray
    cont_ab: np.ndarray
    cont_ba: np.ndarray
    hamming: np.ndarray
    #: the method's own estimate of each pair (NaN: a pair set stored before verification);
    #: ``score`` is the verified share of text (core.text_share)
    estimate: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.estimate is None:
            object.__setattr__(self, "estimate", np.full(self.pair_id.shape[0], np.nan))

    def __len__(self) -> int:
        return int(self.pair_id.shape[0])

    def where(self, keep: np.ndarray) -> "PairArrays":
        """The pairs where ``keep`` (a boolean per pair) is true, in the same order."""
        return PairArrays(self.pair_id[keep], self.a[keep], self.b[keep], self.score[keep], self.cont_ab[keep],
                          self.cont_ba[keep], self.hamming[keep], self.estimate[keep])

    @classmethod
    def empty(cls) -> "PairArrays":
        """No pairs."""
        i = np.empty(0, dtype=np.int64)
        f = np.empty(0, dtype=np.float64)
        return cls(i, i.copy(), i.copy(), f, f.copy(), f.copy(), f.copy())


@dataclass(frozen=True)
class PairRow:
    """One pair with both documents and the reviewer's current verdict (or None)."""

    pair_id: int
    a: DocumentInfo
    b: DocumentInfo
    score: float
    cont_ab: float
    cont_ba: float
    hamming: float
    verdict: str | None
    estimate: float = float("nan")  # the method's own score (score: the verified share of text)


#: The values of a review decision: a verdict on a pair, a keeper choice on a document ("" or
#: None clears either).
VERDICTS = ("duplicate", "not_duplicate")
KEEP = "keep"


@dataclass(frozen=True)
class Decision:
    """One row of the append-only review log.

    ``kind`` is ``"verdict"`` (``value``: duplicate, not_duplicate or "" for cleared) or
    ``"keeper"`` (``value``: keep or "" for cleared); ``b`` is None for keeper rows.
    """

    id: int
    time: float
    reviewer: str
    kind: str
    a: int
    b: int | None
    a_xxh128: str
    b_xxh128: str
    value: str
    note: str = field(default="")
