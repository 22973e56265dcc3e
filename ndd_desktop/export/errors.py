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


class DestinationFull(ExportError):
    """The destination's disk filled up: the export stops there (each further file would
    fail alike). The verified copies stay and the same export run again resumes."""


def destination_full(dest: str, exc: OSError) -> DestinationFull:
    """The error of a full destination, naming it and what to do (it said only "[Errno 28]
    No space left on device", and a bag export "once they can be read, run again")."""
    return DestinationFull(
        f"the export destination {dest} is full ({exc.strerror or exc}); what was copied and verified is "
        "kept: free some space there (or choose a larger disk) and run the same export again: it copies "
        "what is missing")
