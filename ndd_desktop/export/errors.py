"""The exceptions an export raises (per-file problems are results, not exceptions)."""

from __future__ import annotations


class ExportError(Exception):
    """The export cannot start or go on: a bad destination, options or store state."""


class DestinationRefused(ExportError):
    """The destination cannot take this export: inside a source folder or holding one, not
    a folder, not empty (and no unfinished export of the plan). Refused before any file is
    copied; a usage error at the command line (exit 2)."""


class ExportCancelled(Exception):
    """The user cancelled; every verified copy is kept and a rerun resumes from there."""
