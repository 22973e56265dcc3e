"""Builders of small test files, written in the tests themselves (nothing downloaded)."""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage

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
    info = b" /Info 6 0 R" if info_date else b""
    out.write(b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objs) + 1, info, xref))
    return out.getvalue()


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


def make_odt(lines: list[str]) -> bytes:
    """An ODT with one paragraph per line (odfpy)."""
    from odf.opendocument import OpenDocumentText
    from odf.text import P

    doc = OpenDocumentText()
    for line in lines:
        doc.text.addElement(P(text=line))
    out = io.BytesIO()
    doc.write(out)
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
