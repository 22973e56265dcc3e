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

The walk's reasons are plain strings; they are recognised here by their fixed beginnings,
and ``tests/export/test_special_entries.py`` runs the real walk and reader over every
kind of entry to keep this list in step with them.
"""

from __future__ import annotations

NOT_A_FILE = "not a regular file"
UNREAD = "not read by the scan"

#: Beginnings of the reasons for entries that are not regular files.
_NOT_A_FILE_REASONS = (
    "symbolic link (not followed)",  # walk; reader: a file replaced by a link after the walk
    "broken symbolic link",
    "symbolic link points outside the chosen folders",
    "not a regular file",  # "(FIFO)", "(socket)", "(device)", " or folder" (a root); reader
    "folder already visited",  # "(symbolic link loop or alias)"
    "folder already scanned under another root",
)
#: Beginnings of the reasons for entries the scan could not read.
_UNREAD_REASONS = (
    "unreadable folder:",
    "unreadable:",  # walk (stat failed) and reader (open or read failed)
    "folder vanished during the scan",
    "vanished during the scan",  # "(file not found)"
    "root not found",
    "root unreadable:",
)


def scan_exclusion(doc) -> str | None:
    """:data:`NOT_A_FILE`, :data:`UNREAD`, or None for a record of a file the scan read.

    ``doc`` is a store ``DocumentInfo`` (or an ``ExtractedDocument``). Only records with
    no container, no hash and a status other than "ok" qualify: a container member or a
    file whose bytes were hashed is a file on disk, whatever its reason says.
    """
    if doc.status == "ok" or doc.container is not None or doc.sha256:
        return None
    reason = doc.reason or ""
    if reason.startswith(_NOT_A_FILE_REASONS):
        return NOT_A_FILE
    if reason.startswith(_UNREAD_REASONS):
        return UNREAD
    return None
