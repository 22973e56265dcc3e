"""Footnotes, endnotes, comments, headers and footers of DOCX and RTF documents: kept after
the body, so two versions that differ only in their notes are two texts (their ODT copies,
whose notes are paragraphs of content.xml, always were)."""

from __future__ import annotations

import io
import zipfile

from ndd_desktop.ingest import Limits
from ndd_desktop.ingest.formats import rtf

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
OFFICE_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
BODY = ["Report on the transfer of the parish registers", "The registers came in the spring."]


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _paras(lines: list[str]) -> str:
    return "".join(f'<w:p><w:r><w:t xml:space="preserve">{_esc(line)}</w:t></w:r></w:p>' for line in lines)


def _part(root: str, inner: str) -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8"?><w:{root} xmlns:w="{W}">{inner}</w:{root}>'.encode()


def _notes_part(item: str, notes: list[list[str]]) -> bytes:
    """A footnotes or endnotes part as Word writes it: the separator and continuation
    separator (and here a continuation notice with a word in it) first, then the notes,
    each paragraph after the note's reference mark and a space."""
    special = (f'<w:{item} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{item}>'
               f'<w:{item} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:{item}>'
               f'<w:{item} w:type="continuationNotice" w:id="1"><w:p><w:r><w:t>NOTICE</w:t></w:r></w:p></w:{item}>')
    notes_xml = "".join(
        f'<w:{item} w:id="{n}"><w:p><w:r><w:{item}Ref/></w:r><w:r><w:t xml:space="preserve"> {_esc(lines[0])}</w:t></w:r></w:p>'
        + _paras(lines[1:]) + f"</w:{item}>" for n, lines in enumerate(notes, 2))
    return _part(f"{item}s", special + notes_xml)


def make_word(body: list[str], *, footnotes=(), endnotes=(), comments=(), headers=(), footers=(),
              rels: bool = True, replace: dict[str, bytes] | None = None) -> bytes:
    """A DOCX written part by part: the body's paragraphs (the first holds a footnote
    reference, no text), notes and comments (a list of paragraphs each), headers and
    footers (a list of paragraphs each, named header1.xml, ...), the main part's
    relationships naming them unless ``rels`` is False; ``replace`` swaps parts' bytes."""
    ref = '<w:r><w:footnoteReference w:id="2"/></w:r>' if footnotes else ""
    first = f'<w:p><w:r><w:t>{_esc(body[0])}</w:t></w:r>{ref}</w:p>' if body else ""
    parts = {"word/document.xml": _part("document", f"<w:body>{first}{_paras(body[1:])}<w:sectPr/></w:body>")}
    kinds = []
    if footnotes:
        parts["word/footnotes.xml"] = _notes_part("footnote", list(footnotes))
        kinds.append(("footnotes", "footnotes.xml"))
    if endnotes:
        parts["word/endnotes.xml"] = _notes_part("endnote", list(endnotes))
        kinds.append(("endnotes", "endnotes.xml"))
    if comments:
        parts["word/comments.xml"] = _part("comments", "".join(
            f'<w:comment w:id="{n}" w:author="Margaret" w:initials="MO"><w:p><w:r><w:annotationRef/></w:r>'
            f'<w:r><w:t>{_esc(lines[0])}</w:t></w:r></w:p>{_paras(lines[1:])}</w:comment>'
            for n, lines in enumerate(comments)))
        kinds.append(("comments", "comments.xml"))
    for kind, root, texts in (("header", "hdr", headers), ("footer", "ftr", footers)):
        for n, lines in enumerate(texts, 1):
            parts[f"word/{kind}{n}.xml"] = _part(root, _paras(lines) or "<w:p/>")
            kinds.append((kind, f"{kind}{n}.xml"))
    if rels:
        parts["word/_rels/document.xml.rels"] = (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PACKAGE_RELS}">'
            + "".join(f'<Relationship Id="rId{n}" Type="{OFFICE_RELS}/{kind}" Target="{target}"/>'
                      for n, (kind, target) in enumerate(reversed(kinds), 1))  # in no useful order
            + "</Relationships>").encode()
    parts.update(replace or {})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        zf.writestr("_rels/.rels", f'<?xml version="1.0"?><Relationships xmlns="{PACKAGE_RELS}">'
                                   f'<Relationship Id="rId1" Type="{OFFICE_RELS}/officeDocument" Target="word/document.xml"/>'
                                   "</Relationships>")
        for name, data in parts.items():
            zf.writestr(name, data)
    return out.getvalue()


