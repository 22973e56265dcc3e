"""PDF text layer through PDFium (pypdfium2), one page after another.

PDFium (the PDF engine of Chromium, compiled) reads a page's text several times faster
than a reader written in Python, and it is already what renders pages for OCR. Pages are
joined by ``"\\n\\f"``: a form feed starts each page, and passages are placed by page
(``core.places``). PDFium's ``\\r\\n`` line ends become ``\\n`` and the hyphen it marks as
generated at a line end is written as a hyphen.

An encrypted PDF is opened with the empty password (many are only "owner"-protected) and
skipped when that fails. A PDF whose pages hold no text is read by OCR (:mod:`.ocr`,
tesseract) when ``Limits.ocr`` is on and tesseract is installed; otherwise it is skipped
as "no text layer — scanned image?" with what to install. The document date is the
``/CreationDate`` of the info dictionary. PDFium is not thread-safe, so every call into it
(here and in the OCR reader) holds ``PDFIUM_LOCK``: the pool runs one file per process,
but an engine that ran readers in threads of one process would otherwise crash.
"""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta, timezone

import pypdfium2 as pdfium

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.formats.package import to_epoch

#: PDFium is not thread-safe: every call into it (here and in the OCR reader) holds this
#: lock, so threads of one process (an engine running readers in threads) take turns
PDFIUM_LOCK = threading.Lock()
# PDFium's load errors (fpdfview.h FPDF_ERR_*) that mean a password is needed
_PASSWORD, _SECURITY = 4, 5
_BROKEN = (pdfium.PdfiumError, ValueError, OSError)
# PDFium ends lines with "\r\n"; a hyphen at a line end that it takes for a word break
# becomes U+FFFE in place of the hyphen and the line end: both are given back, so the page
# keeps its lines as pypdf gave them
_LINE_ENDS = str.maketrans({"\r": "\n", "\ufffe": "-\n", "\x00": None})


def extract(data: bytes, ctx: Context) -> Extraction:
    """Text layer and creation date of a PDF."""
    with PDFIUM_LOCK:
        text, count, date, notes = _read(data, ctx.limits.max_text_chars)
    if count == 0:
        raise Fail("corrupt PDF: no pages")
    if not text.strip():
        from ndd_desktop.ingest.formats.ocr import ocr_pdf

        text, ocr_notes = ocr_pdf(data, ctx)
        if not text.strip():
            raise Skip("no text layer — scanned image? (OCR found no text)")
        notes.extend(ocr_notes)
    return Extraction(text=text, date=date, notes=notes)


def _read(data: bytes, max_chars: int) -> tuple[str, int, float | None, list[str]]:
    """(text, page count, creation date, notes) of a PDF's text layer; Skip when it is
    encrypted, Fail when PDFium cannot open it. Hold ``PDFIUM_LOCK``."""
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        # pypdfium2 4.20 (our floor) gives no err_code: its message tells the same
        code, message = getattr(exc, "err_code", None), str(exc).lower()
        if code == _PASSWORD or (code is None and "password" in message):
            raise Skip("encrypted: no password") from None
        if code == _SECURITY or (code is None and "security" in message):
            raise Skip("encrypted: unsupported security handler") from None
        raise Fail(f"corrupt or truncated PDF: {_short(exc)}") from None
    except (ValueError, OSError) as exc:
        raise Fail(f"corrupt or truncated PDF: {_short(exc)}") from None
    try:
        text, count, notes = _pages(document, max_chars)
        return text, count, _created(document), notes
    finally:
        document.close()


def _pages(document: pdfium.PdfDocument, max_chars: int) -> tuple[str, int, list[str]]:
    """(text of the pages joined by form feeds, page count, notes); Fail when no page can
    be read."""
    count = len(document)
    parts: list[str] = []
    total = bad_pages = 0
    for index in range(count):
        try:
            page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    page_text = textpage.get_text_range()
                finally:
                    textpage.close()
            finally:
                page.close()
        except _BROKEN:
            bad_pages += 1
            continue
        page_text = page_text.replace("\r\n", "\n").translate(_LINE_ENDS)
        parts.append(page_text)
        total += len(page_text)
        if total > max_chars:
            break
    notes = []
    if bad_pages:
        if bad_pages == count:
            raise Fail(f"corrupt PDF: none of its {count} pages could be read")
        notes.append(f"{bad_pages} of {count} pages unreadable")
    return "\n\f".join(parts), count, notes  # a form feed starts each page: passages are placed by page


def _created(document: pdfium.PdfDocument) -> float | None:
    try:
        value = document.get_metadata_value("CreationDate")
    except _BROKEN:
        return None
    return pdf_date(value)


_PDF_DATE = re.compile(
    r"^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])\s*(\d{2})?'?\s*(\d{2})?'?)?"
)


def pdf_date(value: str | None) -> float | None:
    """A PDF date string (``D:YYYYMMDDHHmmSSOHH'mm'``, every part after the year
    optional) as epoch seconds; no time zone is taken as UTC; None when it is no date."""
    match = _PDF_DATE.match((value or "").strip())
    if not match:
        return None
    year, month, day, hour, minute, second, sign, tz_h, tz_m = match.groups()
    try:
        when = datetime(int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0),
                        int(second or 0))
        if sign in ("+", "-"):
            offset = timedelta(hours=int(tz_h or 0), minutes=int(tz_m or 0))
            when = when.replace(tzinfo=timezone(offset if sign == "+" else -offset))
    except ValueError:
        return None
    return to_epoch(when)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
