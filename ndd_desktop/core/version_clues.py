"""Clues to when a version was written, read from its text and its file name.

Used by :mod:`core.lineage` as evidence of direction (which end of a chain of versions is
the oldest). Every clue is a sortable key or None when the text holds none:

* ``stamp``: a date that a label puts on the document itself ("Effective date: March 1,
  2020", "Last updated 2021-04-02", "Revised: 3 May 2019"): the latest such date.
* ``latest_date``: the latest full date (day, or month and year) the text mentions.
* ``latest_year``: the latest year (1900-2099) the text mentions, in a date or alone.
  Histories accumulate text about newer events, so the newest year mentioned seldom falls.
* ``version``: the highest version number the text gives itself ("Version 2.1", "v3",
  "Revision 4", "draft-ietf-foo-07").
* ``name_key``: version numbers and dates in a file name ("report_v2.docx",
  "policy-2020-03-01.pdf", "minutes (3).txt"); only such marks count, so a name of random
  letters and digits gives no key.

Dates are days since 0001-01-01 (``date.toordinal``); versions are tuples of integers.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

_MONTHS = {
    # English, German, French, Spanish, Dutch, Italian: full names and common abbreviations
    **{m: k for k, m in enumerate(
        ["january", "february", "march", "april", "may", "june", "july", "august", "september",
         "october", "november", "december"], start=1)},
    **{m: k for k, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)},
    "sept": 9,
    **{m: k for k, m in enumerate(
        ["januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
         "oktober", "november", "dezember"], start=1)},
    **{m: k for k, m in enumerate(
        ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
         "octobre", "novembre", "décembre"], start=1)},
    **{m: k for k, m in enumerate(
        ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
         "octubre", "noviembre", "diciembre"], start=1)},
    **{m: k for k, m in enumerate(
        ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
         "oktober", "november", "december"], start=1)},
    **{m: k for k, m in enumerate(
        ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
         "settembre", "ottobre", "novembre", "dicembre"], start=1)},
}
_MONTH_ALT = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_YEAR = r"(19\d\d|20\d\d)"
_ISO = re.compile(rf"\b{_YEAR}[-./](0?[1-9]|1[0-2])[-./](0?[1-9]|[12]\d|3[01])\b")
_COMPACT = re.compile(rf"(?<!\d){_YEAR}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)")
_MDY = re.compile(rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+{_YEAR}\b", re.IGNORECASE)
_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?({_MONTH_ALT})\.?,?\s+(?:de\s+)?{_YEAR}\b",
                  re.IGNORECASE)
_MY = re.compile(rf"\b({_MONTH_ALT})\.?,?\s+(?:de\s+)?{_YEAR}\b", re.IGNORECASE)
_NUMERIC = re.compile(rf"\b(\d{{1,2}})[/.](\d{{1,2}})[/.]{_YEAR}\b")  # day and month order unknown
_ANY_YEAR = re.compile(r"(?<![0-9A-Za-z])(?:19|20)\d\d(?![0-9])")
_MAX_WINDOWS = 400  # year-like numbers looked at: the first and last 200 (tables of figures)
_BARE_YEAR = re.compile(rf"(?<![\d.,/-]){_YEAR}(?![\d])")
_LABEL = re.compile(
    r"(effective|last\s+(?:updated|modified|revised|changed)|updated|revised|revision\s+date|"
    r"version\s+date|as\s+of|dated|date\s+of\s+(?:issue|publication)|published|issued|"
    r"stand|gültig\s+ab|fecha|mise\s+à\s+jour|en\s+vigueur)",
    re.IGNORECASE,
)
_VERSION = re.compile(  # matched on lowered text
    r"(?<![a-z0-9])(?:version|ver\.?|revision|rev\.?|release|edition|draft|versión|fassung)_*\s*(?:no\.?|number|nr\.?)?"
    r"\s*[:#=]?\s*['\"]?v?(\d{1,4}(?:\.\d{1,4}){0,3})\b"
    r"|(?<![\w.])v(\d{1,4}(?:\.\d{1,4}){0,3})\b"
    r"|\bdraft-[a-z0-9-]+?-(\d\d)\b"
)
_VERSION_HINT = re.compile(r"(?<![a-z0-9.])(?=versi|ver\.|ver\s*\d|revision|rev|release|edition|draft|fassung|v\d)")
_NAME_VERSION = re.compile(
    r"(?:^|[\W_])(?:v|ver|version|rev|revision|draft|r)[\s_.-]?(\d{1,4}(?:[._]\d{1,4}){0,2})(?=$|[\W_])"
    r"|[\s_-](\d{1,3})$"
    r"|\((\d{1,3})\)$",
    re.IGNORECASE,
)
_MAX_SCAN = 200_000  # characters of a text searched for clues (dates sit in heads and tails)


@dataclass(frozen=True)
class VersionClues:
    """What one version's text and name say about when it was written (None: nothing)."""

    stamp: int | None = None
    latest_date: int | None = None
    latest_year: int | None = None
    version: tuple[int, ...] | None = None
    name_key: tuple | None = None


