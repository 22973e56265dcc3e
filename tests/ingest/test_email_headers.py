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
