"""Builders of small test files, written in the tests themselves (nothing downloaded)."""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage

#: An XML part declaring nested entities (billion laughs), to put inside office packages.
LAUGHS_ENTITY_PART = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                      b"<x>&b;</x>")

SAMPLE = [
    "The Quick Brown Fox",
    "Archival transfers often contain near-duplicate documents: drafts, copies and versions.",
    "Each copy differs a little from the others, but the text is largely the same.",
]


def make_pdf(lines: list[str] | None, *, info_date: str | None = None) -> bytes:
    """A minimal valid PDF with one page showing ``lines`` (None: a page without text)."""
    if lines:
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td"]
        for line in lines:
            esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({esc}) Tj T*")
        ops.append("ET")
    else:
        ops = ["0 0 1 rg", "72 72 200 200 re f"]  # a filled square: no text at all
    stream = "\n".join(ops).encode("latin-1")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    if info_date:
        objs.append(f"<< /CreationDate (D:{info_date}) /Title (t) >>".encode())
    return pdf_file(objs, info=len(objs) if info_date else None)


def pdf_file(objs: list[bytes], info: int | None = None) -> bytes:
    """A PDF of the objects ``objs`` (numbered from 1, the catalog first), with its cross
    reference table and trailer; ``info``: the number of the info dictionary, if any."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objs, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    tail = b" /Info %d 0 R" % info if info else b""
    out.write(b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, tail, xref))
    return out.getvalue()


def make_form_pdf(labels: list[str], values: list[str]) -> bytes:
    """A one-page PDF form: ``labels`` in the page's text, each with a filled text field
    whose value (``values``) is drawn by the field's own appearance, as form tools write it."""
    page_ops = ["BT", "/F1 12 Tf"] + [f"72 {720 - 40 * k} Td ({label}) Tj 0 0 Td -72 {-(720 - 40 * k)} Td"
                                       for k, label in enumerate(labels)] + ["ET"]
    page_stream = "\n".join(page_ops).encode("latin-1")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] /DR << /Font << /F1 5 0 R >> >> >> >>"
        % " ".join(f"{6 + 2 * k} 0 R" for k in range(len(values))).encode(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> /Annots [%s] >>"
        % " ".join(f"{6 + 2 * k} 0 R" for k in range(len(values))).encode(),
        b"<< /Length %d >>\nstream\n" % len(page_stream) + page_stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for k, value in enumerate(values):
        y = 720 - 40 * k
        ap = f"/Tx BMC BT /F1 12 Tf 2 4 Td ({value}) Tj ET EMC".encode("latin-1")
        objs.append(b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (field%d) /V (%s) /Rect [250 %d 560 %d] "
                    b"/P 3 0 R /DA (/F1 12 Tf 0 g) /AP << /N %d 0 R >> >>"
                    % (k, value.encode("latin-1"), y - 4, y + 16, 7 + 2 * k))
        objs.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 310 20] /Resources << /Font << /F1 5 0 R >> >> "
                    b"/Length %d >>\nstream\n" % len(ap) + ap + b"\nendstream")
    return pdf_file(objs)


