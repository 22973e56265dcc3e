"""Text stays text whatever its first bytes; ODF is read from content.xml; broken markup
gives its text instead of an error."""

from __future__ import annotations

import sqlite3
import time

import pytest
from lxml import etree

from ingest_makers import ODF_NS, SAMPLE, image_bytes, make_odf, make_odp, make_odt, replace_zip_member, text_image
from ndd_desktop.ingest import Limits
from ndd_desktop.ingest.detect import detect_format


@pytest.mark.parametrize("start", ["SQLite", "MZ", "BM", "ID3", "GIF89a", "%!PS", "II*", "OggS", "fLaC"])
def test_text_beginning_with_a_magic_number_is_text(one, start):
    text = f"{start} is how this note begins; the rest is ordinary prose about the archive.\n" * 3
    doc = one("note.txt", text.encode())
    assert (doc.status, doc.format, doc.text) == ("ok", "txt", text)


def test_real_binaries_with_those_magic_numbers_are_not_text(one, tmp_path):
    db = tmp_path / "source.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("create table t (x)")
    doc = one("data.db", db.read_bytes())
    assert (doc.status, doc.format, doc.reason) == ("skipped", "sqlite", "unsupported format: sqlite")
    bmp = image_bytes(text_image(["a picture"]), "BMP")  # a picture, read by OCR (test_ocr.py)
    doc = one("picture.txt", bmp, Limits(ocr=False))
    assert (doc.status, doc.format, doc.reason) == ("skipped", "bmp", "picture: OCR is off (ndd scan --ocr auto)")
    exe = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + bytes(200)
    assert detect_format(exe, "tool.exe") == "exe"


def test_formatted_manual_page_loses_its_overstrike(one):
    page = "N\bNA\bAM\bME\bE\n       ls - list _\bd_\bi_\br_\be_\bc_\bt_\bo_\br_\by contents\n"
    doc = one("ls.1", page.encode())
    assert (doc.status, doc.text) == ("ok", "NAME\n       ls - list directory contents\n")


# -- OpenDocument through content.xml -------------------------------------------------------
PANDOC_STYLES = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {ODF_NS} '
                 'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:styles/>'
                 "</office:document-styles>")


def test_odt_whose_styles_repeat_a_namespace_attribute(one):
    # what pandoc wrote for a user: a strict parser rejects this styles.xml...
    with pytest.raises(etree.XMLSyntaxError):
        etree.fromstring(PANDOC_STYLES.encode())
    # ...and the document's text is still read, from content.xml
    doc = one("pandoc.odt", make_odt(SAMPLE, styles=PANDOC_STYLES))
    assert (doc.status, doc.format, doc.reason) == ("ok", "odt", "")
    assert doc.text.split("\n") == SAMPLE


def test_odt_spaces_tabs_breaks_spans_lists_tables_and_date(one):
    body = ("<text:h>Heading</text:h>"
            '<text:p>one<text:s text:c="3"/>two<text:tab/>three<text:line-break/>four '
            "<text:span>spanned <text:a>link</text:a></text:span> end</text:p>"
            "<text:list><text:list-item><text:p>item one</text:p></text:list-item></text:list>"
            "<table:table><table:table-row><table:table-cell><text:p>cell A</text:p></table:table-cell>"
            "<table:table-cell><text:p>cell B</text:p></table:table-cell></table:table-row></table:table>"
            "<text:p>last</text:p>")
    doc = one("rich.odt", make_odf("text", body, created="2003-04-05T06:07:08Z"))
    assert doc.status == "ok", doc.reason
    assert doc.text.split("\n") == ["Heading", "one   two\tthree", "four spanned link end", "item one",
                                    "cell A", "cell B", "last"]
    assert doc.date == 1049522828.0  # 2003-04-05 06:07:08 UTC


def test_odp_slides_in_order(one):
    doc = one("talk.odp", make_odp([["Title one", "point a"], ["Title two"]]))
    assert (doc.status, doc.format) == ("ok", "odp")
    assert doc.text.split("\n") == ["Title one", "point a", "Title two"]


def test_odt_content_without_text_is_empty(one):
    doc = one("blank.odt", make_odt(["", "  "]))
    assert (doc.status, doc.reason) == ("skipped", "no text (empty document)")


def test_odt_missing_content_is_corrupt(one):
    data = replace_zip_member(make_odt(SAMPLE), "content.xml", b"")
    doc = one("hollow.odt", data)
    assert (doc.status, doc.format) == ("error", "odt")
    assert doc.reason.startswith("corrupt ODT: content.xml")


