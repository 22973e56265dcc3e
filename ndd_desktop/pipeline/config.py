"""What a scan is asked to do, and what it reports back."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ingest.limits import Limits
from ..ingest.options import ExtractOptions
from ..store import Root

#: Pairs scoring below this are not stored (lower than any threshold worth picking); a
#: method whose default threshold is lower (containment) stores down to that threshold.
DEFAULT_FLOOR = 0.3


def default_floor(threshold: float) -> float:
    """The floor of a scan whose default threshold is ``threshold``."""
    return min(DEFAULT_FLOOR, threshold)


class ScanError(Exception):
    """The scan cannot start: a root that is missing, a method or parameter that is wrong."""


class ScanStopped(Exception):
    """The scan started but had to stop before its end (it would exhaust the machine's
    memory); what it read is kept, and the message says what to change."""


@dataclass
class ScanConfig:
    """The roots to scan, the method with its parameter overrides, the pair floor, how
    documents are read (``extract_options``: a web page by its main text or whole; a change
    reads the affected files again, see ``pipeline.reading``)."""

    roots: list[Root]
    method: str
    params: dict = field(default_factory=dict)
    floor: float | None = None  # None: default_floor of the method's default threshold
    workers: int | None = None
    limits: Limits = field(default_factory=Limits)
    extract_options: ExtractOptions = field(default_factory=ExtractOptions)


@dataclass(frozen=True)
class ScanSummary:
    """Counts of one finished scan (documents, not files; ``errors`` counts the whole store).

    ``new``: documents seen for the first time; ``changed``: documents whose content
    changed; ``moved``: documents found at a new path with the same content (their
    sketches and decisions are kept); ``unchanged``: the rest; ``removed``: documents
    whose file is gone; ``pairs``: pairs stored for the method; ``complete_from``: see
    ``store.PairSet`` (None: every pair down to the floor was searched for);
    ``reattached``: review decisions whose documents had left the collection, carried over
    to the documents that now hold the same content (``store.reattach_decisions``).
    """

    documents: int
    new: int
    changed: int
    unchanged: int
    removed: int
    errors: int
    pairs: int
    seconds: float
    moved: int = 0
    complete_from: float | None = None
    reattached: int = 0  # review decisions carried over to documents of the same content
