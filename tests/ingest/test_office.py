"""Spreadsheets (XLSX, XLS, ODS), presentations (PPTX, ODP), EPUB books and legacy Word
and PowerPoint files; broken and hostile ones get a reason."""

from __future__ import annotations

import os
import time
from pathlib import Path

from ingest_makers import (
    LAUGHS_ENTITY_PART, add_zip_member, make_cfb, make_epub, make_ods, make_ppt, make_ppt_in_text_boxes, make_pptx, make_xlsx, make_zip,
    replace_zip_member,
)
from ndd_desktop.ingest.limits import MB

DATA = Path(__file__).parent / "data"


def test_xlsx_rows_and_sheets(one):
    data = make_xlsx({"Budget": [["Item", "Cost", ""], ["Boxes", 12], [], ["Shelving", 3.5]],
                      "Notes": [["Moved to the new store"]]})
    doc = one("book.xlsx", data)
    assert (doc.status, doc.format) == ("ok", "xlsx"), doc.reason
    assert doc.text == "Budget\nItem\tCost\nBoxes\t12\nShelving\t3.5\n\nNotes\nMoved to the new store"


def test_ods_rows_and_sheets(one):
    doc = one("book.ods", make_ods({"Staff": [["Name", "Room"], ["Ada", "12"]], "Empty": [], "Other": [["x"]]}))
    assert (doc.status, doc.format) == ("ok", "ods"), doc.reason
    assert doc.text == "Staff\nName\tRoom\nAda\t12\n\nEmpty\n\nOther\nx"


def test_legacy_xls(one):
    doc = one("old.xls", (DATA / "legacy.xls").read_bytes())
    assert (doc.status, doc.format) == ("ok", "xls"), doc.reason
    assert doc.text == "Budget\nItem\tCost\nBoxes\t12\n\nNotes\nOld Excel sheet"


def test_spreadsheet_without_cells_is_empty(one):
    doc = one("blank.xlsx", make_xlsx({"Sheet1": []}))
    assert (doc.status, doc.reason) == ("skipped", "no text (empty document)")


def test_formulas_stored_without_their_values_are_read_in_their_place(one):
    # calamine reads a formula with no stored value as an empty cell: two budgets whose
    # figures differ only in their formulas' inputs read as one text
    a = one("a.xlsx", make_xlsx({"Budget": [["Item", "Cost"], ["Rent", "=100*12"], ["Total", "=SUM(B2:B2)"]]}))
    b = one("b.xlsx", make_xlsx({"Budget": [["Item", "Cost"], ["Rent", "=900*12"], ["Total", "=SUM(B2:B2)"]]}))
    assert a.status == b.status == "ok"
    assert a.text.endswith("\n\nB2\t=100*12\nB3\t=SUM(B2:B2)") and "=900*12" in b.text and a.text != b.text
    assert "2 formula cells stored without a value" in a.reason
    saved = one("c.xlsx", make_xlsx({"Budget": [["Item", "Cost"], ["Rent", 1200]]}))
    assert "formula" not in saved.reason and saved.text == "Budget\nItem\tCost\nRent\t1200"


def test_speaker_notes_follow_the_slides_in_pptx_and_odp_alike(one):
    # PPTX left its notes out and ODP read them inline with a "<number>" line per notes
    # page: the same deck in the two formats did not pair, and two PPTX decks that differ
    # only in their notes were one text
    from ingest_makers import make_odp

    slides = [["Title of the talk"], ["First point", "Second point"]]
    notes = [["Welcome everyone and thank the hosts."], ["Explain the first point with the harbour example."]]
    pptx = one("talk.pptx", make_pptx(slides, notes=notes))
    odp = one("talk.odp", make_odp(slides, notes=notes))
    expected = "Title of the talk\nFirst point\nSecond point\n\n" + "\n".join(n[0] for n in notes)
    assert pptx.status == odp.status == "ok"
    assert pptx.text == expected and odp.text == expected
    assert "<number>" not in odp.text
    plain = one("plain.pptx", make_pptx(slides))
    assert plain.text == "Title of the talk\nFirst point\nSecond point"


