"""Bad input never stops a scan: one test per hostile case, each with its reason."""

from __future__ import annotations

import os
import struct
import time
import zipfile

import pytest

from ingest_makers import (
    SAMPLE, add_zip_member, make_docx, make_encrypted_pdf, make_odt, make_pdf, make_zip,
    replace_zip_member,
)
from ndd_desktop.ingest import Limits
from ndd_desktop.ingest.formats import html
from ndd_desktop.ingest.limits import MB

LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
          + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                     for i in range(1, 10))
          + b']>\n<lolz>&lol9;</lolz>\n')


def xxe(secret_path) -> bytes:
    return (b'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY leak SYSTEM "file://%s">]>\n'
            b"<r><t>before &leak; after</t></r>" % os.fsencode(secret_path))


def test_empty_file(one):
    doc = one("empty.txt", b"")
    assert (doc.status, doc.reason, doc.text) == ("skipped", "empty file", None)
    assert doc.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_binary_content_behind_a_text_extension(one):
    doc = one("notes.txt", os.urandom(4096) + bytes(100))
    assert (doc.status, doc.reason) == ("skipped", "binary content (not text)")


def test_binary_content_is_of_the_format_its_name_says_or_unknown(one):
    # random bytes named .bin were recorded as "txt", the detection's last guess
    import random

    data = bytes(random.Random(2).randrange(256) for _ in range(3000))
    assert (one("b1.bin", data).status, one("b1.bin", data).format) == ("skipped", "unknown")
    assert one("noname", data).format == "unknown"
    assert one("said.txt", data).format == "txt"  # a text file by its name, binary inside


def test_mostly_nul_bytes_is_binary(one):
    doc = one("nul.txt", b"\x00" * 500 + b"abc" + b"\x00" * 500)
    assert (doc.status, doc.reason) == ("skipped", "binary content (not text)")


def test_few_nul_bytes_in_text_are_removed_with_a_note(one):
    text = "A line of ordinary text that was padded by a crashed editor. " * 20
    doc = one("padded.txt", text.encode() + b"\x00\x00")
    assert (doc.status, doc.reason) == ("ok", "removed 2 NUL bytes")
    assert doc.text == text


def test_utf16_with_bom(one):
    text = "Zürich, Łódź, Ελλάδα — UTF-16 text.\n"
    doc = one("u16.txt", text.encode("utf-16"))
    assert (doc.status, doc.text) == ("ok", text)


def test_utf16_without_bom(one):
    text = "Plain words stored as UTF-16 little endian without a mark.\n"
    doc = one("u16le.txt", text.encode("utf-16-le"))
    assert (doc.status, doc.text) == ("ok", text)


@pytest.mark.parametrize("order", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_in_scripts_with_few_zero_bytes(one, order):
    # Cyrillic, Arabic, Greek and Hebrew have a script byte (0x04, 0x06, ...) where Latin
    # text has a zero; Chinese and Japanese have neither: all were "binary content"
    for name, text in [("ru", "Городской архив закрывает читальный зал.\nВторая строка.\n"),
                       ("ar", "يغلق الأرشيف البلدي قاعة القراءة يوم الاثنين.\n"),
                       ("el", "Το δημοτικό αρχείο θα κλείσει το αναγνωστήριο.\n"),
                       ("he", "הארכיון העירוני יסגור את אולם הקריאה.\n"),
                       ("zh", "市档案馆将于三月第一个星期一关闭阅览室。\n进行年度盘点。\n"),
                       ("ja", "市の公文書館は、三月の第一月曜日に閲覧室を閉鎖します。")]:
        doc = one(f"{name}.txt", (text * 3).encode(order))
        assert (doc.status, doc.text) == ("ok", text * 3), (name, doc.reason)


def test_binary_content_is_not_taken_for_utf16(one):
    import random

    rng = random.Random(3)
    for k in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.choice([64, 700, 5000])))
        doc = one(f"noise{k}.txt", data)
        assert (doc.status, doc.reason) == ("skipped", "binary content (not text)"), k


@pytest.mark.parametrize("encoding", ["iso2022_jp", "iso2022_kr"])
def test_iso2022_text(one, encoding):
    # 7-bit with escape sequences: UTF-8 decoded it and stored "\x1b$B;T$N..."
    text = {"iso2022_jp": "市の公文書館は閲覧室を閉鎖します。\n", "iso2022_kr": "시립 기록관은 열람실을 닫습니다.\n"}[encoding]
    doc = one(f"{encoding}.txt", (text * 2).encode(encoding))
    assert (doc.status, doc.text) == ("ok", text * 2)


