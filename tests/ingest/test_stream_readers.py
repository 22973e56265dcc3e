"""The DOCX (lxml stream), PDF (PDFium) and whole-page HTML (lxml parser target) readers:
what they read, in what order, and how they fail."""

import io
import zipfile

import pytest
from ingest_makers import SAMPLE, make_docx, make_pdf, pdf_file, replace_zip_member

from ndd_desktop.ingest import ExtractOptions, Limits, extract_bytes
from ndd_desktop.ingest.formats import docx
from ndd_desktop.ingest.formats.base import Budget, Context, Fail
from ndd_desktop.ingest.formats.pdf import pdf_date

W_NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wps="urn:test:wps" xmlns:v="urn:schemas-microsoft-com:vml"')


def docx_with_body(body: str) -> bytes:
    """A python-docx document whose word/document.xml body is ``body``."""
    xml = f'<?xml version="1.0" encoding="UTF-8"?><w:document {W_NS}><w:body>{body}</w:body></w:document>'
    return replace_zip_member(make_docx(["placeholder"]), "word/document.xml", xml.encode())


def test_docx_text_box_follows_its_anchor_and_is_read_once(one):
    box = "<w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent>"
    body = (
        "<w:p><w:r><w:t>Before</w:t></w:r></w:p>"
        "<w:p><w:r><w:t xml:space='preserve'>Anchor </w:t></w:r><w:r><mc:AlternateContent>"
        f"<mc:Choice Requires='wps'><w:drawing><wps:txbx>{box}</wps:txbx></w:drawing></mc:Choice>"
        f"<mc:Fallback><w:pict><v:textbox>{box}</v:textbox></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r><w:r><w:t>paragraph</w:t></w:r></w:p>"
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell one</w:t></w:r></w:p></w:tc>"
        "<w:tc><w:p><w:r><w:t>cell two</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
        "<w:p><w:r><w:t>After</w:t></w:r></w:p>"
    )
    doc = one("box.docx", docx_with_body(body))
    assert doc.status == "ok", doc.reason
    assert doc.text.split("\n") == ["Before", "Anchor paragraph", "In the box", "cell one", "cell two", "After"]


def test_docx_runs_breaks_and_tracked_changes(one):
    body = (
        "<w:p><w:r><w:t>tab</w:t><w:tab/><w:t>then</w:t><w:br/><w:t>new line</w:t>"
        "<w:br w:type='page'/><w:t>same line</w:t><w:noBreakHyphen/><w:t>x</w:t></w:r></w:p>"
        "<w:p><w:hyperlink><w:r><w:t>link</w:t></w:r></w:hyperlink><w:r><w:t xml:space='preserve'> kept </w:t></w:r>"
        "<w:ins><w:r><w:t>inserted</w:t></w:r></w:ins><w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>"
        "<w:r><w:instrText>PAGE</w:instrText></w:r>"
        "<w:sdt><w:sdtContent><w:r><w:t> control</w:t></w:r></w:sdtContent></w:sdt></w:p>"
    )
    doc = one("runs.docx", docx_with_body(body))
    assert doc.text == "tab\tthen\nnew linesame line-x\nlink kept inserted control"


def test_docx_strict_open_xml_is_read_alike(one):
    body = ("<w:p><w:r><w:t>strict</w:t><w:br w:type='page'/><w:tab/><w:t>text</w:t></w:r></w:p>"
            "<w:p><w:hyperlink><w:r><w:t>second</w:t></w:r></w:hyperlink></w:p>")
    data = docx_with_body(body)
    transitional, strict = (b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
                            b"http://purl.oclc.org/ooxml/wordprocessingml/main")
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").replace(transitional, strict)
    doc = one("strict.docx", replace_zip_member(data, "word/document.xml", xml))
    assert doc.text == "strict\ttext\nsecond"


def rewrite_zip(package: bytes, rename: dict[str, str | None], rels: bytes | None = None) -> bytes:
    """A copy of a package with members renamed (None: left out) and, given ``rels``, a new
    ``_rels/.rels``."""
    src = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            name = rename.get(info.filename, info.filename)
            if name is not None:
                dst.writestr(name, rels if rels is not None and name == "_rels/.rels" else src.read(info))
    return out.getvalue()


def read_docx(data: bytes):
    """The DOCX reader itself (detection sends only packages holding word/document.xml to it)."""
    limits = Limits()
    return docx.extract(data, Context(limits, Budget(limits), "x.docx"))