def test_pptx_slides_in_presentation_order(one):
    # slide parts 1, 2, 3 shown in the order 3, 1, 2
    doc = one("talk.pptx", make_pptx([["Second shown"], ["Third shown", "more"], ["First shown"]], order=[3, 1, 2]))
    assert (doc.status, doc.format) == ("ok", "pptx"), doc.reason
    assert doc.text.split("\n") == ["First shown", "Second shown", "Third shown", "more"]


def test_pptx_without_a_slide_list_falls_back_to_part_numbers(one):
    data = replace_zip_member(make_pptx([["one"], ["two"]] + [[f"s{i}"] for i in range(3, 11)]),
                              "ppt/presentation.xml", b"<broken")
    doc = one("talk.pptx", data)
    assert doc.text.split("\n")[:3] == ["one", "two", "s3"] and doc.text.endswith("s10")


def test_epub_in_spine_order_through_the_html_reader(one):
    doc = one("book.epub", make_epub([["Chapter two text"], ["Chapter one", "Call me Ishmael."]], spine=[2, 1]))
    assert (doc.status, doc.format) == ("ok", "epub"), doc.reason
    assert doc.text.split("\n") == ["Chapter one", "Call me Ishmael.", "Chapter two text"]
    assert "Chapter\n" not in doc.text and "color" not in doc.text  # head and CSS are not text
    assert doc.date == 1083827289.0  # 2004-05-06T07:08:09Z


def test_legacy_doc_through_antiword(one):
    doc = one("minutes.doc", (DATA / "legacy.doc").read_bytes())
    assert (doc.status, doc.format) == ("ok", "doc"), doc.reason
    lines = doc.text.split("\n")
    assert lines[:3] == ["Minutes of the records committee",
                         "The legacy Word file keeps its paragraphs, one line each, in the order they were written.",
                         "Café crème and naïve words survive the old format."]
    assert "Paragraph 24 of the minutes" in doc.text


def test_legacy_ppt_through_catppt(one):
    data = make_ppt([["Quarterly review", "Old PowerPoint text"], ["Second slide, caf\u00e9 cr\u00e8me"]])
    doc = one("review.ppt", data)
    assert (doc.status, doc.format) == ("ok", "ppt"), doc.reason
    assert doc.text.split("\n") == ["Quarterly review", "Old PowerPoint text", "Second slide, café crème"]


def test_ole_files_are_told_apart_by_their_streams(one):
    doc = one("renamed.bin", make_ppt([["Slide text in a file with another name"]]))
    assert (doc.format, doc.status) == ("ppt", "ok")
    doc = one("other.bin", make_cfb({"SomethingElse": bytes(4096)}))
    assert (doc.format, doc.status) == ("ole", "skipped")


