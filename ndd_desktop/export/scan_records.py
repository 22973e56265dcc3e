"""The records a scan made for entries it never read as files, and what the export does with them.

The walk (:mod:`ndd_desktop.ingest.walk`) and the reader (:mod:`ndd_desktop.ingest.extract`)
store a record for every entry they skip or cannot open (``ingest.document.problem``
with no bytes read: no container, no hash, status "skipped" or "error"). There is no file
behind such a record to copy, and two kinds must not be confused:

- :data:`NOT_A_FILE`: the entry is not a regular file. A symbolic link the scan did not
  follow (broken, leading outside the chosen folders, or links not followed at all), a
  FIFO, socket or device, a folder alias or link loop, a folder already scanned under
  another root. It is not part of the collection's documents: the export lists it as not
  exported, with the scan's reason, and it is no failure.
- :data:`UNREAD`: the scan could not read it (an unreadable folder or file, a folder or
  file that vanished, a missing root). It may hold documents the scan never saw, so the
  export cannot claim to be complete: it is a failure, with the scan's reason.

The reasons are plain strings, kept in one place (:mod:`ndd_desktop.ingest.reasons`) and
recognised here by their beginnings; ``tests/export/test_special_entries.py`` runs the
real walk and reader over every kind of entry.
"""

from __future__ import annotations

from ..ingest.reasons import NOT_A_FILE_REASONS, UNREAD_REASONS

NOT_A_FILE = "not a regular file"
UNREAD = "not read by the scan"


def scan_exclusion(doc) -> str | None:
    """:data:`NOT_A_FILE`, :data:`UNREAD`, or None for a record of a file the scan read.

    ``doc`` is a store ``DocumentInfo`` (or an ``ExtractedDocument``). Only records with
    no container, no hash and a status other than "ok" qualify: a container member or a
    file whose bytes were hashed is a file on disk, whatever its reason says.
    """
    if doc.status == "ok" or doc.container is not None or doc.sha256:
        return None
    reason = doc.reason or ""
    if reason.startswith(NOT_A_FILE_REASONS):
        return NOT_A_FILE
    if reason.startswith(UNREAD_REASONS):
        return UNREAD
    return None
