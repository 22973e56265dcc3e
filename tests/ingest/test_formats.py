"""Each format extracts its text, date and members; detection goes by content."""

from __future__ import annotations

import hashlib

import xxhash

from ingest_makers import (
    SAMPLE, make_docx, make_eml, make_form_pdf, make_html, make_odt, make_pdf, make_rtf, make_zip,
)
from ndd_desktop.core.normalize import normalize
from ndd_desktop.ingest import Limits, extract_bytes


def test_plain_utf8_text_has_hashes_and_mtime_date(one):
    data = "Grüße aus München\nzweite Zeile\n".encode()
    doc = one("notes.txt", data)
    assert (doc.status, doc.format, doc.reason) == ("ok", "txt", "")
    assert doc.text == data.decode()
    assert doc.xxh128 == xxhash.xxh3_128_hexdigest(data)
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert doc.size == len(data) and doc.container is None
    assert doc.date == doc.mtime_ns / 1e9


def test_pdf_text_and_creation_date(one):
    doc = one("report.pdf", make_pdf(SAMPLE, info_date="20010203040506Z"))
    assert doc.status == "ok" and doc.format == "pdf"
    assert "Quick Brown Fox" in doc.text
    assert doc.date == 981173106.0  # 2001-02-03 04:05:06 UTC


def test_rtf_text_after_a_binary_picture_is_read(one):
    # Word writes a picture twice, {\*\shppict{\pict ...}} then a fallback; a picture as
    # raw bytes (\binN) after such a group ended the text striprtf gave: the rest was lost
    picture = bytes(range(256)) * 2  # any byte, braces and backslashes among them
    data = (b"{\\rtf1\\ansi First paragraph of the letter.\\par "
            b"{\\*\\shppict{\\pict\\pngblip 89504e47}}{\\nonshppict{\\pict\\wmetafile8 0100}}"
            b"{\\pict\\pngblip\\bin%d %s}\\par Second paragraph after the picture.\\par}"
            % (len(picture), picture))
    doc = one("letter.rtf", data)
    assert doc.status == "ok"
    assert "First paragraph of the letter." in doc.text
    assert "Second paragraph after the picture." in doc.text


def test_a_pdf_form_is_read_with_its_filled_in_values(one):
    # the values are drawn by each field's own appearance, not in the page's text: two
    # applications on one form were read as their labels alone and scored 1.0
    labels = ["Applicant name:", "Street address:", "Purpose of the request:"]
    a = one("a.pdf", make_form_pdf(labels, ["Margaret Holloway", "14 Orchard Lane", "family history"]))
    b = one("b.pdf", make_form_pdf(labels, ["Thomas Whitby", "2 Mill Street", "a house history"]))
    assert a.status == b.status == "ok"
    for label in labels:
        assert label in a.text and label in b.text
    assert "Margaret Holloway" in a.text and "14 Orchard Lane" in a.text and "family history" in a.text
    assert "Thomas Whitby" in b.text and "Margaret" not in b.text


def test_docx_paragraphs_and_tables(one):
    import io

    import docx

    document = docx.Document()
    document.add_paragraph("Before the table")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "left cell", "right cell"
    document.add_paragraph("After the table")
    buf = io.BytesIO()
    document.save(buf)
    doc = one("t.docx", buf.getvalue())
    assert doc.status == "ok", doc.reason
    assert doc.text.split("\n") == ["Before the table", "left cell", "right cell", "After the table"]


def test_odt_text(one):
    doc = one("a.odt", make_odt(SAMPLE))
    assert (doc.status, doc.format) == ("ok", "odt")
    assert doc.text.split("\n") == SAMPLE


def test_rtf_text_and_date(one):
    doc = one("a.rtf", make_rtf(SAMPLE + ["caf\u00e9 cr\u00e8me"]))
    assert (doc.status, doc.format) == ("ok", "rtf")
    assert doc.text.split("\n")[:3] == SAMPLE
    assert "café crème" in doc.text
    assert doc.date is not None and doc.date != doc.mtime_ns / 1e9


def test_html_visible_text_only(one):
    doc = one("page.html", make_html(SAMPLE))
    assert doc.status == "ok"
    assert doc.text.split("\n") == SAMPLE
    for hidden in ("script text", "color: red", "Ignored title", "no script text", "<p>"):
        assert hidden not in doc.text


def test_xhtml_is_html_and_xml_is_xml(one):
    xhtml = (b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
             b"<head><title>x</title></head><body><p>Hello</p><p>World</p></body></html>")
    doc = one("page.xhtml", xhtml)
    assert (doc.format, doc.text) == ("html", "Hello\nWorld")
    doc = one("data.xml", b'<?xml version="1.0"?><record><title>Minutes</title><body>Text</body></record>')
    assert (doc.format, doc.text) == ("xml", "Minutes\nText")


def test_markdown_by_extension(one):
    doc = one("readme.md", b"# Title\n\nSome *text*.\n")
    assert (doc.format, doc.status) == ("md", "ok")
    assert "Some *text*." in doc.text


def test_extensions_lie_content_wins(one):
    assert one("really-a-pdf.txt", make_pdf(SAMPLE)).format == "pdf"
    assert one("really-a-docx.zip", make_docx(SAMPLE)).format == "docx"
    doc = one("really-text.pdf", b"Just some words in a file with the wrong name.\n")
    assert (doc.format, doc.status) == ("txt", "ok")
    doc = one("mail.txt", make_eml("Body text"))
    assert doc.format == "eml"


