"""Scans: pictures and PDFs without a text layer are read by OCR (tesseract, which setup
installs); without tesseract, or with OCR off, they are listed with a reason."""

from __future__ import annotations

import struct
import time
import zlib

import pytest

from ingest_makers import image_bytes, make_pdf, text_image
from ndd_desktop.core.methods import default_threshold, get_method
from ndd_desktop.core.normalize import normalize
from ndd_desktop.ingest import Limits

LINES = [
    "The records committee met on Tuesday morning.",
    "Boxes of correspondence were moved to the new store.",
    "Each transfer was listed and checked against the register.",
    "Duplicate copies of the minutes will be weeded next year.",
]
ORIGINAL = "\n".join(LINES)


def qgram_score(a: str, b: str) -> float:
    """The default method's score of two texts, as a scan computes it."""
    method = get_method("qgram")
    params = method.params({})
    sa, sb = method.sketch_many([normalize(a), normalize(b)], params)
    return method.score(sa, sb, params)


def test_png_jpeg_and_tiff_are_read_by_ocr(one):
    image = text_image(LINES)
    for name, fmt in (("scan.png", "PNG"), ("scan.jpg", "JPEG"), ("scan.tif", "TIFF")):
        doc = one(name, image_bytes(image, fmt))
        assert (doc.status, doc.reason) == ("ok", "read by OCR (tesseract)"), (name, doc.reason)
        assert "records committee" in doc.text and "register" in doc.text, (name, doc.text)


def test_gif_bmp_and_webp_are_read_by_ocr_known_by_their_bytes(one):
    """The installed tesseract reads them (leptonica's libgif and libwebp, its own BMP
    code); they were skipped as "unsupported format: gif". Their names here say nothing."""
    from ndd_desktop.ingest.detect import detect_format

    image = text_image(LINES)
    for fmt, kind in (("GIF", "gif"), ("BMP", "bmp"), ("WEBP", "webp")):
        data = image_bytes(image, fmt)
        assert detect_format(data, f"scan.{kind}") == kind
        doc = one("scan-17", data)
        assert (doc.status, doc.format, doc.reason) == ("ok", kind, "read by OCR (tesseract)"), (kind, doc.reason)
        assert "records committee" in doc.text and "register" in doc.text, (kind, doc.text)


def test_a_gif_of_several_frames_is_read_by_its_first_an_animated_webp_is_skipped(one):
    first = text_image(LINES)
    second = first.point(lambda _: 255)  # a white frame of the same size (WebP wants one)
    second.paste(text_image(["An unrelated second frame about the museum budget."]), (0, 0))
    frames = [first, second]
    doc = one("pages.gif", image_bytes(frames[0], "GIF", save_all=True, append_images=frames[1:]))
    assert (doc.status, doc.reason) == ("ok", "read by OCR (tesseract)")
    assert "records committee" in doc.text and "budget" not in doc.text
    # leptonica cannot read an animation of WebP frames ("WebP decode failed"): not a scan
    doc = one("moving.webp", image_bytes(frames[0], "WEBP", save_all=True, append_images=frames[1:]))
    assert (doc.status, doc.format, doc.reason) == ("skipped", "webp", "unsupported format: animated WebP")


def test_image_only_pdf_pairs_with_its_original_text(one):
    """A scanned page (a picture saved as PDF, no text layer) and the typed text it shows
    are near-duplicates at qgram's default threshold."""
    pdf = image_bytes(text_image(LINES, size=48), "PDF", resolution=150.0)
    assert b"/Font" not in pdf  # no text layer: only a picture
    doc = one("scanned-letter.pdf", pdf)
    assert (doc.status, doc.format) == ("ok", "pdf"), doc.reason
    assert doc.reason == "read by OCR (tesseract)"
    threshold = default_threshold("qgram")
    assert threshold == 0.5
    assert qgram_score(doc.text, ORIGINAL) >= threshold
    assert qgram_score(doc.text, "An unrelated letter about the budget of the museum café.") < threshold


def test_without_tesseract_the_reason_names_the_package(one, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    doc = one("scan.png", image_bytes(text_image(LINES), "PNG"))
    assert (doc.status, doc.format) == ("error", "png")
    assert doc.reason == "needs tesseract: text in pictures (OCR) (install the 'tesseract-ocr' package)"
    doc = one("scan.pdf", make_pdf(None))
    assert doc.status == "error"
    assert doc.reason == ("needs tesseract: no text layer — scanned image? OCR "
                          "(install the 'tesseract-ocr' package)")


def test_without_tesseract_or_with_ocr_off_gif_bmp_and_webp_are_listed_as_png_is(one, monkeypatch, tmp_path):
    pictures = {kind: image_bytes(text_image(LINES), kind.upper()) for kind in ("gif", "bmp", "webp")}
    for kind, data in pictures.items():
        doc = one(f"scan.{kind}", data, Limits(ocr=False))
        assert (doc.status, doc.format, doc.reason) == ("skipped", kind, "picture: OCR is off (ndd scan --ocr auto)")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    for kind, data in pictures.items():
        doc = one(f"scan.{kind}", data)
        assert (doc.status, doc.format) == ("error", kind)
        assert doc.reason == "needs tesseract: text in pictures (OCR) (install the 'tesseract-ocr' package)"


def test_ocr_off(one):
    doc = one("scan.png", image_bytes(text_image(LINES), "PNG"), Limits(ocr=False))
    assert (doc.status, doc.reason) == ("skipped", "picture: OCR is off (ndd scan --ocr auto)")


def test_corrupt_picture_is_an_error(extract_file):
    png = image_bytes(text_image(LINES), "PNG")
    [doc] = extract_file("cut.png", png[:200])
    assert doc.status == "error" and doc.reason.startswith("tesseract failed"), doc.reason
    assert extract_file("next.txt", b"fine")[0].text == "fine"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_picture_declaring_billions_of_pixels_is_bounded(one):
    # 100,000 x 100,000 grey pixels declared, a few bytes of data
    png = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 0, 0, 0, 0))
           + _chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + _chunk(b"IEND", b""))
    start = time.monotonic()
    doc = one("huge.png", png, Limits(timeout_s=20))
    assert doc.status in ("error", "skipped")
    assert time.monotonic() - start < 20


