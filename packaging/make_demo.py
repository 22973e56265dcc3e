"""Generate the demo collection in ``resources/demo/`` (a developer tool, not run by the app).

The generated files are committed; run this only to change the collection. It needs the
document libraries the application already depends on (python-docx, odfpy) plus fpdf2,
which is used here alone and is not a dependency of the application:

    python -m pip install fpdf2
    python packaging/make_demo.py

The output is reproducible: fixed dates inside every document and every zip container, so
running the script twice gives the same bytes and a clean ``git status``.
"""

from __future__ import annotations

import html
import io
import random
import re
import shutil
import sys
import textwrap
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import demo_texts as T  # noqa: E402  (the prose lives beside this script)

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "resources" / "demo"
FIXED_ZIP_TIME = (2022, 6, 1, 12, 0, 0)

Sections = list[tuple[str, str]]


@dataclass
class Planted:
    """One file of the collection and what the scan should make of it."""

    relpath: str
    group: str  # a group name, or "-" for a document that belongs with nothing
    note: str


PLANTED: list[Planted] = []


def plant(relpath: str, group: str, note: str) -> Path:
    """Record a file in the manifest and return its absolute path (parents created)."""
    PLANTED.append(Planted(relpath, group, note))
    path = DEMO / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


# ---------------------------------------------------------------- text shapes


def plain(title: str, sections: Sections, width: int = 72) -> str:
    """Title, then each heading and paragraph, wrapped, separated by blank lines."""
    out = [title, "=" * len(title), ""]
    for heading, para in sections:
        if heading:
            out += [heading, ""]
        out += [textwrap.fill(para, width), ""]
    return "\n".join(out)


def markdown(title: str, sections: Sections) -> str:
    """The same content as Markdown with ``#`` headings and unwrapped paragraphs."""
    out = [f"# {title}", ""]
    for heading, para in sections:
        if heading:
            out += [f"## {heading}", ""]
        out += [para, ""]
    return "\n".join(out)


def apply_edits(sections: Sections, edits: list[tuple[str, str]]) -> Sections:
    """Sections with each (old, new) replacement made exactly once somewhere."""
    result = list(sections)
    for old, new in edits:
        hits = [k for k, (_, p) in enumerate(result) if old in p]
        if len(hits) != 1:
            raise ValueError(f"edit {old!r} matches {len(hits)} sections")
        k = hits[0]
        result[k] = (result[k][0], result[k][1].replace(old, new, 1))
    return result


def ocr_noise(text: str, seed: int = 7, rate: float = 0.04) -> str:
    """Text as a poor OCR pass of a printed page would give it.

    Letter confusions in a few words, hyphenated line ends, a running head in the middle.
    """
    rng = random.Random(seed)
    confusions = [("m", "rn"), ("rn", "m"), ("l", "1"), ("e", "c"), ("h", "b"), ("i", "l"),
                  ("o", "0"), ("c", "e"), ("ll", "11"), ("d", "cl")]

    def garble(word: str) -> str:
        if len(word) < 4 or rng.random() > rate * 3:
            return word
        options = [(a, b) for a, b in confusions if a in word]
        if not options:
            return word
        a, b = rng.choice(options)
        return word.replace(a, b, 1)

    words = [garble(w) for w in re.split(r"(\s+)", text)]
    noisy = "".join(words)
    lines: list[str] = []
    for para in noisy.split("\n\n"):
        para = " ".join(para.split())
        line = ""
        for word in para.split(" "):
            if len(line) + len(word) + 1 > 62 and len(word) > 6 and rng.random() < 0.5:
                cut = len(word) // 2
                lines.append(f"{line} {word[:cut]}-".strip())
                line = word[cut:]
            elif len(line) + len(word) + 1 > 62:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines += [line, ""]
    middle = len(lines) // 2
    lines[middle:middle] = ["", "HARWICK MILL REPORT" + " " * 30 + "- 2 -", ""]
    return "\n".join(lines)


def wrap_paragraphs(paragraphs: list[str], width: int = 72) -> str:
    """Paragraphs wrapped and separated by blank lines."""
    return "\n\n".join(textwrap.fill(p, width) for p in paragraphs) + "\n"


# ---------------------------------------------------------------- file writers


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """A text file with Unix line ends."""
    path.write_bytes(text.encode(encoding))