def _ordinal(year: int, month: int, day: int = 1) -> int | None:
    try:
        return datetime.date(year, month, day).toordinal()
    except ValueError:
        return None


def _year_windows(text: str) -> list[tuple[int, int]]:
    """Spans around every year-like number, merged: every date holds a year, so the date
    patterns (slow on long texts) only run there."""
    spans: list[tuple[int, int]] = []
    for m in _ANY_YEAR.finditer(text):
        start, end = max(0, m.start() - 40), min(len(text), m.end() + 8)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    if len(spans) > _MAX_WINDOWS:
        spans = spans[: _MAX_WINDOWS // 2] + spans[-_MAX_WINDOWS // 2:]
    return spans


def _dates(text: str, windows: list[tuple[int, int]] | None = None) -> list[tuple[int, int, int]]:
    """(start offset, end offset, ordinal) of each full or month-and-year date in ``text``."""
    found: list[tuple[int, int, int]] = []
    for lo, hi in _year_windows(text) if windows is None else windows:
        window = text[lo:hi]
        covered: list[tuple[int, int]] = []

        def add(m: re.Match, value: int | None) -> None:
            if value is None or any(s <= m.start() < e for s, e in covered):
                return
            covered.append(m.span())
            found.append((lo + m.start(), lo + m.end(), value))

        for m in _ISO.finditer(window):
            add(m, _ordinal(int(m.group(1)), int(m.group(2)), int(m.group(3))))
        for m in _MDY.finditer(window):
            add(m, _ordinal(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2))))
        for m in _DMY.finditer(window):
            add(m, _ordinal(int(m.group(3)), _MONTHS[m.group(2).lower()], int(m.group(1))))
        for m in _MY.finditer(window):
            add(m, _ordinal(int(m.group(2)), _MONTHS[m.group(1).lower()]))
    return found


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.split(r"[._]", text) if p)


def text_clues(text: str) -> VersionClues:
    """The stamp, latest date, latest year and version number found in ``text``."""
    if len(text) > _MAX_SCAN:  # long texts: their beginning and end, where stamps sit
        text = text[: _MAX_SCAN // 2] + "\n" + text[-_MAX_SCAN // 2:]
    windows = _year_windows(text)
    dates = _dates(text, windows)
    stamps = []
    for start, _, value in dates:
        label = _LABEL.search(text, max(0, start - 48), start)
        if label is not None and "\n\n" not in text[label.end():start]:
            stamps.append(value)
    years = [datetime.date.fromordinal(v).year for _, _, v in dates]
    for lo, hi in windows:
        years += [int(m.group(1)) for m in _BARE_YEAR.finditer(text, lo, hi)]
        years += [int(m.group(3)) for m in _NUMERIC.finditer(text, lo, hi)]
    versions = []
    # the version pattern starts with one of a few letters: search only where they stand
    # before a digit, in a lowered copy (a case-blind pattern is several times slower)
    low = text.lower()
    for hit in _VERSION_HINT.finditer(low):
        m = _VERSION.match(low, hit.start())
        if m is not None:
            versions.append(_version_tuple(m.group(1) or m.group(2) or m.group(3)))
    return VersionClues(
        stamp=max(stamps) if stamps else None,
        latest_date=max(v for _, _, v in dates) if dates else None,
        latest_year=max(years) if years else None,
        version=max(versions) if versions else None,
    )


def name_clue(name: str) -> tuple | None:
    """A sortable key from the version marks and dates in a file name, None without any.

    The key is (date ordinal or 0, version tuple or ()); the extension is dropped first.
    """
    stem = name.replace("\\", "/").rsplit("/", 1)[-1]
    if "." in stem.strip("."):
        stem = stem.rsplit(".", 1)[0]
    day = 0
    m = _ISO.search(stem) or _COMPACT.search(stem)
    if m is not None:
        day = _ordinal(int(m.group(1)), int(m.group(2)), int(m.group(3))) or 0
        stem = stem[: m.start()] + " " + stem[m.end():]
    version: tuple[int, ...] = ()
    vm = None
    for vm in _NAME_VERSION.finditer(stem.strip()):
        pass  # the last mark counts: "plan_v2_rev3" is revision 3 of version 2's file
    if vm is not None:
        version = _version_tuple(vm.group(1) or vm.group(2) or vm.group(3))
    if not day and not version:
        return None
    return (day, version)
