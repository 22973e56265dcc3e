"""What the user asks of an export, and the same options with every default resolved."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..core.methods import default_threshold, get_method
from .errors import ExportError

#: The ways a file can reach the destination.
MODES = ("copy", "hardlink")
#: Which e-mail messages an export keeps: all, or only the inclusive ones of each thread.
EMAIL_CHOICES = ("all", "inclusive")
#: The report formats; the list of left-out duplicates is always written.
REPORT_FORMATS = ("csv", "json", "html")


def _normalise_reports(reports) -> tuple[str, ...]:
    """Accept ``"csv,json"``, a sequence of names, or None; return a checked tuple."""
    if reports is None:
        return ()
    if isinstance(reports, str):
        reports = [r for r in (p.strip() for p in reports.split(",")) if r]
    out = []
    for name in reports:
        name = str(name).strip().lower()
        if name not in REPORT_FORMATS:
            raise ExportError(f"unknown report format {name!r} (known: {', '.join(REPORT_FORMATS)})")
        if name not in out:
            out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class ExportOptions:
    """Options of one export, as the dialog or ``ndd export`` gives them.

    Attributes:
        dest: the destination folder; it must be new, empty, or an unfinished export of
            the same plan, and must not lie inside any source folder.
        method: the method whose pairs define the groups; None: the last scan's method.
        pairs_key: the pair set of that method; None: the newest pair set of the method.
        threshold: the score at which two documents are duplicates; None: the method's
            default threshold.
        mode: ``"copy"`` or ``"hardlink"`` (hard links fall back to copies where the
            file system refuses them; each fallback is noted in the result).
        bagit: write the set as a BagIt bag (RFC 8493) with the reports as tag files.
        sha512: add a SHA-512 manifest to the bag (SHA-256 is always there).
        reports: which of ``csv``, ``json``, ``html`` to write (a comma list is accepted).
        keeper_rule, folder_priority, measure, grouping: passed to ``pipeline.grouping.groups_at``.
        closest_pairs: how many of the closest pairs the HTML report shows side by side.
        include_reference: export documents of reference roots too (the issue's
            definition of the set includes them; an archive adding an accession to a
            collection it already holds may switch this off).
        leave_out_covered_folders: leave out whole folders whose every document has an
            exact or near duplicate in another exported folder (see
            :mod:`ndd_desktop.export.extra_leave_out`); off by default.
        emails: ``"all"`` (default) or ``"inclusive"``: keep only the inclusive messages
            of each e-mail thread, and attachments exported nowhere else.
    """

    dest: str
    method: str | None = None
    pairs_key: str | None = None
    threshold: float | None = None
    mode: str = "copy"
    bagit: bool = False
    sha512: bool = False
    reports: tuple[str, ...] = REPORT_FORMATS
    keeper_rule: str = "reference-oldest"
    folder_priority: tuple[str, ...] = ()
    measure: str = "score"
    grouping: str = "components"
    closest_pairs: int = 25
    include_reference: bool = True
    leave_out_covered_folders: bool = False
    emails: str = "all"

    def __post_init__(self) -> None:
        if not self.dest or not str(self.dest).strip():
            raise ExportError("no destination folder given")
        if self.mode not in MODES:
            raise ExportError(f"unknown mode {self.mode!r} (known: {', '.join(MODES)})")
        object.__setattr__(self, "reports", _normalise_reports(self.reports))
        object.__setattr__(self, "folder_priority", tuple(self.folder_priority))
        if self.threshold is not None:
            t = float(self.threshold)
            if math.isnan(t) or not 0.0 <= t <= 1.0:
                raise ExportError(f"threshold must lie in [0, 1], not {self.threshold!r}")
            object.__setattr__(self, "threshold", t)
        if self.emails not in EMAIL_CHOICES:
            raise ExportError(f"unknown e-mail choice {self.emails!r} (known: {', '.join(EMAIL_CHOICES)})")
        if self.closest_pairs < 0:
            raise ExportError("closest_pairs must not be negative")


def resolve_options(store, options: ExportOptions):
    """Fill in method, pair set and threshold from the store.

    Returns:
        ``(options, pair_set)``: the options with ``method``, ``pairs_key`` and
        ``threshold`` set, and the store's ``PairSet`` (parameters, floor) they name.

    Raises:
        ExportError: the store holds no scan or no pairs of the method (an export never
            rescans), or the threshold lies below the stored floor.
    """
    method = options.method
    if method is None:
        last = store.last_method()
        if last is None:
            raise ExportError("the database holds no scan yet: run a scan before exporting")
        method = last[0]
    try:
        get_method(method)  # an unknown name fails here with the list of known ones
    except KeyError as exc:
        raise ExportError(str(exc.args[0])) from None
    sets = [s for s in store.pair_sets() if s.method == method]
    if options.pairs_key is not None:
        sets = [s for s in sets if s.pairs_key == options.pairs_key]
        if not sets:
            raise ExportError(f"no pairs of method {method!r} under parameters {options.pairs_key!r}")
    if not sets:
        raise ExportError(f"no pairs of method {method!r} in the database: scan with it first")
    chosen = _newest_pair_set(store, method, sets)
    threshold = options.threshold if options.threshold is not None else default_threshold(method, chosen.params)
    if threshold < chosen.floor:
        raise ExportError(
            f"threshold {threshold:g} is below the stored floor {chosen.floor:g}: "
            "pairs under the floor were never stored; rescan with a lower floor"
        )
    resolved = replace(options, method=method, pairs_key=chosen.pairs_key, threshold=threshold)
    return resolved, chosen


def _newest_pair_set(store, method: str, sets: list):
    """The pair set of ``method`` the newest finished scan produced, else the first listed."""
    if len(sets) == 1:
        return sets[0]
    by_key = {s.pairs_key: s for s in sets}
    for run in store.scans():  # newest first
        if run.method == method and run.pairs_key in by_key and run.status == "finished":
            return by_key[run.pairs_key]
    return sets[0]
