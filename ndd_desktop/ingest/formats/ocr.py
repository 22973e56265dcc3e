"""Text of scans by OCR: pictures (PNG, JPEG, TIFF, GIF, BMP, WebP) and PDFs without a
text layer.

The ``tesseract`` program (Debian: ``tesseract-ocr`` and a language such as
``tesseract-ocr-eng``) reads one picture at a time with ``Limits.ocr_page_timeout_s``;
PDF pages are rendered by pypdfium2 in grey at the resolution of the scan that covers
them (150 to 300 dpi; 300 for a page of no one picture; fewer for huge pages, so a page
never exceeds ``_MAX_PIXELS``) and handed over as PGM bytes. All of it runs inside the
pool worker that reads the file; pages stop being read when most of the file's time
limit is spent, and the text read so far is kept with a note. ``Limits.ocr`` False
(``ndd scan --ocr off``) turns all of this off.

The picture formats are those Debian's tesseract reads through leptonica (``tesseract -v``
lists its image libraries: libgif, libjpeg, libpng, libtiff, libwebp; BMP needs none) from
its standard input. Of a GIF of several frames leptonica reads the first; an animated WebP
it cannot read at all (``WebP decode failed``), so that one is skipped as unsupported
rather than failed. HEIC is not among them.
"""

from __future__ import annotations

import math
import time

from ndd_desktop.ingest.formats import tools
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip
from ndd_desktop.ingest.reasons import OCR_STOPPED

OCR_NOTE = "read by OCR (tesseract)"
_DPI = 300
_MIN_DPI = 150  # below this a scan is rendered at 150 dpi: tesseract reads small type poorly under it
_MAX_PIXELS = 40_000_000  # a Letter page at 300 dpi is 8.4 M; A3 is 17 M
_WHAT = {"png": "PNG", "jpg": "JPEG", "tif": "TIFF", "gif": "GIF", "bmp": "BMP", "webp": "WebP"}


def extract_image(data: bytes, ctx: Context) -> Extraction:
    """Text of one picture by OCR (every frame of a multi-page TIFF, the first of a GIF)."""
    if not ctx.limits.ocr:
        raise Skip("picture: OCR is off (ndd scan --ocr auto)")
    if _animated_webp(data):
        raise Skip("unsupported format: animated WebP")
    program = tools.require("tesseract", "text in pictures (OCR)")
    text = _tesseract(program, data, ctx, _page_timeout(ctx, time.monotonic()))
    return Extraction(text=text, notes=[OCR_NOTE])


def ocr_pdf(data: bytes, ctx: Context) -> tuple[str, list[str]]:
    """(text, notes) of a PDF's pages read by OCR; Skip when OCR is off, Fail when
    tesseract is missing."""
    if not ctx.limits.ocr:
        raise Skip("no text layer — scanned image? (OCR is off)")
    tools.require("tesseract", "no text layer — scanned image? OCR")
    texts, notes = ocr_pages(data, ctx, None)
    # a form feed starts each page, as in pdf.py
    return "\n\f".join(texts[i] for i in sorted(texts)), [OCR_NOTE, *notes]


def ocr_pages(data: bytes, ctx: Context, indices: list[int] | None) -> tuple[dict[int, str], list[str]]:
    """({page index: text}, notes) of the pages ``indices`` of a PDF (None: every page)
    read by OCR, within the file's time limit; tesseract must be installed."""
    program = tools.require("tesseract", "no text layer — scanned image? OCR")
    import pypdfium2 as pdfium

    from ndd_desktop.ingest.formats.pdf import PDFIUM_LOCK

    start = time.monotonic()
    try:
        with PDFIUM_LOCK:
            document = pdfium.PdfDocument(data)
    except (pdfium.PdfiumError, ValueError, OSError) as exc:
        raise Fail(f"corrupt PDF (for OCR): {exc}") from None
    texts: dict[int, str] = {}
    notes: list[str] = []
    total = 0
    try:
        with PDFIUM_LOCK:
            count = len(document)
        todo = list(range(count)) if indices is None else [i for i in indices if 0 <= i < count]
        for index in todo:
            if time.monotonic() - start > 0.7 * ctx.limits.timeout_s:
                notes.append(f"{OCR_STOPPED} {index} of {count} (time limit)")
                break
            try:
                with PDFIUM_LOCK:  # tesseract runs outside it
                    image = _render(document, index)
            except (pdfium.PdfiumError, ValueError, OSError, MemoryError) as exc:
                notes.append(f"page {index + 1} not rendered ({type(exc).__name__})")
                continue
            text = _tesseract(program, image, ctx, _page_timeout(ctx, start))
            texts[index] = text
            total += len(text)
            if total > ctx.limits.max_text_chars:
                break
    finally:
        with PDFIUM_LOCK:
            document.close()
    return texts, notes