def make_encrypted_pdf(lines: list[str], password: str = "secret") -> bytes:
    """A PDF encrypted with a user password (AES-256 through pypdf)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(lines))))
    writer.encrypt(user_password=password, owner_password="owner", algorithm="AES-256")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def make_docx(lines: list[str]) -> bytes:
    """A DOCX with one paragraph per line (python-docx)."""
    import docx

    document = docx.Document()
    for line in lines:
        document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
          'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
          'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
          'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3"')


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def make_odf(kind: str, body: str, *, styles: str | None = None, created: str = "2003-04-05T06:07:08") -> bytes:
    """An OpenDocument package (kind "text", "presentation" or "spreadsheet") whose
    office:body holds ``body``, written member by member as the ODF standard lays it out."""
    mime = f"application/vnd.oasis.opendocument.{kind}"
    content = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {ODF_NS}>'
               f"<office:body><office:{kind}>{body}</office:{kind}></office:body></office:document-content>")
    styles = styles or (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {ODF_NS}>'
                        "<office:styles/></office:document-styles>")
    meta = (f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta {ODF_NS}><office:meta>'
            f"<meta:creation-date>{created}</meta:creation-date></office:meta></office:document-meta>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{mime}"/>'
                + "".join(f'<manifest:file-entry manifest:full-path="{n}" manifest:media-type="text/xml"/>'
                          for n in ("content.xml", "styles.xml", "meta.xml"))
                + "</manifest:manifest>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), mime, compress_type=zipfile.ZIP_STORED)
        for name, data in (("content.xml", content), ("styles.xml", styles), ("meta.xml", meta),
                           ("META-INF/manifest.xml", manifest)):
            zf.writestr(name, data.encode("utf-8"))
    return out.getvalue()


def make_odt(lines: list[str], **kw) -> bytes:
    """An ODT with one paragraph per line."""
    return make_odf("text", "".join(f"<text:p>{_esc(line)}</text:p>" for line in lines), **kw)


def make_odp(slides: list[list[str]], notes: list[list[str]] | None = None) -> bytes:
    """An ODP with one slide per list, one text box paragraph per line; ``notes``: each
    slide's speaker notes, on its notes page with the slide-number placeholder LibreOffice
    writes there."""
    def notes_page(lines: list[str]) -> str:
        if not lines:
            return ""
        return ('<presentation:notes><draw:frame presentation:class="notes"><draw:text-box>'
                + "".join(f"<text:p>{_esc(line)}</text:p>" for line in lines)
                + '</draw:text-box></draw:frame><draw:frame presentation:class="page-number"><draw:text-box>'
                '<text:p><text:page-number>&lt;number&gt;</text:page-number></text:p></draw:text-box>'
                "</draw:frame></presentation:notes>")

    notes = notes or [[] for _ in slides]
    pages = "".join(
        f'<draw:page draw:name="s{i}"><draw:frame><draw:text-box>'
        + "".join(f"<text:p>{_esc(line)}</text:p>" for line in lines)
        + "</draw:text-box></draw:frame>" + notes_page(notes[i - 1]) + "</draw:page>"
        for i, lines in enumerate(slides, 1))
    return make_odf("presentation", pages)


def make_ods(sheets: dict[str, list[list[str]]]) -> bytes:
    """An ODS with the given sheets of string cells."""
    body = "".join(
        f'<table:table table:name="{_esc(name)}">'
        + "".join("<table:table-row>" + "".join(
            f'<table:table-cell office:value-type="string"><text:p>{_esc(c)}</text:p></table:table-cell>'
            for c in row) + "</table:table-row>" for row in rows)
        + "</table:table>" for name, rows in sheets.items())
    return make_odf("spreadsheet", body)


def _col(n: int) -> str:
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(65 + r) + letters
    return letters


def make_xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    """An XLSX workbook (SpreadsheetML written by hand): strings inline, numbers as numbers,
    a string starting with "=" as a formula stored without its value (as openpyxl writes it)."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    names = list(sheets)
    types = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
             + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                       for i in range(1, len(names) + 1)) + "</Types>")
    root_rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                 f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    workbook = (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
                + "".join(f'<sheet name="{_esc(n)}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(names, 1))
                + "</sheets></workbook>")
    wb_rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
               + "".join(f'<Relationship Id="rId{i}" Type="{rel}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                         for i in range(1, len(names) + 1)) + "</Relationships>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", types)
        zf.writestr("_rels/.rels", root_rels)
        zf.writestr("xl/workbook.xml", workbook)
        zf.writestr("xl/_rels/workbook.xml.rels", wb_rels)
        for i, name in enumerate(names, 1):
            rows = []
            for r, row in enumerate(sheets[name], 1):
                cells = []
                for c, value in enumerate(row):
                    ref = f"{_col(c)}{r}"
                    if isinstance(value, (int, float)):
                        cells.append(f'<c r="{ref}"><v>{value}</v></c>')
                    elif isinstance(value, str) and value.startswith("="):  # a formula, no value saved
                        cells.append(f'<c r="{ref}"><f>{_esc(value[1:])}</f></c>')
                    elif value:
                        cells.append(f'<c r="{ref}" t="inlineStr"><is><t>{_esc(str(value))}</t></is></c>')
                rows.append(f'<row r="{r}">{"".join(cells)}</row>')
            zf.writestr(f"xl/worksheets/sheet{i}.xml",
                        f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{main}"><sheetData>'
                        + "".join(rows) + "</sheetData></worksheet>")
    return out.getvalue()


def make_pptx(slides: list[list[str]], *, order: list[int] | None = None,
              notes: list[list[str]] | None = None) -> bytes:
    """A PPTX (PresentationML written by hand): slide i holds one paragraph per line.
    ``order`` lists the slide parts' numbers in presentation order (default 1..n);
    ``notes``: each slide's speaker notes, on a notes page with a slide-number placeholder."""
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    p = "http://schemas.openxmlformats.org/presentationml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    order = order or list(range(1, len(slides) + 1))
    pres = (f'<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="{p}" xmlns:r="{rel}"><p:sldIdLst>'
            + "".join(f'<p:sldId id="{255 + k}" r:id="rId{n}"/>' for k, n in enumerate(order, 1))
            + "</p:sldIdLst></p:presentation>")
    rels = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(f'<Relationship Id="rId{n}" Type="{rel}/slide" Target="slides/slide{n}.xml"/>'
                      for n in range(1, len(slides) + 1)) + "</Relationships>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        zf.writestr("ppt/presentation.xml", pres)
        zf.writestr("ppt/_rels/presentation.xml.rels", rels)
        for n, lines in enumerate(slides, 1):
            paras = "".join(f"<a:p><a:r><a:t>{_esc(line)}</a:t></a:r></a:p>" for line in lines)
            zf.writestr(f"ppt/slides/slide{n}.xml",
                        f'<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="{p}" xmlns:a="{a}"><p:cSld><p:spTree>'
                        f"<p:sp><p:txBody><a:bodyPr/>{paras}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>")
            if notes and notes[n - 1]:
                zf.writestr(f"ppt/slides/_rels/slide{n}.xml.rels",
                            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                            f'package/2006/relationships"><Relationship Id="rId2" Type="{rel}/notesSlide" '
                            f'Target="../notesSlides/notesSlide{n}.xml"/></Relationships>')
                body = "".join(f"<a:p><a:r><a:t>{_esc(line)}</a:t></a:r></a:p>" for line in notes[n - 1])
                zf.writestr(f"ppt/notesSlides/notesSlide{n}.xml",
                            f'<?xml version="1.0" encoding="UTF-8"?><p:notes xmlns:p="{p}" xmlns:a="{a}"><p:cSld>'
                            '<p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr/><p:nvPr>'
                            '<p:ph type="sldImg"/></p:nvPr></p:nvSpPr></p:sp>'
                            '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" '
                            f'idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/>{body}</p:txBody></p:sp>'
                            '<p:sp><p:nvSpPr><p:cNvPr id="4" name="Slide Number"/><p:cNvSpPr/><p:nvPr><p:ph '
                            'type="sldNum" idx="5"/></p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:fld '
                            f'type="slidenum"><a:t>{n}</a:t></a:fld></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>')
    return out.getvalue()


def make_epub(chapters: list[list[str]], *, spine: list[int] | None = None) -> bytes:
    """An EPUB 3 book: chapter i is an XHTML file of paragraphs; ``spine`` gives the reading
    order as chapter numbers (default 1..n)."""
    spine = spine or list(range(1, len(chapters) + 1))
    opf = ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
           'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
           "<dc:identifier id=\"id\">x</dc:identifier><dc:title>Book</dc:title><dc:date>2004-05-06T07:08:09Z</dc:date>"
           "</metadata><manifest>"
           + "".join(f'<item id="c{n}" href="text/ch%20{n}.xhtml" media-type="application/xhtml+xml"/>'
                     for n in range(1, len(chapters) + 1))
           + '<item id="css" href="style.css" media-type="text/css"/></manifest><spine>'
           + "".join(f'<itemref idref="c{n}"/>' for n in spine) + "</spine></package>")
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 '<rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
                 "</rootfiles></container>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        zf.writestr("META-INF/container.xml", container)
        zf.writestr("OEBPS/book.opf", opf)
        zf.writestr("OEBPS/style.css", "p { color: red }")
        for n, lines in enumerate(chapters, 1):
            zf.writestr(f"OEBPS/text/ch {n}.xhtml",
                        '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'
                        "<head><title>Chapter</title></head><body>"
                        + "".join(f"<p>{_esc(line)}</p>" for line in lines) + "</body></html>")
    return out.getvalue()


def make_tar(members: dict[str, bytes], mode: str = "w") -> bytes:
    """A tar archive (mode "w", "w:gz", "w:bz2", "w:xz") of the given regular files."""
    import tarfile

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as tf:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1_100_000_000
            tf.addfile(info, io.BytesIO(data))
    return out.getvalue()


def make_7z(members: dict[str, bytes], password: str | None = None, *, encrypt_names: bool = False) -> bytes:
    """A 7z archive (py7zr) of the given files, optionally encrypted."""
    import py7zr

    out = io.BytesIO()
    with py7zr.SevenZipFile(out, "w", password=password, header_encryption=encrypt_names) as z:
        for name, data in members.items():
            z.writestr(data, name)
    return out.getvalue()


def text_image(lines: list[str], *, size: int = 40) -> "object":
    """A white picture (Pillow) with ``lines`` drawn in black DejaVu Sans (fonts-dejavu-core)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", size)
    width = max(int(font.getlength(line)) for line in lines) + 2 * size
    image = Image.new("L", (width, (len(lines) + 1) * int(size * 1.5)), 255)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((size, size // 2 + i * int(size * 1.5)), line, font=font, fill=0)
    return image


def image_bytes(image, fmt: str, **kw) -> bytes:
    """A Pillow picture saved as ``fmt`` ("PNG", "JPEG", "TIFF", "PDF")."""
    out = io.BytesIO()
    image.save(out, fmt, **kw)
    return out.getvalue()


def make_html(lines: list[str]) -> bytes:
    """An HTML page with a heading, paragraphs, a script and a style block."""
    body = f"<h1>{lines[0]}</h1>\n" + "\n".join(f"<p>{line}</p>" for line in lines[1:])
    return (
        "<!DOCTYPE html><html><head><title>Ignored title</title>"
        "<style>p { color: red }</style><script>var hidden = 'script text';</script></head>"
        f"<body>{body}<noscript>no script text</noscript></body></html>"
    ).encode("utf-8")


def make_rtf(lines: list[str]) -> bytes:
    """An RTF document with one paragraph per line."""
    body = "".join(line.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}") + "\\par\n"
                   for line in lines)
    return ("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}"
            "{\\info{\\creatim\\yr2001\\mo2\\dy3\\hr4\\min5}}\\f0 " + body + "}").encode("latin-1")


def make_eml(body: str, attachments: list[tuple[str, bytes, str]] = (), *,
             subject: str = "Quarterly report", date: str = "Tue, 01 Feb 2005 10:00:00 +0000") -> bytes:
    """An e-mail with a plain body and (filename, bytes, mime type) attachments."""
    msg = EmailMessage()
    msg["From"] = "Ada Archivist <ada@example.org>"
    msg["To"] = "bob@example.org"
    msg["Subject"] = subject
    msg["Date"] = date
    msg.set_content(body)
    for name, data, mime in attachments:
        maintype, subtype = mime.split("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return msg.as_bytes()


def make_zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A ZIP archive of the given members."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out.getvalue()


def replace_zip_member(package: bytes, name: str, data: bytes) -> bytes:
    """A copy of a ZIP package (DOCX/ODT) with one member's bytes replaced."""
    src = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, data if info.filename == name else src.read(info))
    return out.getvalue()