def joined_pdf(*pdfs: bytes) -> bytes:
    """One PDF of the pages of several (PDFium's own page import)."""
    import io

    import pypdfium2 as pdfium

    out = pdfium.PdfDocument.new()
    for data in pdfs:
        out.import_pages(pdfium.PdfDocument(data))
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def test_the_scanned_pages_of_a_pdf_with_a_typed_cover_are_read_by_ocr(one):
    """A typed cover sheet before a scanned page: the scan was silently lost, the document
    stored as read with the cover's two lines only."""
    cover = make_pdf(["Box 17, folder 3", "Scanned 2024-02-01"])
    scan = image_bytes(text_image(LINES, size=48), "PDF", resolution=150.0)
    doc = one("minutes.pdf", joined_pdf(cover, scan))
    assert (doc.status, doc.reason) == ("ok", "read by OCR (tesseract): 1 of 2 pages (2)")
    assert doc.text.startswith("Box 17, folder 3") and "\f" in doc.text
    assert qgram_score(doc.text.split("\f", 1)[1], ORIGINAL) >= 0.5
    # without OCR the page is named: the document was read only in part
    doc = one("minutes.pdf", joined_pdf(cover, scan), Limits(ocr=False))
    assert (doc.status, doc.reason) == ("ok", "pages not read: 1 of 2 pages (2): scanned without text (OCR is off)")
    assert "records committee" not in doc.text


def test_a_typed_title_page_with_a_small_picture_is_not_read_by_ocr(one):
    """Few characters, but its picture (a logo) covers a small part of the page."""
    import io

    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(make_pdf(["Annual report 1887"]))
    page = pdf[0]
    logo = pdfium.PdfImage.new(pdf)
    logo.load_jpeg(io.BytesIO(image_bytes(text_image(["LOGO"], size=20), "JPEG")))
    logo.set_matrix(pdfium.PdfMatrix().scale(120, 40).translate(72, 740))  # 120 x 40 points
    page.insert_obj(logo)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    assert b"/Image" in buffer.getvalue()
    doc = one("letter.pdf", buffer.getvalue())
    assert (doc.status, doc.reason, doc.text) == ("ok", "", "Annual report 1887")


def test_a_page_scanned_sideways_is_read_the_right_way_up(one):
    """Read as it lay, its text was garbage ("asnoyiyHI] ety puoAeq") stored as read."""
    image = text_image(LINES, size=48).rotate(90, expand=True, fillcolor="white")
    doc = one("sideways.png", image_bytes(image, "PNG"))
    assert (doc.status, doc.reason) == ("ok", "read by OCR (tesseract)")
    assert qgram_score(doc.text, ORIGINAL) >= 0.5, doc.text


def test_a_pdf_with_a_page_pdfium_cannot_load_keeps_its_other_pages(one, monkeypatch):
    """A page that fails to load is left out with a note; the pages beside it are read
    (it is None among the pages read, which the check for a text layer must pass over).
    No generated PDF makes PDFium fail on one page alone, so the failure is injected."""
    import pypdfium2 as pdfium

    pdf = joined_pdf(make_pdf(["Box 17, folder 3, the minutes of the harbour board"]), make_pdf(LINES))
    real = pdfium.PdfDocument.__getitem__

    def first_page_broken(self, index):
        if index == 0:
            raise pdfium.PdfiumError("Failed to load page.")
        return real(self, index)

    monkeypatch.setattr(pdfium.PdfDocument, "__getitem__", first_page_broken)
    doc = one("damaged.pdf", pdf)
    assert (doc.status, doc.reason) == ("ok", "1 of 2 pages unreadable")
    assert doc.text == ORIGINAL


@pytest.mark.parametrize("resolution,rendered_at", [(200.0, 200.0), (100.0, 150.0), (600.0, 300.0)])
def test_a_scanned_page_is_rendered_at_its_own_resolution(resolution, rendered_at):
    """A 200 dpi scan rendered at 300 dpi was smoothed, and tesseract read a photocopy's
    speckles as words: 0.89 against its born-digital text where the same pictures as a TIFF
    gave 0.99, and a 150 dpi photocopy 0.45 (missed) against 0.92 rendered at its own 150."""
    import pypdfium2 as pdfium

    from ndd_desktop.ingest.formats.ocr import _render

    picture = text_image(LINES, size=32)
    document = pdfium.PdfDocument(image_bytes(picture, "PDF", resolution=resolution))
    header = _render(document, 0).split(b"\n", 2)[1]
    width = int(header.split()[0])
    assert width == pytest.approx(picture.width * rendered_at / resolution, abs=2)
