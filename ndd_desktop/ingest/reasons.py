"""The reasons ingest gives for entries it did not read as files.

The walk and the reader store a record for every entry they skip or cannot open; its
reason is one of these strings (some followed by details such as ``(FIFO)`` or the
system's error text). The export tells the two kinds apart by them: an entry that is not
a regular file is not part of the collection, one that could not be read may hide
documents (``export.scan_records``).
"""

from __future__ import annotations

# Entries that are not regular files.
LINK_NOT_FOLLOWED = "symbolic link (not followed)"
BROKEN_LINK = "broken symbolic link"
LINK_OUTSIDE = "symbolic link points outside the chosen folders"
NOT_REGULAR = "not a regular file"  # + " (FIFO)", " (socket)", " (device)", " or folder"
FOLDER_VISITED = "folder already visited (symbolic link loop or alias)"
FOLDER_OTHER_ROOT = "folder already scanned under another root"

# Entries that could not be read.
UNREADABLE_FOLDER = "unreadable folder:"  # + the system's reason
UNREADABLE = "unreadable:"  # + the system's reason
FOLDER_VANISHED = "folder vanished during the scan"
VANISHED = "vanished during the scan (file not found)"
ROOT_NOT_FOUND = "root not found"
ROOT_UNREADABLE = "root unreadable:"  # + the system's reason

# Files that failed for a reason of the moment rather than of their bytes.
TIMED_OUT = "timed out after"  # + " N s"
CRASHED = "extractor crashed"  # + the worker's exit
CHANGED_WHILE_READ = "changed while being read"  # + " (try again when it is stable)"
NEEDS_PROGRAM = "needs "  # + "antiword: legacy Word document (.doc) (install the 'antiword' package)"

# Notes on a document that was read, but only in part (among its other notes).
TEXT_TRUNCATED = "text truncated to"  # + " N characters"
OCR_STOPPED = "OCR stopped after page"  # + " N of M (time limit)"
PAGES_NOT_READ = "pages not read:"  # + " 2 of 5 pages (2, 4): scanned without text (OCR is off)"
#: The notes that say part of a document's content was not read, so not compared.
READ_IN_PART = (TEXT_TRUNCATED, OCR_STOPPED, PAGES_NOT_READ)
#: The status a listing of problems gives a document read only in part (stored as "ok").
PARTIAL = "partial"

#: Beginnings of the reasons of entries that are not regular files.
NOT_A_FILE_REASONS = (LINK_NOT_FOLLOWED, BROKEN_LINK, LINK_OUTSIDE, NOT_REGULAR, FOLDER_VISITED, FOLDER_OTHER_ROOT)
#: Beginnings of the reasons of entries the scan could not read.
UNREAD_REASONS = (UNREADABLE_FOLDER, UNREADABLE, FOLDER_VANISHED, VANISHED, ROOT_NOT_FOUND, ROOT_UNREADABLE)
#: Beginnings of the reasons of failures that may not happen again (a busy machine, a
#: permission fixed since, a file being written): the next scan reads such a file again
#: even when its size and modification time are unchanged. A corrupt or encrypted file
#: fails the same way every time and is not retried until it changes. A file that needs a
#: program that was not installed (antiword, catppt, tesseract) is read again once it is.
#: "corrupt XML:" is a reason only earlier versions gave (XML that is not well-formed is
#: now read with its tags stripped): such files are read again once, by this version. A
#: file the walk found and the reader then did not (moved away and back, or a Dask worker
#: that cannot see the folder: every file "vanished", and none was ever read again) is
#: read again when the walk finds it unchanged. So is a file whose reader's library could
#: not be imported.
RETRIED_REASONS = (TIMED_OUT, CRASHED, CHANGED_WHILE_READ, UNREADABLE, NEEDS_PROGRAM, VANISHED, "corrupt XML:",
                   # a reader whose library the process could not import (a Dask worker with
                   # another environment): the file is not at fault, and it stayed failed
                   "extractor failed: ImportError", "extractor failed: ModuleNotFoundError")
