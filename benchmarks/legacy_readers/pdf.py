"""Vendored copy of ndd_desktop/ingest/formats/pdf.py as of commit 6569fce (before issue 19
item 4), kept only so ``benchmarks/bench_ingest.py --compare`` can run the old reader.

PDF text layer through pypdf.

An encrypted PDF is tried with the empty password (many are only "owner"-protected) and
skipped when that fails. A PDF whose pages hold no text is read by OCR
(:mod:`.ocr`, tesseract) when ``Limits.ocr`` is on and tesseract is installed; otherwise
it is skipped as "no text layer — scanned image?" with what to install. The document
date is the ``/CreationDate`` of the info dictionary.
"""

from __future__ import annotations

import io
import logging

from pypdf import PdfReader
from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError, PyPdfError

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from legacy_readers.docx import to_epoch

logging.getLogger("pypdf").setLevel(logging.ERROR)  # broken files are reported, not logged

_BROKEN = (PdfReadError, PyPdfError, ValueError, KeyError, TypeError, AttributeError,
           IndexError, AssertionError, OSError, EOFError, ZeroDivisionError)


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text layer and creation date of a PDF."""
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except DependencyError:
                raise Skip("encrypted: needs the 'cryptography' package to open") from None
            if not opened:
                raise Skip("encrypted: no password")
        pages = reader.pages
        count = len(pages)
    except FileNotDecryptedError:
        raise Skip("encrypted: no password") from None
    except _BROKEN as exc:
        raise Fail(f"corrupt or truncated PDF: {_short(exc)}") from None
    parts: list[str] = []
    total = 0
    bad_pages = 0
    for index in range(count):
        try:
            page_text = pages[index].extract_text() or ""
        except _BROKEN:
            bad_pages += 1
            continue
        parts.append(page_text)
        total += len(page_text)
        if total > ctx.limits.max_text_chars:
            break
    notes = []
    if bad_pages:
        if bad_pages == count:
            raise Fail(f"corrupt PDF: none of its {count} pages could be read")
        notes.append(f"{bad_pages} of {count} pages unreadable")
    text = "\n\f".join(parts)  # a form feed starts each page: passages are placed by page
    if count == 0:
        raise Fail("corrupt PDF: no pages")
    if not text.strip():
        from ndd_desktop.ingest.formats.ocr import ocr_pdf

        text, ocr_notes = ocr_pdf(data, ctx)
        if not text.strip():
            raise Skip("no text layer — scanned image? (OCR found no text)")
        notes.extend(ocr_notes)
    return Extraction(text=text, date=_created(reader), notes=notes)


def _created(reader: PdfReader) -> float | None:
    try:
        info = reader.metadata
        return to_epoch(info.creation_date) if info is not None else None
    except Exception:  # a malformed date string must not cost the text
        return None


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