def test_legacy_files_without_their_program_name_the_package(one, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    doc = one("minutes.doc", (DATA / "legacy.doc").read_bytes())
    assert (doc.status, doc.format) == ("error", "doc")
    assert doc.reason == "needs antiword: legacy Word document (.doc) (install the 'antiword' package)"


def test_ppt_without_catppt_is_read_by_its_records(one, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    doc = one("slides.ppt", make_ppt([["a slide", "with two lines"]]))
    assert (doc.status, doc.format, doc.text) == ("ok", "ppt", "a slide\nwith two lines")


def test_a_ppt_with_its_text_in_text_boxes_is_read(one):
    # as LibreOffice saves a deck: catppt printed nothing and the deck was skipped as
    # "no text (empty document)"; the master's prompt is no content
    lines = [["The parish registers of Ballymore", "were transferred to the diocesan archive in spring"],
             ["The volume of the famine years shows water damage along its lower margin"]]
    doc = one("deck.ppt", make_ppt_in_text_boxes(lines))
    assert (doc.status, doc.format) == ("ok", "ppt"), doc.reason
    assert doc.text.split("\n") == [line for slide in lines for line in slide]


# -- hostile -------------------------------------------------------------------------------
def test_corrupt_doc_is_an_error_and_scan_goes_on(extract_file):
    data = (DATA / "legacy.doc").read_bytes()
    [doc] = extract_file("cut.doc", data[:1536] + os.urandom(3000))
    assert doc.status == "error" and doc.format == "doc"
    assert extract_file("next.txt", b"fine")[0].text == "fine"


def test_corrupt_xlsx_and_xls(one):
    doc = one("bad.xlsx", replace_zip_member(make_xlsx({"S": [["a"]]}), "xl/workbook.xml", b"<nope"))
    assert (doc.status, doc.format) == ("error", "xlsx") and doc.reason.startswith("corrupt XLSX")
    data = (DATA / "legacy.xls").read_bytes()
    doc = one("bad.xls", data[:2048] + bytes(len(data) - 2048))
    assert doc.status == "error" and doc.reason.startswith("corrupt XLS")


def test_truncated_office_packages_name_their_format(one):
    for name, data in (("t.xlsx", make_xlsx({"S": [["a"]]})), ("t.pptx", make_pptx([["a"]])),
                       ("t.epub", make_epub([["a"]]))):
        doc = one(name, data[: len(data) // 2])
        assert (doc.status, doc.format) == ("error", name.rsplit(".", 1)[1]), name
        assert doc.reason.startswith("corrupt or truncated"), doc.reason


def test_office_zip_bombs(one):
    for name, data in (("b.xlsx", make_xlsx({"S": [["a"]]})), ("b.pptx", make_pptx([["a"]])),
                       ("b.epub", make_epub([["a"]]))):
        start = time.monotonic()
        doc = one(name, add_zip_member(data, "zeros.bin", bytes(30 * MB)))
        assert doc.status == "skipped" and doc.reason.startswith("zip bomb protection:"), name
        assert time.monotonic() - start < 5


def test_entity_attacks_in_office_parts_are_refused(one):
    for name, data, part in (("x.xlsx", make_xlsx({"S": [["a"]]}), "xl/worksheets/sheet1.xml"),
                             ("x.pptx", make_pptx([["a"]]), "ppt/slides/slide1.xml"),
                             ("x.epub", make_epub([["a"]]), "OEBPS/book.opf")):
        doc = one(name, replace_zip_member(data, part, LAUGHS_ENTITY_PART))
        assert doc.status == "error" and "entity declarations" in doc.reason, (name, doc.reason)


def test_epub_without_container_or_with_escaping_hrefs(one):
    data = make_epub([["a"]])
    doc = one("nocontainer.epub", make_zip({"mimetype": b"application/epub+zip", "x.xhtml": b"<p>x</p>"}))
    assert doc.status == "error" and doc.reason == "corrupt EPUB: no META-INF/container.xml"
    opf = (b'<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"><manifest>'
           b'<item id="a" href="../../../etc/passwd" media-type="application/xhtml+xml"/></manifest>'
           b'<spine><itemref idref="a"/></spine></package>')
    doc = one("escape.epub", replace_zip_member(data, "OEBPS/book.opf", opf))
    assert (doc.status, doc.reason) == ("skipped", "no text (empty document)")



def test_sheet_spanning_billions_of_cells_is_refused_before_calamine(one):
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    sheet = (f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{main}"><sheetData>'
             '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'
             '<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>z</t></is></c></row></sheetData></worksheet>')
    data = replace_zip_member(make_xlsx({"S": [["a"]]}), "xl/worksheets/sheet1.xml", sheet.encode())
    start = time.monotonic()
    doc = one("sparse.xlsx", data)  # in this process: calamine would abort it, not raise
    assert (doc.status, doc.reason) == (
        "skipped", "spreadsheet too large: xl/worksheets/sheet1.xml spans 17,179,869,184 cells (limit 30,000,000)")
    assert time.monotonic() - start < 2
