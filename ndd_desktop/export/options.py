"""What the user asks of an export, and the same options with every default resolved."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..pipeline.selection import SelectionError, choose_pair_set, choose_threshold
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
        pairs_key: the pair set of that method; None: that of the method's newest finished
            scan, else its newest pair set.
        threshold: the score at which two documents are duplicates; None: the one saved
            with the collection for the pair set, else the method's default threshold.
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
    """Fill in method, pair set and threshold from the store, by the one rule the window and
    ``ndd`` use (:mod:`ndd_desktop.pipeline.selection`): the method of the newest finished
    scan, the pair set of its newest finished scan, the threshold saved for that pair set
    else the method's default.

    Returns:
        ``(options, pair_set)``: the options with ``method``, ``pairs_key`` and
        ``threshold`` set, and the store's ``PairSet`` (parameters, floor) they name.

    Raises:
        ExportError: the store holds no scan or no pairs of the method (an export never
            rescans), or the threshold lies below the stored floor.
    """
    try:
        choice = choose_pair_set(store, options.method, pairs_key=options.pairs_key)
        threshold, _ = choose_threshold(store.settings, choice.name, choice.params, choice.pairs_key, options.threshold)
    except SelectionError as exc:
        raise ExportError(str(exc)) from None
    chosen = choice.pair_set
    if threshold < chosen.floor:
        raise ExportError(
            f"threshold {threshold:g} is below the stored floor {chosen.floor:g}: "
            "pairs under the floor were never stored; rescan with a lower floor"
        )
    resolved = replace(options, method=choice.name, pairs_key=chosen.pairs_key, threshold=threshold)
    return resolved, chosen
