"""Small text helpers shared by the views: sizes, dates, document labels."""

from __future__ import annotations

import math
import os
import time
from typing import Any, Iterable, Sequence

import numpy as np


def human_size(n: float | int | None) -> str:
    """``1234567`` -> ``"1.2 MB"``."""
    if n is None or (isinstance(n, float) and math.isnan(n)):
        return "–"
    n = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """``1 pair``, ``2,000 pairs``: a count with its noun in the number it takes."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def fmt_date(epoch: float | None) -> str:
    """Epoch seconds as ``YYYY-MM-DD`` (``–`` when unknown)."""
    if epoch is None or (isinstance(epoch, float) and math.isnan(epoch)):
        return "–"
    try:
        return time.strftime("%Y-%m-%d", time.localtime(epoch))
    except (OverflowError, OSError, ValueError):
        return "–"


def fmt_duration(seconds: float | None) -> str:
    """Seconds as ``1 h 02 min``, ``3 min 05 s`` or ``12 s`` (``–`` when unknown)."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "–"
    s = int(round(seconds))
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


#: How each folder of the open collection is named in labels (see :func:`set_root_names`).
_ROOT_NAMES: dict[str, str] = {}


def root_names(roots: Iterable[str]) -> dict[str, str]:
    """A short name per folder: its own name, or as many parent folders as it takes to tell
    apart folders of one name (``/a/letters`` and ``/b/letters`` -> ``a/letters``,
    ``b/letters``)."""
    parts = {r: [p for p in str(r).replace("\\", "/").split("/") if p] for r in dict.fromkeys(roots)}
    names: dict[str, str] = {}
    for root, segs in parts.items():
        depth = 1
        while depth < len(segs):
            tail = segs[-depth:]
            if not any(other[-depth:] == tail for r, other in parts.items() if r != root):
                break
            depth += 1
        names[root] = "/".join(segs[-depth:]) or str(root)
    return names


def set_root_names(roots: Iterable[str]) -> None:
    """Name the open collection's folders for :func:`doc_label` (called when they change)."""
    _ROOT_NAMES.clear()
    _ROOT_NAMES.update(root_names(roots))


def doc_label(doc: Any) -> str:
    """A document as the user knows it: its folder's short name and the relative path."""
    return label_prefix(str(getattr(doc, "root", ""))) + str(getattr(doc, "relpath", ""))


def label_prefix(root: str) -> str:
    """What :func:`doc_label` puts before a relative path in ``root``: the folder's short
    name and "/", or nothing for a folder without a name."""
    name = _ROOT_NAMES.get(root) or os.path.basename(root.rstrip("/\\"))
    return f"{name}/" if name else ""


def doc_date(doc: Any) -> float | None:
    """The document's date, else the file's modification time (epoch seconds)."""
    return date_or_mtime(getattr(doc, "date", None), getattr(doc, "mtime_ns", None))


def date_or_mtime(date: float | None, mtime_ns: int | None) -> float | None:
    """A date, else a modification time in nanoseconds as seconds (None for neither)."""
    if date is not None and not (isinstance(date, float) and math.isnan(date)):
        return float(date)
    return mtime_ns / 1e9 if mtime_ns else None


def dates_or_mtimes(dates: Sequence[float | None], mtimes_ns: Sequence[int | None]) -> np.ndarray:
    """:func:`date_or_mtime` over whole columns, NaN for neither (a pair table of hundreds of
    thousands of documents calls it once instead of once a document)."""
    date = np.array(dates, dtype=np.float64)  # None reads as NaN
    mtime = np.array(mtimes_ns, dtype=np.float64)
    mtime[mtime == 0] = np.nan  # no time, as in date_or_mtime
    return np.where(np.isnan(date), mtime / 1e9, date)


def error_path(item: Any) -> str:
    """The file an error is about, from a DocumentInfo-like object (or a plain string)."""
    if isinstance(item, str):
        return item
    for attr in ("abspath",):
        value = getattr(item, attr, None)
        if value:
            return str(value)
    root = getattr(item, "root", "")
    rel = getattr(item, "relpath", "")
    return os.path.join(str(root), str(rel)) if rel else str(root)