ALL_PARTS = {
    "footnotes": [["Vestry minutes 1841-1860, volume 2, folio 14."], ["Letter of the bishop, 3 May 1889.", "Box 7."]],
    "endnotes": [["Census of 1901, household return."]],
    "comments": [["check the conservator report"]],
    # three sections: the same running header twice, an empty one (Word writes those)
    "headers": [["Confidential: diocesan archive"], ["First page heading"], ["Confidential: diocesan archive"], []],
    "footers": [["Registry office, page footer"]],
}
ALL_TEXT = "\n".join([
    *BODY, "",
    "Vestry minutes 1841-1860, volume 2, folio 14.", "Letter of the bishop, 3 May 1889.", "Box 7.", "",
    "Census of 1901, household return.", "",
    "check the conservator report", "",
    "Confidential: diocesan archive", "First page heading", "",
    "Registry office, page footer",
])


def test_docx_keeps_notes_comments_headers_and_footers_after_the_body(one):
    doc = one("report.docx", make_word(BODY, **ALL_PARTS))
    assert (doc.status, doc.format, doc.reason) == ("ok", "docx", "")
    # separators and the continuation notice are no text; authors are no text
    assert doc.text == ALL_TEXT


def test_docx_versions_that_differ_only_in_a_footnote_are_two_texts(one):
    first = one("v1.docx", make_word(BODY, footnotes=[["Registry of deeds, memorial 1902/44/118."]]))
    second = one("v2.docx", make_word(BODY, footnotes=[["Oral testimony of the sexton, 1958."]]))
    assert first.text != second.text
    assert first.text.endswith("memorial 1902/44/118.") and second.text.endswith("the sexton, 1958.")


def test_docx_body_is_read_as_before_and_the_notes_follow_it(one):
    plain = one("plain.docx", make_word(BODY))
    assert plain.text == "\n".join(BODY)  # no side part: the body alone, as before
    noted = one("noted.docx", make_word(BODY, endnotes=[["An endnote."]]))
    assert noted.text == plain.text + "\n\nAn endnote."


def test_docx_side_parts_by_their_usual_names_without_relationships(one):
    doc = one("norels.docx", make_word(BODY, rels=False, **ALL_PARTS))
    assert doc.text == ALL_TEXT


def test_docx_side_parts_by_the_relationships_under_other_names(one):
    rels = (f'<?xml version="1.0"?><Relationships xmlns="{PACKAGE_RELS}">'
            f'<Relationship Id="rId1" Type="{OFFICE_RELS}/footnotes" Target="/word/notes/fn.xml"/>'
            f'<Relationship Id="rId2" Type="{OFFICE_RELS}/hyperlink" Target="http://example.org/" TargetMode="External"/>'
            "</Relationships>").encode()
    data = make_word(BODY, replace={"word/_rels/document.xml.rels": rels,
                                    "word/notes/fn.xml": _notes_part("footnote", [["Renamed footnote."]]),
                                    # a part no relationship names is not read
                                    "word/footer1.xml": _part("ftr", _paras(["Orphan footer"]))})
    assert one("renamed.docx", data).text == "\n".join(BODY) + "\n\nRenamed footnote."


def test_docx_broken_footnotes_part_does_not_fail_the_document(one):
    data = make_word(BODY, replace={"word/footnotes.xml": b"<w:footnotes xmlns:w='x'><w:footnote>"},
                     footnotes=[["lost"]], endnotes=[["Still read."]])
    doc = one("broken.docx", data)
    assert (doc.status, doc.format) == ("ok", "docx")
    assert doc.text == "\n".join(BODY) + "\n\nStill read."
    assert doc.reason.startswith("footnotes not read (corrupt DOCX: word/footnotes.xml:"), doc.reason


def test_docx_side_part_with_a_dtd_is_refused(one):
    hostile = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>'
               b'<w:comments xmlns:w="' + W.encode() + b'"><w:comment><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:comment></w:comments>')
    doc = one("hostile.docx", make_word(BODY, comments=[["x"]], replace={"word/comments.xml": hostile}))
    assert doc.status == "error" and doc.reason.startswith("refused: XML entity declarations in word/comments.xml")


def test_docx_side_parts_count_toward_the_text_limit(one):
    notes = [[f"Footnote number {n} with some words in it."] for n in range(200)]
    doc = one("long.docx", make_word(BODY, footnotes=notes), Limits(max_text_chars=1000))
    assert doc.status == "ok" and len(doc.text) == 1000
    assert doc.reason == "text truncated to 1,000 characters"


