"""The exceptions an export raises (per-file problems are results, not exceptions)."""

from __future__ import annotations


class ExportError(Exception):
    """The export cannot start or go on: a bad destination, options or store state."""


class ExportCancelled(Exception):
    """The user cancelled; every verified copy is kept and a rerun resumes from there."""