def add_zip_member(package: bytes, name: str, data: bytes) -> bytes:
    """A copy of a ZIP package with one more member."""
    out = io.BytesIO(package)
    with zipfile.ZipFile(out, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, data)
    return out.getvalue()


def make_cfb(streams: dict[str, bytes]) -> bytes:
    """An OLE2 compound file (version 3, 512-byte sectors) holding the given streams, each
    padded by the caller to at least 4096 bytes so none goes to the mini stream."""
    import struct

    end, free, fat_mark, nostream = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF
    sectors: list[bytes] = []
    fat: list[int] = []
    starts = []
    for data in streams.values():
        assert len(data) >= 4096, "streams under 4096 bytes belong in the mini stream"
        n = -(-len(data) // 512)
        first = len(sectors)
        starts.append(first)
        for k in range(n):
            sectors.append(data[k * 512:(k + 1) * 512].ljust(512, b"\0"))
            fat.append(first + k + 1 if k < n - 1 else end)

    def entry(name: str, kind: int, child: int, start: int, size: int, right: int = nostream) -> bytes:
        raw = name.encode("utf-16-le") + b"\0\0"
        return (raw.ljust(64, b"\0") + struct.pack("<HBB", len(raw), kind, 1)
                + struct.pack("<III", nostream, right, child) + bytes(16) + bytes(4) + bytes(16)
                + struct.pack("<IQ", start, size))

    names = list(streams)
    entries = [entry("Root Entry", 5, 1 if names else nostream, end, 0)]
    for i, name in enumerate(names):  # a right-leaning chain: a valid (if unbalanced) tree
        entries.append(entry(name, 2, nostream, starts[i], len(streams[name]),
                             right=i + 2 if i + 1 < len(names) else nostream))
    while len(entries) % 4:
        entries.append(bytes(64) + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", nostream, nostream, nostream)
                       + bytes(48))
    directory_start = len(sectors)
    for k in range(0, len(entries), 4):
        sectors.append(b"".join(entries[k:k + 4]))
        fat.append(len(sectors) if k + 4 < len(entries) else end)
    fat_sector = len(sectors)
    fat.append(fat_mark)
    assert len(fat) <= 128, "one FAT sector is enough for test files"
    sectors.append(struct.pack("<128I", *(fat + [free] * (128 - len(fat)))))
    header = (bytes.fromhex("D0CF11E0A1B11AE1") + bytes(16) + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
              + bytes(6) + struct.pack("<IIIIIIIII", 0, 1, directory_start, 0, 4096, end, 0, end, 0)
              + struct.pack("<109I", fat_sector, *([free] * 108)))
    return header + b"".join(sectors)


def make_ppt_in_text_boxes(slides: list[list[str]]) -> bytes:
    """A PowerPoint 97-2003 file whose text is only in the shapes' client text boxes of each
    slide's drawing (as LibreOffice saves a deck), with a main master holding a prompt: no
    text in the slide list, where catppt looks."""
    import struct

    def record(ver_inst: int, kind: int, body: bytes) -> bytes:
        return struct.pack("<HHI", ver_inst, kind, len(body)) + body

    def text_box(line: str) -> bytes:  # SpContainer > ClientTextbox > TextHeader + TextChars
        return record(0x000F, 0xF004, record(0x000F, 0xF00D, record(0, 3999, struct.pack("<I", 4))
                                                 + record(0, 4000, line.encode("utf-16-le"))))

    master = record(0x000F, 0x03F8, record(0, 4000, "Click to edit Master title style".encode("utf-16-le")))
    shown = b"".join(record(0x000F, 0x03EE, record(0x000F, 0x040C, record(0x000F, 0xF002, b"".join(
        text_box(line) for line in lines)))) for lines in slides)
    document = record(0x000F, 1000, record(0x000F, 4080, b"")) + master + shown
    padding = max(0, 4096 - len(document) - 8)
    return make_cfb({"PowerPoint Document": document + record(0, 0x0FFE, bytes(padding))})


def make_ppt(slides: list[list[str]]) -> bytes:
    """A PowerPoint 97-2003 file: a Document container whose SlideListWithText holds one
    TextHeader and TextChars atom per line (the records catppt reads), in a compound file."""
    import struct

    def record(ver_inst: int, kind: int, body: bytes) -> bytes:
        return struct.pack("<HHI", ver_inst, kind, len(body)) + body

    atoms = b"".join(record(0, 3999, struct.pack("<I", 0 if i == 0 else 1)) + record(0, 4000, line.encode("utf-16-le"))
                     for lines in slides for i, line in enumerate(lines))
    document = record(0x000F, 1000, record(0x000F, 4080, atoms))
    padding = max(0, 4096 - len(document) - 8)
    stream = document + record(0, 0x0FFE, bytes(padding))  # an atom of no meaning, for the size
    return make_cfb({"PowerPoint Document": stream})