# -- RTF -------------------------------------------------------------------------------------
RTF_HEAD = (r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman\fcharset0 Times;}{\f1\fswiss\fcharset204 Arial Cyr;}}"
            r"{\info{\creatim\yr2001\mo2\dy3}}")


def make_rtf_doc(body: str, *, sections: str = "") -> bytes:
    """An RTF document as Word writes one: the header, ``sections`` (section properties
    with their headers and footers), then ``body``."""
    return (RTF_HEAD + sections + body + "}").encode("latin-1")


RTF_SECTION = (r"\sectd{\header \pard\plain Confidential: diocesan archive\par}"
               r"{\headerf \pard\plain First page heading\par}{\footer \pard\plain Registry office, page footer\par}")
RTF_BODY = (r"\pard\plain Report on the transfer of the parish registers"
            r"{\super\chftn}{\footnote \pard\plain {\super\chftn} Vestry minutes 1841-1860, volume 2, folio 14.}\par "
            r"\pard The registers came in the spring."
            r"{\*\atnid MO}{\*\atnauthor Margaret}\chatn{\*\annotation{\*\atnref 0}{\*\atndate 12345}"
            r"\pard\plain check the conservator report}"
            r"{\super\chftn}{\*\footnote\ftnalt \chftn\pard\plain Census of 1901, household return.}\par ")


def test_rtf_keeps_notes_comments_headers_and_footers_after_the_body(one):
    # two sections repeat the running header and footer; LibreOffice writes {\*\footnote
    doc = one("report.rtf", make_rtf_doc(RTF_BODY + r"\sect" + RTF_SECTION + r"\pard Last.\par ",
                                         sections=RTF_SECTION))
    assert (doc.status, doc.format, doc.reason) == ("ok", "rtf", "")
    assert doc.text == "\n".join([
        *BODY, "", "", "Last.", "",  # striprtf reads a section break as two line breaks, as before
        "Vestry minutes 1841-1860, volume 2, folio 14.", "",
        "Census of 1901, household return.", "",
        "check the conservator report", "",
        "Confidential: diocesan archive", "First page heading", "",
        "Registry office, page footer",
    ])
    assert doc.date is not None


def test_rtf_versions_that_differ_only_in_a_footnote_are_two_texts(one):
    body = r"\pard Report.{\super\chftn}{\footnote \pard\plain %s}\par "
    first = one("v1.rtf", make_rtf_doc(body % "Registry of deeds, memorial 1902/44/118."))
    second = one("v2.rtf", make_rtf_doc(body % "Oral testimony of the sexton, 1958."))
    assert first.text != second.text
    assert (first.text, second.text) == ("Report.\n\nRegistry of deeds, memorial 1902/44/118.",
                                         "Report.\n\nOral testimony of the sexton, 1958.")


def test_rtf_body_is_read_as_before_and_the_notes_follow_it(one):
    plain = one("plain.rtf", make_rtf_doc(r"\pard First line\par \pard Second line\par "))
    assert plain.text == "First line\nSecond line"
    noted = one("noted.rtf", make_rtf_doc(r"\pard First line{\footnote A note.}\par \pard Second line\par "))
    assert noted.text == plain.text + "\n\nA note."


def test_rtf_note_with_escaped_braces_and_its_own_font(one):
    # an escaped "}" does not end the note; \f1 is Cyrillic (cp1251) in the font table
    body = (r"\pard Body.{\footnote \pard\plain Braces \{kept\} and \\ a backslash"
            r" \f1 \'cf\'f0\'e8\'ec\'e5\'f0.}\par \pard After.\par ")
    doc = one("escapes.rtf", make_rtf_doc(body))
    assert doc.status == "ok", doc.reason
    assert doc.text == "Body.\nAfter.\n\nBraces {kept} and \\ a backslash Пример."


def test_rtf_binary_data_does_not_end_a_note():
    # \binN is followed by a space and N bytes of any value, braces too
    groups = rtf.side_groups(r"{\rtf1 {\footnote a{\pict\bin4 }}{x}b}{\header \\{\footnote c}}")
    assert groups["footnotes"] == [r"a{\pict\bin4 }}{x}b"]
    assert groups["header"] == [r"\\{\footnote c}"]  # a note in a header is read with it
    assert rtf.side_groups(r"{\rtf1 text \{\footnote b}")["footnotes"] == []  # "{" is text there


def test_rtf_unclosed_note_in_a_truncated_file(one):
    doc = one("cut.rtf", (RTF_HEAD + r"\pard Body.\par {\footnote \pard A note cut sh").encode())
    assert doc.status == "ok", doc.reason
    assert doc.text == "Body.\n\nA note cut sh"
