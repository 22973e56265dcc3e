"""The DOCX, PDF and HTML readers as they were before issue 19 item 4 (python-docx, pypdf,
BeautifulSoup), vendored from the git history so ``bench_ingest.py --compare`` can time the
old and the new readers on the same files in one run. Not part of the package; needs the
``bench`` extra (python-docx, pypdf).
"""

from __future__ import annotations

import time

from ndd_desktop.ingest import extract as _extract
from ndd_desktop.ingest.document import ExtractedDocument, FileEntry
from ndd_desktop.ingest.limits import Limits
from ndd_desktop.ingest.options import ExtractOptions

from legacy_readers import docx, html, pdf

#: format -> the old reader
READERS = {"docx": docx.extract, "pdf": pdf.extract, "html": html.extract}


def extract_entry_legacy(
    entry: FileEntry, limits: Limits | None = None, options: ExtractOptions | None = None
) -> list[ExtractedDocument]:
    """``ingest.extract.extract_entry`` with the old readers in place of the new ones
    (module-level and picklable: the process pool runs it in its workers)."""
    saved = {fmt: _extract.EXTRACTORS[fmt] for fmt in READERS}
    _extract.EXTRACTORS.update(READERS)
    try:
        return _extract.extract_entry(entry, limits, options)
    finally:
        _extract.EXTRACTORS.update(saved)


class CpuTimed:
    """A picklable extractor that runs ``inner`` and notes the CPU seconds the worker spent
    on the file (``cpu_s`` on its first document): CPU time is far less disturbed than
    wall time by other work on a shared machine."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __call__(self, entry: FileEntry, limits: Limits | None = None) -> list[ExtractedDocument]:
        start = time.process_time()
        docs = self.inner(entry, limits)
        if docs:
            docs[0].cpu_s = time.process_time() - start
        return docs