def test_odt_deep_nesting_is_bounded(one):
    body = "<text:p>" + "<text:span>" * 5000 + "deep" + "</text:span>" * 5000 + "</text:p>"
    start = time.monotonic()
    doc = one("deep.odt", make_odf("text", body))
    assert doc.status == "error" and doc.reason.startswith("corrupt ODT")  # lxml's depth limit
    assert time.monotonic() - start < 5


# -- lenient markup ------------------------------------------------------------------------
SGML = b"""<!DOCTYPE report PUBLIC "-//Archive//DTD Report//EN">
<report>
<title>Annual report of the records office
<para>Boxes were moved to the new store &amp; listed.
<para>Caf&eacute; receipts were kept
<!-- a comment the reader never sees -->
</report>
"""


def test_sgml_gives_its_text(one):
    doc = one("report.sgml", SGML)
    assert (doc.status, doc.format) == ("ok", "xml")
    assert doc.reason == "not well-formed XML (SGML?): text read with the tags stripped"
    assert doc.text.split("\n") == ["Annual report of the records office",
                                    "Boxes were moved to the new store & listed.", "Café receipts were kept"]


def test_broken_xml_gives_its_text(one):
    doc = one("export.xml", b'<?xml version="1.0"?><record><title>Minutes</title><body>Text & more</record>')
    assert doc.status == "ok" and doc.reason.startswith("not well-formed XML")
    assert doc.text == "Minutes\nText & more"


def test_unclosed_markup_everywhere_is_linear(one):
    data = b"<?xml version='1.0'?><a>" + b"<!-- never closed " + b"x<" * 200_000 + b"<![CDATA[" * 50_000
    start = time.monotonic()
    doc = one("hostile.xml", data)
    assert doc.status in ("ok", "skipped")
    assert time.monotonic() - start < 5


def test_entity_attacks_in_sgml_are_still_refused(one):
    data = b'<!DOCTYPE r [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;">]>\n<r><p>&b;\n'
    doc = one("attack.sgml", data)
    assert doc.status == "error"
    assert doc.reason == "refused: XML entity declarations (entity expansion attack?)"


def test_limits_unchanged_for_odt_bombs(one):
    from ingest_makers import add_zip_member
    from ndd_desktop.ingest.limits import MB

    bomb = add_zip_member(make_odt(SAMPLE), "Pictures/zeros.bin", bytes(20 * MB))
    doc = one("bomb.odt", bomb, Limits())
    assert doc.status == "skipped" and doc.reason.startswith("zip bomb protection:")


@pytest.mark.parametrize("name,head,reason", [
    ("brief.wpd", b"\xffWPC\x10\x00\x00\x00\x01\x0a\x02\x01\x00\x00\x00\x02", "WordPerfect document"),
    ("note.wri", b"\x31\xbe\x00\x00\x00\xab\x00\x00\x00\x00\x00\x00\x00\x00", "Windows Write document"),
    ("mail.pst", b"!BDN\x8e\x2d\x7a\x92SM\x17\x00\x01\x00\x00\x00", "Outlook data file"),
    ("book.djvu", b"AT&TFORM\x00\x00\x12\x34DJVUINFO\x00\x00\x00\x0a", "DjVu document"),
    (".DS_Store", b"\x00\x00\x00\x01Bud1\x00\x00\x10\x00\x00\x00\x08\x00", "Finder metadata"),
    ("._report.docx", b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        ", "AppleDouble file"),
])
def test_formats_no_reader_reads_are_named(one, name, head, reason):
    # they were all "binary content (not text)", which says nothing of what to do
    doc = one(name, head + bytes(range(256)) * 4)
    assert doc.status == "skipped" and doc.reason.startswith(f"unsupported format: {reason}"), doc.reason


def test_text_beginning_with_such_a_signature_is_text(one):
    text = "!BDN is how this note begins; the rest is ordinary prose about the archive.\n" * 3
    assert one("note.txt", text.encode()).text == text


def test_a_thumbnail_cache_is_named(one):
    from ingest_makers import make_cfb

    doc = one("Thumbs.db", make_cfb({"Catalog": bytes(4096)}))
    assert (doc.status, doc.reason) == ("skipped", "unsupported format: Windows thumbnail cache (Thumbs.db), no document")
