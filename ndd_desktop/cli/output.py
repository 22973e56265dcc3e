"""Terminal output of ``ndd``: a progress line for a TTY, CSV and JSON rows for pipes."""

from __future__ import annotations

import csv
import datetime
import json
import math
import shutil
import sys
import time
from typing import IO, Any, Iterable, Sequence

from ..ingest.document import storable_path
from ..pipeline import Progress


def clean(value: Any) -> Any:
    """A value fit for CSV or JSON: NaN becomes None, odd paths become printable."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str):
        return storable_path(value)
    return value


def one_line(value: Any) -> str:
    """A path or text for one line of terminal output: as :func:`clean`, and control
    characters (a newline in a file name) shown as escapes, so one entry stays one line."""
    text = str(clean(value))
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def iso_utc(epoch: float | None) -> str | None:
    """A document date (seconds since 1970) as ISO 8601 in UTC, to the second; None stays
    None (a document without a date)."""
    if epoch is None or (isinstance(epoch, float) and not math.isfinite(epoch)):
        return None
    try:
        moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    except (OverflowError, OSError, ValueError):
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def write_rows(rows: Iterable[dict], fmt: str, out: IO[str], columns: Sequence[str]) -> None:
    """Stream rows as CSV (a header, then one line each) or as a JSON array of objects."""
    if fmt == "json":
        out.write("[")
        for n, r in enumerate(rows):
            out.write(",\n " if n else "\n ")
            json.dump({k: clean(r.get(k)) for k in columns}, out, ensure_ascii=False)
        out.write("\n]\n")
        return
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    # on a terminal a control character in a name (an escape sequence) would act on it:
    # shown as an escape there; a file or a pipe gets the value as it is
    shown = _terminal_safe if getattr(out, "isatty", lambda: False)() else (lambda v: v)
    for r in rows:
        values = [clean(r.get(k)) for k in columns]
        writer.writerow(["" if v is None else shown(v) for v in values])


def _terminal_safe(value: Any) -> Any:
    """A string with its control characters but line breaks and tabs shown as escapes."""
    if not isinstance(value, str) or value.isprintable():
        return value
    return "".join(ch if ch.isprintable() or ch in "\n\t" else ascii(ch)[1:-1] for ch in value)


#: Shorter headers for the table view (the CSV and JSON keep the full names).
TABLE_HEADERS = {"containment_ab": "cont a→b", "containment_ba": "cont b→a"}


def write_table(rows: Iterable[dict], out: IO[str], columns: Sequence[str], *, numeric: Sequence[str] = (),
                title: str | None = None) -> None:
    """Rows as a table for reading on a terminal (rich): columns fitted to the terminal's
    width, long paths folded, numbers right-aligned. All rows are gathered first."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text  # plain text: a "[draft].txt" is a name, not rich markup

    table = Table(title=Text(title) if title else None, show_lines=False, header_style="bold", expand=False)
    for name in columns:
        right = name in numeric
        table.add_column(TABLE_HEADERS.get(name, name), justify="right" if right else "left", overflow="fold",
                         no_wrap=right, ratio=None if right else 1, min_width=None if right else 6)
    count = 0
    for r in rows:
        values = [clean(r.get(k)) for k in columns]
        table.add_row(*(Text("" if v is None else one_line(v)) for v in values))
        count += 1
    console = Console(file=out, soft_wrap=False, highlight=False,
                      width=None if out.isatty() else shutil.get_terminal_size((120, 20)).columns)
    console.print(table)
    console.print(f"{count} row{'s' if count != 1 else ''}", style="dim")


def _fmt_seconds(s: float | None) -> str:
    if s is None or math.isinf(s):
        return "--:--"
    s = int(s)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


class ProgressBar:
    """A one-line progress display redrawn in place on a terminal (stderr)."""

    def __init__(self, stream: IO[str] | None = None, interval: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._last = 0.0
        self._stage = ""
        self._width = 0

    def __call__(self, p: Progress) -> None:
        now = time.monotonic()
        if p.stage == self._stage and now - self._last < self.interval and (p.total is None or p.done < p.total):
            return
        if p.stage != self._stage and self._stage:
            self.stream.write("\n")
            self._width = 0
        self._stage, self._last = p.stage, now
        columns = shutil.get_terminal_size((80, 20)).columns
        if p.total:
            frac = min(p.done / p.total, 1.0)
            bar_w = 24
            filled = int(frac * bar_w)
            head = f"{p.stage:8} [{'#' * filled}{'.' * (bar_w - filled)}] {p.done}/{p.total} {frac:4.0%}"
        else:
            head = f"{p.stage:8} {p.done}"
        tail = f" {p.rate:,.0f}/s eta {_fmt_seconds(p.eta_s)} " if p.total else f" {p.rate:,.0f}/s "
        line = head + tail + storable_path(p.current)
        line = line[: max(columns - 1, 10)]
        self.stream.write("\r" + line + " " * max(self._width - len(line), 0))
        self._width = len(line)
        self.stream.flush()

    def close(self) -> None:
        """End the progress line."""
        if self._stage:
            self.stream.write("\n")
            self.stream.flush()
            self._stage = ""


#: What the items of each stage are, for ``--verbose``.
#: What each stage counts (the extraction counts the files it reads: an archive is one file of
#: several documents, so "24 documents" stood beside a summary of 25).
STAGE_ITEMS = {"extract": "files", "sketch": "documents", "verify": "pairs", "store": "pairs"}


def write_stage_times(stages, out) -> None:
    """One line per stage of a scan: its time, and items per second where it counts some."""
    for name, seconds, done in stages:
        if name == "done":
            continue
        unit = STAGE_ITEMS.get(name)
        one = unit[:-1] if unit and done == 1 else unit  # "1 file", not "1 files"
        rate = f", {done:,} {one}, {done / seconds:,.0f} {unit}/s" if unit and done and seconds > 0 else ""
        out.write(f"  {name:<8} {seconds:7.2f} s{rate}\n")