def test_eml_headers_body_and_document_attachments(extract_file):
    png = b"\x89PNG\r\n\x1a\n" + bytes(200)
    data = make_eml("Please find the report attached.", [
        ("attachment.pdf", make_pdf(SAMPLE), "application/pdf"),
        ("photo.png", png, "image/png"),
        ("notes.txt", b"plain attachment text", "text/plain"),
    ])
    docs = extract_file("mail.eml", data)
    by_path = {d.relpath: d for d in docs}
    assert set(by_path) == {"mail.eml", "mail.eml!attachment.pdf", "mail.eml!notes.txt"}
    mail = by_path["mail.eml"]
    assert mail.format == "eml" and mail.container is None
    assert mail.text == "Please find the report attached."  # the header lines are not its content
    assert (mail.email["subject"], mail.email["from"]) == ("Quarterly report", "Ada Archivist <ada@example.org>")
    assert mail.date == 1107252000.0  # Tue, 01 Feb 2005 10:00:00 +0000
    pdf = by_path["mail.eml!attachment.pdf"]
    assert (pdf.container, pdf.format, pdf.status) == ("mail.eml", "pdf", "ok")
    assert pdf.date == mail.date
    assert pdf.sha256 == hashlib.sha256(make_pdf(SAMPLE)).hexdigest()


def test_mbox_each_message_a_document(extract_file):
    messages = [make_eml(f"Body number {i}", subject=f"Message {i}",
                         date=f"Tue, 0{i} Feb 2005 10:00:00 +0000") for i in (1, 2, 3)]
    box = b"".join(b"From ada@example.org Tue Feb  1 10:00:00 2005\n" + m + b"\n" for m in messages)
    docs = extract_file("box.mbox", box)
    assert [d.relpath for d in docs] == ["box.mbox!message-1", "box.mbox!message-2", "box.mbox!message-3"]
    for i, d in enumerate(docs, 1):
        assert (d.status, d.format, d.container) == ("ok", "eml", "box.mbox")
        assert (d.text, d.email["subject"]) == (f"Body number {i}", f"Message {i}")
    assert docs[0].date < docs[1].date < docs[2].date


def test_zip_members_are_documents(extract_file):
    data = make_zip({"dir/a.txt": b"first member", "b.docx": make_docx(["second member"]),
                     "empty/": b"", "c.html": b"<p>third</p>"})
    docs = extract_file("archive.zip", data)
    assert [d.relpath for d in docs] == ["archive.zip!dir/a.txt", "archive.zip!b.docx", "archive.zip!c.html"]
    assert [d.text for d in docs] == ["first member", "second member", "third"]
    assert all(d.container == "archive.zip" and d.status == "ok" for d in docs)
    assert docs[0].size == len(b"first member")


def test_nested_containers_keep_the_disk_file_as_container(extract_file):
    inner = make_zip({"deep.txt": b"deep text"})
    mail = make_eml("body", [("inner.zip", inner, "application/zip")])
    docs = extract_file("outer.zip", make_zip({"mail.eml": mail}))
    paths = {d.relpath: d for d in docs}
    assert "outer.zip!mail.eml!inner.zip!deep.txt" in paths
    assert all(d.container == "outer.zip" for d in docs)
    assert paths["outer.zip!mail.eml!inner.zip!deep.txt"].text == "deep text"


def test_empty_zip_is_reported(one):
    doc = one("nothing.zip", make_zip({}))
    assert (doc.status, doc.reason) == ("skipped", "empty ZIP: no documents inside")


def test_unsupported_formats_are_skipped(one):
    doc = one("old.bin", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    assert (doc.status, doc.format) == ("skipped", "ole")
    assert doc.reason.startswith("unsupported format: OLE compound file")
    doc = one("song.mp3", b"ID3\x03\x00\x00\x00\x00\x0f\x76" + bytes(100))
    assert (doc.status, doc.format, doc.reason) == ("skipped", "mp3", "unsupported format: mp3")


def test_cross_format_same_normalised_text(extract_file):
    """The same text as txt, html, pdf, docx, odt, rtf, odp, pptx, epub and compressed or
    archived text normalises to the same string."""
    import gzip

    from ingest_makers import make_7z, make_epub, make_odp, make_pptx, make_tar

    lines = SAMPLE + ["Numbers 1, 2 and 3; punctuation: fine.", "Caf\u00e9 cr\u00e8me na\u00efve"]
    plain = "\n".join(lines).encode("utf-8")
    files = {
        "s.txt": plain,
        "s.html": make_html(lines),
        "s.pdf": make_pdf(lines),
        "s.docx": make_docx(lines),
        "s.odt": make_odt(lines),
        "s.rtf": make_rtf(lines),
        "s.odp": make_odp([lines[:2], lines[2:]]),
        "s.pptx": make_pptx([lines[:2], lines[2:]]),
        "s.epub": make_epub([lines[:3], lines[3:]]),
        "s.txt.gz": gzip.compress(plain),
        "s.tar.gz": make_tar({"s.txt": plain}, "w:gz"),
        "s.7z": make_7z({"s.txt": plain}),
    }
    expected = normalize("\n".join(lines))
    for name, data in files.items():
        [doc] = extract_file(name, data)
        assert doc.status == "ok", (name, doc.reason)
        assert normalize(doc.text) == expected, name


def test_extract_bytes_without_a_file():
    docs = extract_bytes(b"hello bytes", "x.txt", limits=Limits())
    assert [(d.relpath, d.text, d.status) for d in docs] == [("x.txt", "hello bytes", "ok")]
