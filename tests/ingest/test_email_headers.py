"""E-mail extractors keep the threading headers of each message, whatever state they are in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.threads import MailRecord, build_threads
from ndd_desktop.ingest.extract import extract_bytes


def test_eml_headers_kept_and_decoded():
    data = (b"From: =?utf-8?q?Ren=C3=A9e?= <r@x.org>\nSubject: =?utf-8?q?R=C3=A9union?=\n"
            b"Message-ID: <m1@x.org>\nIn-Reply-To: <m0@x.org>\nReferences: <m-1@x.org>\n <m0@x.org>\n"
            b"Date: Mon, 03 Jan 2022 10:00:00 +0000\n\nHello there, the meeting is moved.\n")
    (doc,) = extract_bytes(data, "a.eml")
    assert doc.status == "ok"
    assert doc.email == {"message_id": "<m1@x.org>", "in_reply_to": "<m0@x.org>",
                         "references": "<m-1@x.org> <m0@x.org>", "subject": "Réunion",
                         "from": "Renée <r@x.org>", "date": "Mon, 03 Jan 2022 10:00:00 +0000"}


def test_malformed_and_missing_headers_do_not_fail():
    data = (b"Subject: =?bogus?q?broken?=\nMessage-ID: <<<not an id\nReferences: <a@x> <a@x> ((\n"
            b"Date: yesterday-ish\n\nBody text of a message with bad headers.\n")
    (doc,) = extract_bytes(data, "b.eml")
    assert doc.status == "ok" and doc.email is not None
    assert doc.email["message_id"].startswith("<<<") and doc.email["date"] == "yesterday-ish"
    (doc,) = extract_bytes(b"From: a@x\nSubject: hi\nTo: b@x\n\njust a body\n", "c.eml")
    assert doc.email["message_id"] == "" and doc.email["references"] == ""


def test_mbox_messages_have_headers_and_other_documents_none():
    box = (b"From a@x Mon Jan  3 10:00:00 2022\nSubject: one\nMessage-ID: <1@x>\n\nfirst body\n"
           b"From the desk of the clerk: a body line, not a separator\n\n"
           b"From b@x Mon Jan  3 11:00:00 2022\nSubject: Re: one\nIn-Reply-To: <1@x>\n\nsecond body\n")
    docs = extract_bytes(box, "box.mbox")
    messages = [d for d in docs if d.email is not None]
    assert [d.relpath for d in messages] == ["box.mbox!message-1", "box.mbox!message-2"]
    assert messages[0].email["message_id"] == "<1@x>" and "desk of the clerk" in messages[0].text
    assert messages[1].email["in_reply_to"] == "<1@x>"
    (txt,) = extract_bytes(b"plain text file", "n.txt")
    assert txt.email is None


header_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=30)
id_text = st.sampled_from(["", "<a@x>", "<b@x>", "<a@x> <b@x>", "<<", "=?utf-8?q?=C3=A9?=", "<b@x> <a@x>"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(id_text, id_text, id_text, header_text, header_text), min_size=1, max_size=8))
def test_extracted_messages_always_land_in_one_thread(items):
    """Raw messages with any headers, through the real extractor into the thread builder."""
    records = []
    for k, (mid, irt, refs, subject, body) in enumerate(items):
        raw = (f"From: a@x\r\nSubject: {subject}\r\nMessage-ID: {mid}\r\nIn-Reply-To: {irt}\r\n"
               f"References: {refs}\r\nDate: Mon, 03 Jan 2022 10:0{k % 10}:00 +0000\r\n\r\n{body or 'x'}\r\n")
        docs = [d for d in extract_bytes(raw.encode("utf-8", "surrogatepass"), f"m{k}.eml") if d.email is not None]
        assert len(docs) == 1
        h = docs[0].email
        records.append(MailRecord(k, h["message_id"], h["in_reply_to"], h["references"], h["subject"],
                                  None, docs[0].text or ""))
    threads = build_threads(records)
    assert sorted(m.key for t in threads for m in t.messages) == list(range(len(items)))


def test_a_body_without_a_charset_is_decoded_as_a_text_file_is():
    body = "Les registres de Saint-Étienne, conservés depuis 1792 à la mairie, sont complets."
    # an 8-bit Latin-1 body with a Content-Type but no charset, as old mail programs sent it
    eight_bit = (b"From: a@x.org\nSubject: registres\nMIME-Version: 1.0\nContent-Type: text/plain\n"
                 b"Content-Transfer-Encoding: 8bit\n\n" + body.encode("latin-1") + b"\n")
    # no MIME headers at all, Windows-1252 with its curly quotes
    quoted = "Die „Hafenbehörde“ prüfte die Protokolle im Frühjahr."
    no_mime = b"From: b@x.org\nSubject: Protokolle\n\n" + quoted.encode("cp1252") + b"\n"
    # a charset that the bytes are not in: the declaration is wrong, the letters are not
    polish = "Protokoły komisji przeniesiono do archiwum w zeszłym roku."
    wrong = (b"From: c@x.org\nSubject: protokoly\nContent-Type: text/plain; charset=utf-8\n\n"
             + polish.encode("cp1250") + b"\n")
    for data, text in ((eight_bit, body), (no_mime, quoted), (wrong, polish)):
        (doc,) = extract_bytes(data, "m.eml")
        assert (doc.status, doc.text) == ("ok", text)


def test_a_message_text_is_its_body_and_without_one_its_header_lines():
    (doc,) = extract_bytes(b"From: a@x.org\nSubject: hi\nDate: Mon, 03 Jan 2022 10:00:00 +0000\n\n"
                           b"Thanks, received.\n", "a.eml")
    assert doc.text == "Thanks, received."
    (doc,) = extract_bytes(b"From: a@x.org\nSubject: scans\nDate: Mon, 03 Jan 2022 10:00:00 +0000\n\n", "b.eml")
    assert doc.text == "Subject: scans\nFrom: a@x.org\nDate: Mon, 03 Jan 2022 10:00:00 +0000"


def test_a_body_line_starting_with_from_after_a_blank_line_does_not_split_a_mailbox():
    box = (b"From a@x Mon Jan  3 10:00:00 2022\nSubject: one\nMessage-ID: <1@x>\n\nfirst paragraph\n\n"
           b"From the archive's point of view this is important.\n\nlast paragraph\n\n"
           b"From - Mon Jan 03 11:00:00 2022\nSubject: two\nMessage-ID: <2@x>\n\nsecond message\n\n"
           b"From b@x\nSubject: three\nMessage-ID: <3@x>\n\nthird message, its separator without a date\n")
    docs = [d for d in extract_bytes(box, "box.mbox") if d.email is not None]
    assert [d.relpath for d in docs] == ["box.mbox!message-1", "box.mbox!message-2", "box.mbox!message-3"]
    assert docs[0].text == ("first paragraph\n\nFrom the archive's point of view this is important.\n\n"
                            "last paragraph")
    assert [d.email["subject"] for d in docs] == ["one", "two", "three"]


def _cut_in_attachment(mail: bytes, name: str, chars: int) -> bytes:
    """``mail`` cut off after ``chars`` base64 characters of the attachment ``name`` (a
    mailbox export interrupted): its last line, the parts after it and the closing
    boundary are gone."""
    start = mail.index(b"\n\n", mail.index(b'filename="%s"' % name.encode())) + 2
    end = start
    for _ in range(chars):
        end += 1
        while mail[end - 1:end] == b"\n":
            end += 1
    return mail[:end]


def test_an_attachment_cut_off_in_its_base64_is_a_corrupt_member_the_message_is_read():
    """A PDF whose base64 stops at a length of 4n+1 was stored as a text document of its
    base64 ("JVBERi0x...", status ok), and `ndd errors` said nothing had failed; at 4n+2 it
    was read as a truncated PDF, and a text attachment as the text before the cut."""
    from ingest_makers import SAMPLE, make_eml, make_pdf

    corrupt = "corrupt attachment: its base64 encoding is cut off or broken"
    pdf = make_pdf(SAMPLE * 5)
    notes = ("Minutes of the records committee, kept with the report. " * 40).encode()
    broken = (b"From: a@x.org\nSubject: Broken\nDate: Wed, 14 Mar 1962 10:00:00 +0000\nMIME-Version: 1.0\n"
              b"Content-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\nReport attached.\n"
              b"--XX\nContent-Type: application/pdf; name=letter.pdf\nContent-Transfer-Encoding: base64\n"
              b'Content-Disposition: attachment; filename="report.pdf"\n\nJVBERi0xLjQK!!!notbase64***\n--XX--\n')
    mails = [_cut_in_attachment(make_eml("Report attached.", [("report.pdf", pdf, "application/pdf")]),
                                "report.pdf", 4 * 40 + extra) for extra in (1, 2, 3)]
    mails.append(_cut_in_attachment(make_eml("Report attached.", [("report.pdf", notes, "text/plain")]),
                                    "report.pdf", 4 * 40 + 2))
    mails.append(broken)
    for mail in mails:
        docs = extract_bytes(mail, "mail.eml")
        assert [(d.relpath, d.status, d.reason) for d in docs] == [
            ("mail.eml", "ok", ""), ("mail.eml!report.pdf", "error", corrupt)], mail[-60:]
        assert docs[0].text == "Report attached." and docs[1].container == "mail.eml"
    # a picture is left out, damaged or not
    png = b"\x89PNG\r\n\x1a\n" + bytes(300)
    cut = _cut_in_attachment(make_eml("Photo attached.", [("photo.png", png, "image/png")]), "photo.png", 41)
    assert [(d.relpath, d.status, d.text) for d in extract_bytes(cut, "mail.eml")] == [("mail.eml", "ok", "Photo attached.")]
    # the same mail whole: its attachment is read
    whole = extract_bytes(make_eml("Report attached.", [("report.pdf", pdf, "application/pdf")]), "mail.eml")
    assert [(d.relpath, d.status, d.format) for d in whole] == [("mail.eml", "ok", "eml"), ("mail.eml!report.pdf", "ok", "pdf")]


def test_a_message_text_cut_off_in_its_base64_keeps_what_decodes_with_a_note():
    """The body's base64 cut at every point: the text is the original's beginning, never
    the base64 itself (at 4n+1) nor a legacy code page's reading of a character cut in two;
    a cut at a whole group of four is not known from the bytes (no note). Spaces a gateway
    left at the lines' ends are no damage."""
    import base64

    note = "message text damaged: its base64 encoding is cut off or broken (the text before the damage is read)"
    text = "Die Protokolle der Hafenbehörde wurden im Frühjahr geprüft und übergeben. " * 4
    lines = base64.encodebytes(text.encode()).decode().splitlines()
    head = ("From: a@x.org\nSubject: Protokolle\nDate: Mon, 03 Jan 2022 10:00:00 +0000\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n")
    encoded = "".join(lines)
    for cut in range(40, len(encoded)):
        body = "\n".join(encoded[i:i + 76] for i in range(0, cut, 76))
        [doc] = extract_bytes((head + body[: cut + cut // 76]).encode(), "m.eml")
        assert doc.status == "ok" and text.startswith(doc.text), (cut, doc.text[-40:])
        assert doc.reason == ("" if cut % 4 == 0 else note), cut
    padded = "".join(line + "  \n" for line in lines)
    [doc] = extract_bytes((head + padded).encode(), "m.eml")
    assert (doc.status, doc.reason, doc.text) == ("ok", "", text.strip())