def _animated_webp(data: bytes) -> bool:
    """A WebP whose extended header (``VP8X``) has its animation flag set."""
    return data[8:16] == b"WEBPVP8X" and len(data) > 20 and bool(data[20] & 0x02)


def _native_dpi(page, width: float, height: float) -> float | None:
    """The resolution of the picture that covers most of a scanned page (None: no picture
    covers half of it). A page is rendered at that resolution rather than above it: a 200
    dpi scan rendered at 300 dpi was smoothed, and tesseract read the smoothed speckles of
    a photocopy as words (0.89 against the born-digital text, where the same pictures as a
    TIFF gave 0.99; a 150 dpi photocopy 0.45 against 0.75)."""
    from ndd_desktop.ingest.formats.pdf import pictures

    best = None
    for obj, (left, bottom, right, top) in pictures(page):
        pixels = getattr(obj, "get_px_size", None) or getattr(obj, "get_size", None)  # pypdfium2 5 and 4
        area = max(0.0, right - left) * max(0.0, top - bottom)
        if pixels is None or area <= 0 or (best is not None and area <= best[0]):
            continue
        px_w, px_h = pixels()
        best = (area, min(px_w * 72 / (right - left), px_h * 72 / (top - bottom)))
    if best is None or best[0] < 0.5 * width * height:
        return None
    return best[1]


def _render(document, index: int) -> bytes:
    """One page as a binary PGM picture (grey, 8 bits), at the resolution of its scan
    (between :data:`_MIN_DPI` and :data:`_DPI`), else at :data:`_DPI`."""
    page = document[index]
    try:
        width, height = page.get_size()  # in points (1/72 inch)
        try:
            native = _native_dpi(page, width, height)
        except Exception:  # an odd picture object: render as before
            native = None
        scale = (_DPI if native is None else min(_DPI, max(_MIN_DPI, native))) / 72
        pixels = width * height * scale * scale
        if pixels > _MAX_PIXELS:
            scale *= math.sqrt(_MAX_PIXELS / pixels)
        bitmap = page.render(scale=scale, grayscale=True)
        try:
            rows = bytes(bitmap.buffer)
            w, h, stride = bitmap.width, bitmap.height, bitmap.stride
            channels = bitmap.n_channels
        finally:
            bitmap.close()
    finally:
        page.close()
    if channels != 1:
        raise ValueError(f"unexpected {channels}-channel rendering")
    if stride != w:
        rows = b"".join(rows[y * stride: y * stride + w] for y in range(h))
    return b"P5\n%d %d\n255\n" % (w, h) + rows


def _tesseract(program: str, image: bytes, ctx: Context, timeout: float) -> str:
    # --psm 1: page segmentation with orientation detection (a page scanned sideways or upside
    # down is read the right way up; --psm 3 read it as garbage and stored it as read)
    out = tools.run([program, "stdin", "stdout", "-l", ctx.limits.ocr_languages, "--psm", "1"],
                    input=image, timeout=timeout)
    text = out.decode("utf-8", errors="replace").replace("\f", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def _page_timeout(ctx: Context, start: float) -> float:
    """Per-page limit, shortened so the file as a whole stays inside the pool's limit."""
    left = 0.8 * ctx.limits.timeout_s - (time.monotonic() - start)
    return max(1.0, min(ctx.limits.ocr_page_timeout_s, left))