def write_html(path: Path, title: str, sections: Sections, *, site: str) -> None:
    """A web page: the text inside navigation, a style sheet and scripts to be ignored."""
    body = []
    for heading, para in sections:
        if heading:
            body.append(f"    <h2>{html.escape(heading)}</h2>")
        body.append(f"    <p>{html.escape(para).replace('é', '&eacute;')}</p>")
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{html.escape(title)} | {site}</title>
  <style>
    body {{ font-family: Georgia, serif; max-width: 40em; margin: auto; }}
    nav a {{ margin-right: 1em; color: #1f6f78; }}
    .cookie-banner {{ position: fixed; bottom: 0; background: #eee; }}
  </style>
  <script>
    // Analytics snippet: none of these words belong to the document text.
    window.dataLayer = window.dataLayer || [];
    function trackVisitor(consent) {{ dataLayer.push({{event: "pageview", consent: consent}}); }}
  </script>
</head>
<body>
  <nav><a href="/">Home</a><a href="/news">News</a><a href="/visit">Visit</a></nav>
  <main>
    <h1>{html.escape(title)}</h1>
{chr(10).join(body)}
  </main>
  <footer>{site}. Registered charity.</footer>
  <script>trackVisitor("unknown");</script>
</body>
</html>
"""
    path.write_text(page, encoding="utf-8")


def normalise_zip(path: Path) -> None:
    """Rewrite a zip container with fixed member times, keeping order and compression."""
    with zipfile.ZipFile(path) as src:
        members = [(info, src.read(info)) for info in src.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        for info, data in members:
            fixed = zipfile.ZipInfo(info.filename, FIXED_ZIP_TIME)
            fixed.compress_type = info.compress_type
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, data)
    path.write_bytes(buf.getvalue())


def write_docx(path: Path, title: str, sections: Sections, created: datetime) -> None:
    """A Word document with a title, headings and paragraphs."""
    import docx

    doc = docx.Document()
    doc.add_heading(title, level=1)
    for heading, para in sections:
        if heading:
            doc.add_heading(heading, level=2)
        doc.add_paragraph(para)
    props = doc.core_properties
    props.author = "Harwick Heritage Trust"
    props.title = title
    props.created = props.modified = created
    props.last_modified_by = "Harwick Heritage Trust"
    props.revision = 1
    doc.save(str(path))
    normalise_zip(path)


def write_odt(path: Path, title: str, paragraphs: list[str], created: datetime) -> None:
    """An OpenDocument text with a heading and paragraphs."""
    from odf import dc, meta
    from odf.opendocument import OpenDocumentText
    from odf.text import H, P

    doc = OpenDocumentText()
    stamp = created.strftime("%Y-%m-%dT%H:%M:%S")
    doc.meta.addElement(dc.Title(text=title))
    doc.meta.addElement(meta.CreationDate(text=stamp))
    doc.meta.addElement(dc.Date(text=stamp))
    doc.text.addElement(H(outlinelevel=1, text=title))
    for para in paragraphs:
        doc.text.addElement(P(text=para))
    doc.save(str(path))
    normalise_zip(path)


def write_pdf(path: Path, title: str, sections: Sections, created: datetime) -> None:
    """A PDF with a real text layer (core fonts, so Latin-1 text only)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(created)
    pdf.set_title(title)
    pdf.set_author("Harwick Heritage Trust")
    pdf.set_creator("ndd-desktop demo generator")
    pdf.set_producer("fpdf2")
    pdf.set_margins(25, 25, 25)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 15)
    pdf.multi_cell(0, 8, title)
    pdf.ln(4)
    for heading, para in sections:
        if heading:
            pdf.set_font("Helvetica", "B", 12)
            pdf.multi_cell(0, 7, heading)
            pdf.ln(1)
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 5.5, para)
        pdf.ln(3)
    pdf.output(str(path))


def rtf_escape(text: str) -> str:
    """Text as RTF: control characters escaped, non-ASCII as \\uN? escapes."""
    out = []
    for ch in text:
        if ch in "\\{}":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\line ")
        elif ord(ch) > 127:
            code = ord(ch)
            out.append(f"\\u{code if code < 32768 else code - 65536}?")
        else:
            out.append(ch)
    return "".join(out)


def write_rtf(path: Path, title: str, paragraphs: list[str]) -> None:
    """A minimal Rich Text Format document, as an old word processor would save it."""
    parts = [
        "{\\rtf1\\ansi\\ansicpg1252\\deff0",
        "{\\fonttbl{\\f0\\froman Times New Roman;}{\\f1\\fswiss Arial;}}",
        "{\\info{\\title " + rtf_escape(title) + "}{\\author Eskdale Parish Council}}",
        "\\paperw11906\\paperh16838\\margl1440\\margr1440",
        "\\pard\\sa200\\f1\\fs28\\b " + rtf_escape(title) + "\\b0\\par",
    ]
    for para in paragraphs:
        parts.append("\\pard\\sa160\\f0\\fs24 " + rtf_escape(para) + "\\par")
    parts.append("}")
    path.write_text("\n".join(parts) + "\n", encoding="ascii")


def write_eml(path: Path, *, subject: str, sender: str, to: str, date: str, body: str,
              html_body: str | None = None, msg_id: str) -> None:
    """A single e-mail message (RFC 5322), plain text or text plus an HTML alternative."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Date"] = date
    msg["Subject"] = subject
    msg["Message-ID"] = f"<{msg_id}@eskdale.example.org>"
    msg.set_content(body)
    if html_body is not None:
        msg.add_alternative(html_body, subtype="html")
        # A fixed boundary keeps the output reproducible.
        msg.set_boundary("==ndd-demo-boundary==")
    path.write_bytes(msg.as_bytes())


# ---------------------------------------------------------------- the collection


def build() -> None:
    """Write every file of the collection and its README."""
    if DEMO.exists():
        shutil.rmtree(DEMO)
    DEMO.mkdir(parents=True)
    utc = timezone.utc

    # Group "mill": one report in seven copies, from exact to noisy.
    mill_txt = plain(T.MILL_TITLE, T.MILL)
    write_text(plant("holdings/harwick-mill-report.txt", "mill",
                     "the report as kept in the holdings (reference copy)"), mill_txt)
    write_text(plant("incoming/reports/harwick-mill-report-copy.txt", "mill",
                     "byte-for-byte copy of the holdings file (exact duplicate)"), mill_txt)
    draft2 = apply_edits(T.MILL, T.MILL_DRAFT2_EDITS)
    write_text(plant("incoming/reports/harwick-mill-report-draft2.md", "mill",
                     "second draft: six small edits, Markdown headings"),
               markdown(T.MILL_TITLE, draft2))
    write_docx(plant("incoming/reports/Harwick Mill Report.docx", "mill",
                     "Word version of the report (space in the file name)"),
               T.MILL_TITLE, T.MILL, datetime(2022, 3, 1, 9, 30, tzinfo=utc))
    write_pdf(plant("incoming/reports/harwick-mill-report.pdf", "mill",
                    "PDF with a text layer, same text"),
              T.MILL_TITLE, T.MILL, datetime(2022, 3, 2, 14, 0, tzinfo=utc))
    write_html(plant("incoming/web/harwick-mill.html", "mill",
                     "web page: the report inside navigation, style sheet and scripts"),
               T.MILL_TITLE, T.MILL, site="Harwick Heritage Trust")
    write_text(plant("incoming/scans/mill_report_ocr.txt", "mill",
                     "OCR of a printout: letter confusions, hyphenation, running head"),
               ocr_noise(mill_txt))
    findings = dict(T.MILL)["Findings"]
    write_text(plant("incoming/scans/mill-findings-extract.txt", "mill-extract",
                     "one section of the report: high containment, low resemblance"),
               "Extract from the Harwick Mill report, filed with the finds register.\n\n"
               + textwrap.fill(findings, 72) + "\n")

    # Group "minutes": the same minutes from three programs.
    write_odt(plant("incoming/minutes/council-minutes-1998-04.odt", "minutes",
                    "the clerk's minutes (OpenDocument)"),
              T.MINUTES_TITLE, T.MINUTES, datetime(1998, 4, 15, 10, 0))
    write_rtf(plant("incoming/minutes/council-minutes-1998-04-signed.rtf", "minutes",
                    "the signed copy (RTF), with a signature line added"),
              T.MINUTES_TITLE, T.MINUTES + ["Signed ............................ Chair     "
                                            "Date 12 May 1998"])
    fwd_minutes = (
        "Dear all,\n\nAnne asked me to pass these on before the May meeting. Item 6 will "
        "interest the mill group.\n\nBest wishes,\nSam\n\n"
        "---------- Forwarded message ---------\n"
        "From: Anne Lund <clerk@eskdale.example.org>\n"
        "Date: Thu, 16 Apr 1998 09:12:00 +0100\n"
        "Subject: April minutes\n"
        "To: councillors@eskdale.example.org\n\n"
        + T.MINUTES_TITLE + "\n\n" + wrap_paragraphs(T.MINUTES)
    )
    write_eml(plant("incoming/mail/fwd-april-minutes.eml", "minutes",
                    "forwarded e-mail: a note on top, the minutes in the body"),
              subject="Fwd: April minutes", sender="Sam Ainsley <sam@eskdale.example.org>",
              to="mill-group@eskdale.example.org", date="Fri, 17 Apr 1998 18:40:00 +0100",
              body=fwd_minutes, msg_id="fwd-minutes-1998")

    # Group "flood": a warning by e-mail, forwarded, and the notice kept in the holdings.
    flood_body = wrap_paragraphs(T.FLOOD) + "\n" + T.FLOOD_SIGNATURE + "\n"
    write_eml(plant("incoming/mail/flood-warning.eml", "flood", "the warning as sent (plain text)"),
              subject=T.FLOOD_SUBJECT, sender="Eskdale Flood Group <flood@eskdale.example.org>",
              to="residents@eskdale.example.org", date="Thu, 28 Oct 2021 15:05:00 +0100",
              body=flood_body, msg_id="flood-2021-10-28")
    fwd_text = ("Forwarding from the flood group, please share with your street.\nJ.\n\n"
                "-------- Original Message --------\n"
                f"Subject: {T.FLOOD_SUBJECT}\nDate: Thu, 28 Oct 2021 15:05:00 +0100\n"
                "From: Eskdale Flood Group <flood@eskdale.example.org>\n\n" + flood_body)
    fwd_html = ("<html><body><p>Forwarding from the flood group, please share with your "
                "street.<br>J.</p><blockquote>"
                + "".join(f"<p>{html.escape(p)}</p>" for p in T.FLOOD)
                + "<p>Eskdale Flood Group<br>Warden on call: 01947 000 117</p>"
                "</blockquote></body></html>\n")
    write_eml(plant("incoming/mail/fwd-flood-warning.eml", "flood",
                    "forwarded with a note; text and HTML alternatives"),
              subject=f"Fwd: {T.FLOOD_SUBJECT}",
              sender="Jean Haworth <jean@eskdale.example.org>",
              to="church-row@eskdale.example.org", date="Thu, 28 Oct 2021 16:22:00 +0100",
              body=fwd_text, html_body=fwd_html, msg_id="fwd-flood-2021-10-28")
    write_text(plant("holdings/flood-warning-2021-10.txt", "flood",
                     "the notice as filed: heading added, lines wrapped at 60"),
               "FLOOD WARNING - ESK VALLEY - 28/29 OCTOBER 2021\n\n"
               + wrap_paragraphs(T.FLOOD, 60))

    # Group "letter": a 1952 letter in an old encoding, and a later transcription in a zip.
    letter = "\n\n".join(T.LETTER_1952) + "\n"
    write_text(plant("holdings/letter-to-editor-1952.txt", "letter",
                     "Windows-1252 text (pound sign, e acute): needs encoding detection"),
               "Whitby Gazette, 14 March 1952\n\n" + letter, encoding="cp1252")
    transcribed = letter
    for old, new in T.LETTER_TRANSCRIPTION_EDITS:
        transcribed = transcribed.replace(old, new)
    zip_path = plant("incoming/misc/transcriptions.zip", "letter",
                     "zip archive; its member letters/marwood-1952.txt is the duplicate")
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in [
            ("letters/marwood-1952.txt", "Letter to the editor, 1952 (transcribed)\n\n"
             + transcribed),
            ("letters/README.txt", "Transcriptions made by the local history group. "
             "Spelling has been modernised where the original was unclear.\n"),
        ]:
            info = zipfile.ZipInfo(name, FIXED_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data.encode("utf-8"))

    # Related but not duplicates: two annual reports written from one template.
    for year, middle in (("2019", T.LIBRARY_2019), ("2020", T.LIBRARY_2020)):
        text = (f"Friends of the Reading Room: annual report {year}\n\n"
                + wrap_paragraphs([T.LIBRARY_INTRO] + middle + [T.LIBRARY_CLOSING]))
        write_text(plant(f"incoming/reports/reading-room-annual-{year}.txt", "-",
                         "same template as the other year: related, not a duplicate"), text)

    # Unrelated documents, one per format.
    write_text(plant("incoming/misc/oat-biscuits.txt", "-", "recipe"),
               T.RECIPE_TITLE + "\n\n" + wrap_paragraphs(T.RECIPE))
    write_odt(plant("incoming/misc/lost-bicycle.odt", "-", "letter (OpenDocument)"),
              "Lost bicycle", T.BICYCLE_LETTER, datetime(2019, 9, 23, 20, 15))
    write_text(plant("incoming/misc/hedgerow-survey.md", "-", "field notes (Markdown)"),
               f"# {T.HEDGEROW_TITLE}\n\n" + "\n\n".join(T.HEDGEROW) + "\n")
    write_html(plant("incoming/web/reading-room-hours.html", "-", "web page"),
               T.HOURS_TITLE, [("", p) for p in T.HOURS], site="Eskdale Reading Room")
    write_rtf(plant("incoming/misc/photographs-box7.rtf", "-", "catalogue list (RTF)"),
              T.PHOTO_TITLE, T.PHOTOS)
    write_pdf(plant("holdings/bell-tower-history.pdf", "-", "PDF in the holdings"),
              T.BELL_TITLE, [("", p) for p in T.BELL], datetime(2016, 5, 4, 11, 0, tzinfo=utc))

    write_readme()


README_HEAD = """\
# Demo collection

A small invented archive for trying ndd-desktop: {count} documents in {formats} formats, with
near-duplicates planted on purpose. It is generated by `packaging/make_demo.py`; edit that
script, not these files. Treat the folder as read-only, as the application does: keep the
scan's database elsewhere.

Two folders, scanned together:

- `incoming/`: a new accession to be checked, in sub-folders by kind;
- `holdings/`: the existing holdings, to be scanned as a *reference* folder: compared with
  the incoming documents but not within itself, and the keeper of any group that reaches
  into it.

    ndd scan resources/demo/incoming --reference resources/demo/holdings --db demo.ndd.sqlite
    ndd clusters --db demo.ndd.sqlite

(`ndd_desktop.resources.demo_roots()` gives the two folders with their roles.) A scan of
the whole `demo/` folder as one also works; it then reads this README as one more
document, in no group.

## What a scan should find

Groups at the default threshold (resemblance):

- **mill**: one report in seven files: the holdings original, an exact copy, a second
  draft, Word, PDF, a web page with navigation and scripts, and an OCR'd printout.
- **minutes**: parish council minutes as OpenDocument, RTF (signed copy) and a forwarded
  e-mail.
- **flood**: a flood warning e-mail, its forward (text and HTML), and the notice filed in
  the holdings.
- **letter**: a 1952 letter in Windows-1252 and its later transcription inside a zip
  archive (the member `incoming/misc/transcriptions.zip!letters/marwood-1952.txt`; the archive's
  other member, `letters/README.txt`, belongs to no group).

Only with the *containment* measure (`--set measure=containment`, threshold 0.5):

- **mill-extract** joins **mill**: a single section of the report.
- the two reading-room annual reports form a group of their own (each holds ~0.57 of the
  other: the shared template).

In no group (`-`) with the defaults: the two reading-room annual reports share a template
(introduction and closing), which gives them a resemblance of about 0.55 by the default
method (character 4-grams): below the default threshold 0.7, above the lowest ones. The
rest are unrelated. A scan counts 25 documents: the zip archive is a file of two members.

## Files

| group | file | what it is |
| --- | --- | --- |
"""


def write_readme() -> None:
    """The manifest: a Markdown table, one row per planted file (tests parse it)."""
    formats = {Path(p.relpath).suffix for p in PLANTED}
    lines = [README_HEAD.format(count=len(PLANTED), formats=len(formats))]
    for p in sorted(PLANTED, key=lambda p: (p.group == "-", p.group, p.relpath)):
        lines.append(f"| {p.group} | `{p.relpath}` | {p.note} |\n")
    (DEMO / "README.md").write_text("".join(lines), encoding="utf-8")


def main() -> int:
    """Build the collection and print its size."""
    build()
    total = sum(f.stat().st_size for f in DEMO.rglob("*") if f.is_file())
    print(f"{len(PLANTED)} documents + README in {DEMO.relative_to(ROOT)}: {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
