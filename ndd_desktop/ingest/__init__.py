"""Files in, text out: folder walking, content hashes, one extractor per format.

Public entry points (see docs/architecture.md and docs/ingest.md):

- :func:`walk` lists the files under the chosen roots as :class:`FileEntry` objects;
- :func:`extract_entry` turns one entry into one or more :class:`ExtractedDocument`;
- :func:`extract_many` does the same for many entries in a process pool with a
  per-file time limit.

Nothing here imports Qt or SQLAlchemy, and nothing here ever writes into a source folder.
"""

from ndd_desktop.ingest.document import ExtractedDocument, FileEntry, display_path
from ndd_desktop.ingest.extract import extract_bytes, extract_entry
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.ingest.options import HTML_READINGS, ExtractOptions
from ndd_desktop.ingest.pool import extract_many
from ndd_desktop.ingest.walk import walk

__all__ = [
    "HTML_READINGS",
    "ExtractOptions",
    "ExtractedDocument",
    "FileEntry",
    "Limits",
    "display_path",
    "extract_bytes",
    "extract_entry",
    "extract_many",
    "walk",
]
