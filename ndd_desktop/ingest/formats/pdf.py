"""PDF text layer through PDFium (pypdfium2), one page after another.

PDFium (the PDF engine of Chromium, compiled) reads a page's text several times faster
than a reader written in Python, and it is already what renders pages for OCR. Pages are
joined by ``"\\n\\f"``: a form feed starts each page, and passages are placed by page
(``core.places``). PDFium's ``\\r\\n`` line ends become ``\\n`` and the hyphen it marks as
generated at a line end is written as a hyphen.

An encrypted PDF is opened with the empty password (many are only "owner"-protected) and
skipped when that fails. A PDF whose pages hold no text is read by OCR (:mod:`.ocr`,
tesseract) when ``Limits.ocr`` is on and tesseract is installed; otherwise it is skipped
as "no text layer — scanned image?" with what to install. A PDF with text on some pages
and scans on others (a typed cover sheet before scanned pages, a scan with a stamped
page number in its text layer) has its **pictured pages** read by OCR as well: a page
with fewer than :data:`FEW_CHARACTERS` characters of text whose pictures cover at least
:data:`PICTURED_SHARE` of it. Without OCR those pages are named in a note
(``ingest.reasons.PAGES_NOT_READ``: the document was read only in part). The document date is the
``/CreationDate`` of the info dictionary. A PDF form's filled-in fields are drawn by
their own appearances, not in the page's text: a document with a form has its pages
flattened before they are read (in memory only), so the values are part of its text (two
applications on one form, the labels alone read, scored 1.0). PDFium is not thread-safe, so every call into it
(here and in the OCR reader) holds ``PDFIUM_LOCK``: the pool runs one file per process,
but an engine that ran readers in threads of one process would otherwise crash.
"""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta, timezone

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.formats.package import to_epoch
from ndd_desktop.ingest.reasons import PAGES_NOT_READ

#: A page with fewer characters of text than this (a stamp, a page number) ...
FEW_CHARACTERS = 40
#: ... whose pictures cover this share of it is a scan, read by OCR.
PICTURED_SHARE = 0.5

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
        parts, count, date, notes, pictured = _read(data, ctx.limits.max_text_chars)
    if count == 0:
        raise Fail("corrupt PDF: no pages")
    if not any(p and p.strip() for p in parts):  # None: a page PDFium could not read
        from ndd_desktop.ingest.formats.ocr import ocr_pdf

        text, ocr_notes = ocr_pdf(data, ctx)
        if not text.strip():
            raise Skip("no text layer — scanned image? (OCR found no text)")
        notes.extend(ocr_notes)
        return Extraction(text=text, date=date, notes=notes)
    if pictured:
        notes.extend(_read_pictured_pages(data, ctx, parts, pictured, count))
    return Extraction(text="\n\f".join(p for p in parts if p is not None), date=date, notes=notes)


def _read_pictured_pages(data: bytes, ctx: Context, parts: list, pictured: list[int], count: int) -> list[str]:
    """Put the OCR text of the pictured pages (indices) in ``parts``; the notes to add."""
    from ndd_desktop.ingest.formats import tools
    from ndd_desktop.ingest.formats.ocr import OCR_NOTE, ocr_pages

    pages = ", ".join(str(i + 1) for i in pictured[:10]) + (", ..." if len(pictured) > 10 else "")
    what = f"{len(pictured)} of {count} page{'s' if count != 1 else ''} ({pages})"
    if not ctx.limits.ocr:
        return [f"{PAGES_NOT_READ} {what}: scanned without text (OCR is off)"]
    if tools.find("tesseract") is None:
        return [f"{PAGES_NOT_READ} {what}: scanned without text (install tesseract-ocr to read them)"]
    texts, notes = ocr_pages(data, ctx, pictured)
    for index, text in texts.items():
        parts[index] = text
    return [f"{OCR_NOTE}: {what}", *notes]


def _read(data: bytes, max_chars: int) -> tuple[list, int, float | None, list[str], list[int]]:
    """(text of each page, None for an unreadable one; page count, creation date, notes,
    the pictured pages) of a PDF's text layer; Skip when it is encrypted, Fail when
    PDFium cannot open it. Hold ``PDFIUM_LOCK``."""
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
        parts, count, notes, pictured = _pages(document, max_chars)
        return parts, count, _created(document), notes, pictured
    finally:
        document.close()


def _pages(document: pdfium.PdfDocument, max_chars: int) -> tuple[list, int, list[str], list[int]]:
    """(text of each page read, None for an unreadable one; page count, notes, the pictured
    pages); Fail when no page can be read. Joined by form feeds, a form feed starts each
    page: passages are placed by page."""
    count = len(document)
    parts: list[str | None] = []
    pictured: list[int] = []
    total = bad_pages = 0
    forms = pdfium_c.FPDF_GetFormType(document) != pdfium_c.FORMTYPE_NONE
    for index in range(count):
        try:
            page = document[index]
            if forms and pdfium_c.FPDFPage_Flatten(page, pdfium_c.FLAT_NORMALDISPLAY) == pdfium_c.FLATTEN_SUCCESS:
                page.close()  # read again: the fields' values are now part of its content
                page = document[index]
            try:
                textpage = page.get_textpage()
                try:
                    page_text = textpage.get_text_range()
                finally:
                    textpage.close()
                if len(page_text.strip()) < FEW_CHARACTERS and _pictured(page):
                    pictured.append(index)
            finally:
                page.close()
        except _BROKEN:
            bad_pages += 1
            parts.append(None)
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
    return parts, count, notes, pictured


def pictures(page):
    """Each picture object of a page (in forms too, two levels down) with its bounds in
    points, ``(object, (left, bottom, right, top))``."""
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2):
        bounds = getattr(obj, "get_bounds", None) or obj.get_pos  # pypdfium2 5 and 4
        yield obj, bounds()


def _pictured(page) -> bool:
    """Whether pictures cover at least :data:`PICTURED_SHARE` of the page."""
    width, height = page.get_size()
    if width <= 0 or height <= 0:
        return False
    covered = 0.0
    for _obj, (left, bottom, right, top) in pictures(page):
        covered += max(0.0, right - left) * max(0.0, top - bottom)
        if covered >= PICTURED_SHARE * width * height:
            return True
    return False


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