def test_docx_main_part_is_found_through_the_relationships():
    data = make_docx(SAMPLE)
    rels = zipfile.ZipFile(io.BytesIO(data)).read("_rels/.rels").replace(b"word/document.xml", b"word/main.xml")
    renamed = rewrite_zip(data, {"word/document.xml": "word/main.xml"}, rels)
    assert read_docx(renamed).text.split("\n") == SAMPLE


def test_docx_with_broken_relationships_is_read_by_the_usual_part_name(one):
    doc = one("rels.docx", replace_zip_member(make_docx(SAMPLE), "_rels/.rels", b"<Relationships><Rel"))
    assert (doc.status, doc.text.split("\n")) == ("ok", SAMPLE)


def test_docx_without_or_with_a_broken_main_part(one):
    data = make_docx(SAMPLE)
    with pytest.raises(Fail, match="^corrupt DOCX: no word/document.xml$"):
        read_docx(rewrite_zip(data, {"word/document.xml": None}))
    doc = one("broken.docx", replace_zip_member(data, "word/document.xml", b"<w:document><w:body><w:p>"))
    assert (doc.status, doc.format) == ("error", "docx")
    assert doc.reason.startswith("corrupt DOCX: word/document.xml:")


def test_docx_parts_read_for_the_date_are_checked_for_a_dtd(one):
    core = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'
    doc = one("core.docx", replace_zip_member(make_docx(SAMPLE), "docProps/core.xml", core))
    assert doc.status == "error" and doc.reason.startswith("refused: XML entity declarations in docProps/core.xml")


def test_docx_creation_date(one):
    core = (b'<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties '
            b'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            b'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            b'<dcterms:created xsi:type="dcterms:W3CDTF">2001-02-03T04:05:06Z</dcterms:created></cp:coreProperties>')
    doc = one("dated.docx", replace_zip_member(make_docx(SAMPLE), "docProps/core.xml", core))
    assert doc.date == 981173106.0  # 2001-02-03 04:05:06 UTC


def two_page_pdf(first: list[str], second: list[str]) -> bytes:
    """A PDF of two pages, each showing its lines in Helvetica."""
    def stream(lines):
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td"] + [f"({line}) Tj T*" for line in lines] + ["ET"]
        return "\n".join(ops).encode("latin-1")

    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
            b"/Resources << /Font << /F1 7 0 R >> >> >>")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
        page % 5,
        page % 6,
        b"<< /Length %d >>\nstream\n" % len(stream(first)) + stream(first) + b"\nendstream",
        b"<< /Length %d >>\nstream\n" % len(stream(second)) + stream(second) + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    return pdf_file(objs)


def test_pdf_pages_are_separated_by_a_form_feed(one):
    doc = one("two.pdf", two_page_pdf(["first page", "line two"], ["second page"]))
    assert doc.status == "ok", doc.reason
    assert doc.text == "first page\nline two\n\fsecond page"


def test_pdf_word_broken_at_a_line_end_keeps_its_hyphen_and_line(one):
    doc = one("hyphen.pdf", make_pdf(["the archive's acces-", "sion register"]))
    assert doc.text == "the archive's acces-\nsion register"


@pytest.mark.parametrize("value, expected", [
    ("D:20010203040506Z", 981173106.0),
    ("D:20010203040506", 981173106.0),  # no zone: UTC
    ("D:20010203040506+01'00'", 981173106.0 - 3600),
    ("D:20010203040506-05'30'", 981173106.0 + 5.5 * 3600),
    ("D:2001", 978307200.0),  # 2001-01-01 00:00 UTC
    ("D:20011340", None),  # month 13
    ("yesterday", None),
    ("", None),
])
def test_pdf_dates(value, expected):
    assert pdf_date(value) == expected


def test_whole_page_reader_keeps_what_a_browser_shows():
    page = (b"<html><head><title>t</title><style>p{}</style></head><body>"
            b"<p>a&nbsp;b &amp; c</p><div>x<span>y</span>   z<br>w</div>"
            b"<pre>  kept\n   as  is</pre><!-- comment --><script>hidden()</script>"
            b"<table><tr><td>one</td><td>two</td></tr></table><template>no</template>tail</body></html>")
    [doc] = extract_bytes(page, "page.html", options=ExtractOptions(html="all"))
    assert doc.text.split("\n") == ["a\xa0b & c", "xy z", "w", "kept", "as  is", "one", "two", "tail"]


def test_whole_page_reader_reads_below_any_tree_depth():
    page = b"<html><body>" + b"<div>" * 5_000 + b"deep text" + b"</div>" * 5_000 + b"<p>after</p></body></html>"
    [doc] = extract_bytes(page, "deep.html", options=ExtractOptions(html="all"))
    assert doc.text == "deep text\nafter"