def test_latin1_text(one):
    text = ("Le château de la Loire était célèbre pour ses jardins. Les élèves visitèrent "
            "la forêt où l'été dernier ils avaient mangé des crêpes à côté du lac.\n")
    doc = one("fr.txt", text.encode("latin-1"))
    assert (doc.status, doc.text) == ("ok", text)


def test_utf8_bom(one):
    doc = one("bom.txt", b"\xef\xbb\xbfwith a mark")
    assert doc.text == "with a mark"


def test_corrupt_pdf(one):
    doc = one("broken.pdf", b"%PDF-1.7\n" + os.urandom(3000))
    assert doc.status == "error" and doc.format == "pdf"
    assert doc.reason.startswith("corrupt")


def test_truncated_pdf(one):
    data = make_pdf(SAMPLE)
    doc = one("truncated.pdf", data[: len(data) // 3])
    assert doc.status in ("error", "skipped") and doc.format == "pdf"
    assert doc.reason.startswith(("corrupt", "no text layer")), doc.reason
    assert doc.text is None


def test_encrypted_pdf(one):
    doc = one("locked.pdf", make_encrypted_pdf(SAMPLE))
    assert (doc.status, doc.reason, doc.format) == ("skipped", "encrypted: no password", "pdf")


def test_pdf_with_owner_password_only_is_read(one):
    doc = one("owner-only.pdf", make_encrypted_pdf(SAMPLE, password=""))
    assert doc.status == "ok" and "Quick Brown Fox" in doc.text


def test_pdf_without_text_layer(one):
    doc = one("scan.pdf", make_pdf(None))
    assert (doc.status, doc.reason) == ("skipped", "no text layer — scanned image? (OCR found no text)")
    doc = one("scan.pdf", make_pdf(None), Limits(ocr=False))
    assert (doc.status, doc.reason) == ("skipped", "no text layer — scanned image? (OCR is off)")


def test_truncated_docx(one):
    data = make_docx(SAMPLE)
    doc = one("cut.docx", data[: len(data) // 2])
    assert (doc.status, doc.format) == ("error", "docx")
    assert doc.reason.startswith("corrupt or truncated DOCX")


def test_corrupt_odt_part(one):
    data = replace_zip_member(make_odt(SAMPLE), "content.xml", b"<office:document-content")
    doc = one("bad.odt", data)
    assert (doc.status, doc.format) == ("error", "odt")
    assert doc.reason.startswith("corrupt ODT")


def test_zip_bomb_docx(one):
    bomb = add_zip_member(make_docx(SAMPLE), "word/media/zeros.xml", bytes(50 * MB))
    start = time.monotonic()
    doc = one("bomb.docx", bomb)
    assert (doc.status, doc.format) == ("skipped", "docx")
    assert doc.reason.startswith("zip bomb protection:") and "expands" in doc.reason
    assert time.monotonic() - start < 5


def test_zip_bomb_odt(one):
    bomb = add_zip_member(make_odt(SAMPLE), "Pictures/zeros.bin", bytes(50 * MB))
    doc = one("bomb.odt", bomb)
    assert doc.status == "skipped" and doc.reason.startswith("zip bomb protection:")


def test_a_zip_member_that_expands_too_far_is_refused_alone(extract_file):
    # one 300 MB file of zeros beside a readme skipped the whole archive, the readme too,
    # under a reason that named the zeros alone; and a 3 MB log of one repeated line
    # (341:1) was refused as a bomb though it is no harm at that size
    log = b"WARN disk usage above threshold on /var\n" * (3 * MB // 40)
    docs = extract_file("box.zip", make_zip({"readme.txt": "What the box holds: letters and a log.",
                                             "zeros.bin": bytes(50 * MB), "service.log": log}))
    by_name = {d.relpath.split("!", 1)[1]: d for d in docs}
    assert by_name["readme.txt"].status == "ok" and by_name["service.log"].status == "ok"
    zeros = by_name["zeros.bin"]
    assert zeros.status == "skipped"
    assert zeros.reason.startswith("zip bomb protection: expands ") and "(limit 200:1)" in zeros.reason
    assert zeros.reason.endswith("; the archive's other members were read")


def test_zip_bomb_zip_ratio(one):
    doc = one("bomb.zip", make_zip({"zeros.txt": bytes(50 * MB)}))
    assert doc.status == "skipped" and doc.reason.startswith("zip bomb protection:")
    assert ":1 (limit 200:1)" in doc.reason


def test_zip_expanded_size_limit(one):
    data = make_zip({"a.bin": os.urandom(MB), "b.bin": os.urandom(MB)}, zipfile.ZIP_STORED)
    doc = one("big.zip", data, Limits(max_expanded_bytes=MB))
    assert doc.status == "skipped"
    assert doc.reason == "zip bomb protection: declares 2 MB expanded (limit 1 MB)"


def test_nested_zip_bomb_shares_one_budget(extract_file):
    layer = make_zip({f"{i}.txt": b"words " * 50_000 for i in range(3)}, zipfile.ZIP_STORED)
    outer = make_zip({f"copy{i}.zip": layer for i in range(4)}, zipfile.ZIP_STORED)
    # The outer archive spends 3.6 MB of 5 MB; the first inner one 0.9 MB more; the rest
    # would go beyond the allowance for this one file on disk.
    docs = extract_file("nested.zip", outer, Limits(max_expanded_bytes=5 * MB))
    ok = [d.relpath for d in docs if d.status == "ok"]
    assert ok == [f"nested.zip!copy0.zip!{i}.txt" for i in range(3)]
    refused = [(d.relpath, d.status) for d in docs if d.reason.startswith("zip bomb protection")]
    assert refused == [(f"nested.zip!copy{i}.zip", "skipped") for i in (1, 2, 3)]


def test_zip_member_lying_about_its_size(extract_file):
    data = bytearray(make_zip({"liar.txt": b"x" * 100_000}))
    # Declare 1,000 bytes in the central directory: the read must stop there and fail.
    cd = data.rindex(b"PK\x01\x02")
    data[cd + 24: cd + 28] = struct.pack("<I", 1000)
    lh = data.index(b"PK\x03\x04")
    data[lh + 22: lh + 26] = struct.pack("<I", 1000)
    [doc] = extract_file("liar.zip", bytes(data))
    assert (doc.relpath, doc.status) == ("liar.zip!liar.txt", "error")
    assert doc.reason.startswith("corrupt archive member")


def test_encrypted_zip_member(extract_file):
    data = bytearray(make_zip({"secret.txt": b"hidden"}, zipfile.ZIP_STORED))
    for sig, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # set the "encrypted" bit
        at = data.index(sig)
        data[at + flag_at] |= 1
    [doc] = extract_file("locked.zip", bytes(data))
    assert (doc.status, doc.reason) == ("error", "encrypted: no password")


def test_containers_nested_too_deep(extract_file):
    data = b"bottom text"
    for _ in range(4):
        data = make_zip({"inner.zip" if data[:2] == b"PK" else "t.txt": data})
    docs = extract_file("russian-doll.zip", data, Limits(max_depth=2))
    assert [d.status for d in docs] == ["skipped"]
    assert docs[0].reason == "containers nested too deep (limit 2)"


def test_xxe_xml_never_reads_the_file(one, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    doc = one("evil.xml", xxe(secret))
    assert doc.status == "error" and doc.text is None
    assert doc.reason.startswith("refused: XML external entity")


def test_billion_laughs_xml(one):
    start = time.monotonic()
    doc = one("laughs.xml", LAUGHS)
    assert doc.status == "error"
    assert doc.reason == "refused: XML entity declarations (entity expansion attack?)"
    assert time.monotonic() - start < 2


def test_xxe_docx(one, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    body = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY leak SYSTEM "file://%s">]>'
            b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            b"<w:body><w:p><w:r><w:t>&leak;</w:t></w:r></w:p></w:body></w:document>"
            % os.fsencode(secret))
    doc = one("xxe.docx", replace_zip_member(make_docx(SAMPLE), "word/document.xml", body))
    assert (doc.status, doc.format, doc.text) == ("error", "docx", None)
    assert doc.reason.startswith("refused:") and "word/document.xml" in doc.reason


def test_billion_laughs_docx(one):
    body = LAUGHS.replace(b"<lolz>&lol9;</lolz>", b'<w:document xmlns:w="x"><w:body>&lol9;</w:body></w:document>')
    doc = one("laughs.docx", replace_zip_member(make_docx(SAMPLE), "word/document.xml", body))
    assert doc.status == "error" and "entity declarations" in doc.reason


def test_xxe_odt(one, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    body = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY leak SYSTEM "file://%s">]>'
            b'<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">'
            b"&leak;</office:document-content>" % os.fsencode(secret))
    doc = one("xxe.odt", replace_zip_member(make_odt(SAMPLE), "content.xml", body))
    assert doc.status == "error" and doc.reason.startswith("refused:")


def test_xxe_in_xhtml_is_not_resolved(one, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    page = (b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY leak SYSTEM "file://%s">]>'
            b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>visible &leak; text</p></body></html>'
            % os.fsencode(secret))
    doc = one("evil.xhtml", page)
    assert doc.format == "html"
    assert "TOPSECRET" not in (doc.text or "")


def test_file_over_the_size_cap(one):
    doc = one("huge.txt", b"a" * (MB + 1), Limits(max_file_bytes=MB))
    assert (doc.status, doc.reason) == ("skipped", "larger than the size cap (1 MB)")
    assert doc.text is None and doc.xxh128 == ""


def test_text_over_the_character_cap_is_truncated_but_ok(one):
    doc = one("long.txt", b"word " * 1000, Limits(max_text_chars=100))
    assert doc.status == "ok" and len(doc.text) == 100
    assert doc.reason == "text truncated to 100 characters"


def test_document_without_text(one):
    doc = one("blank.docx", make_docx(["", "   "]))
    assert (doc.status, doc.reason) == ("skipped", "no text (empty document)")


def test_corrupt_msg(one):
    doc = one("mail.msg", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + os.urandom(2000))
    assert (doc.status, doc.format) == ("error", "msg")
    assert doc.reason.startswith("corrupt or unsupported MSG")


def test_corrupt_zip(one):
    doc = one("broken.zip", b"PK\x03\x04" + os.urandom(500))
    assert (doc.status, doc.format) == ("error", "zip")
    assert doc.reason.startswith("corrupt or truncated ZIP")


def test_random_bytes_named_as_a_binary_format_keep_that_format(one):
    # Without a signature the bytes are detected as (unreadable) text; the error is about
    # the format the name claims, and the record must say that format, not "txt".
    seed = b"".join(struct.pack("<Q", (i * 0x9E3779B97F4A7C15) % (1 << 64)) for i in range(400))
    for name, fmt in (("report.pdf", "pdf"), ("letter.docx", "docx"), ("box.zip", "zip")):
        doc = one(name, seed)
        assert (doc.status, doc.format) == ("error", fmt), name
        assert "signature missing" in doc.reason


def test_good_files_after_bad_ones_still_extract(extract_file):
    assert extract_file("bad.pdf", b"%PDF-1.4 junk")[0].status == "error"
    assert extract_file("good.txt", b"still fine")[0].text == "still fine"


def test_extractor_exception_becomes_a_reason(extract_file, monkeypatch):
    from ndd_desktop.ingest import extract

    def boom(data, ctx):
        raise RuntimeError("library bug")

    monkeypatch.setitem(extract.EXTRACTORS, "txt", boom)
    [doc] = extract_file("x.txt", b"text")
    assert (doc.status, doc.reason) == ("error", "extractor failed: RuntimeError: library bug")


def test_deeply_nested_html_does_not_recurse(one):
    doc = one("deep.html", b"<div>" * 50_000 + b"bottom")
    assert (doc.status, doc.text) == ("ok", "bottom")


def test_deeply_nested_full_page_is_read_whole(one):
    page = b"<html><head><title>t</title></head><body>" + b"<div>" * 2_000 + b"bottom</body></html>"
    doc = one("deep.html", page)
    assert (doc.status, doc.text) == ("ok", "bottom")
    assert doc.reason.startswith("whole page read: nested deeper than")  # not by main-text detection


def test_huge_html_is_read_whole_without_main_text_detection(one):
    # main-text detection takes seconds per MB beyond a few MB: above its limit the page is
    # read by the whole-page reader, which is linear
    words = b" of a long report on the harbour works and the council's budget" * 20
    page = b"<html><body><article>" + b"".join(b"<p>Paragraph %d%s.</p>" % (i, words)
                                                for i in range(1_700)) + b"</article></body></html>"
    assert len(page) > html.MAIN_TEXT_MAX_CHARS
    doc = one("huge.html", page)
    assert doc.status == "ok" and doc.reason.startswith("whole page read: larger than 2 MB")
    assert doc.text.startswith("Paragraph 0 of a long report") and "\nParagraph 1699 of a long" in doc.text
