"""Compressed files (gz, bz2, xz, zst) and archives (tar in all its forms, 7z): the
document inside or one document per member, within the ZIP limits; hostile ones get a
reason and the scan goes on."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import struct
import tarfile
import time
import zipfile
import zlib

import py7zr
import pytest
import zstandard

from ingest_makers import SAMPLE, make_7z, make_docx, make_html, make_pdf, make_tar, make_zip
from ndd_desktop.ingest import Limits
from ndd_desktop.ingest.limits import MB

TEXT = "\n".join(SAMPLE).encode()
COMPRESS = {
    "gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress,
    "zst": lambda data: zstandard.ZstdCompressor().compress(data),
}


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_compressed_text_is_the_document_inside(one, suffix):
    packed = COMPRESS[suffix](TEXT)
    doc = one(f"manual.1.{suffix}", packed)
    assert (doc.relpath, doc.status, doc.format, doc.container) == (f"manual.1.{suffix}", "ok", "txt", None)
    assert doc.text == TEXT.decode()
    # the record is the file on disk: its size and hashes, not the inner document's
    assert doc.size == len(packed) and doc.sha256 == hashlib.sha256(packed).hexdigest()


def test_inner_format_comes_from_the_inner_bytes(one):
    assert one("page.html.gz", gzip.compress(make_html(SAMPLE))).text.split("\n") == SAMPLE
    doc = one("report.pdf.xz", lzma.compress(make_pdf(SAMPLE)))
    assert (doc.format, doc.status) == ("pdf", "ok") and "Quick Brown Fox" in doc.text
    doc = one("letter.bz2", bz2.compress(make_docx(SAMPLE)))
    assert (doc.format, doc.text.split("\n")) == ("docx", SAMPLE)


def test_concatenated_gzip_members_are_one_document(one):
    doc = one("log.gz", gzip.compress(b"first half, ") + gzip.compress(b"second half"))
    assert doc.text == "first half, second half"


@pytest.mark.parametrize("name,mode", [("box.tar", "w"), ("box.tar.gz", "w:gz"), ("box.tgz", "w:gz"),
                                       ("box.tar.bz2", "w:bz2"), ("box.tar.xz", "w:xz")])
def test_tar_members_are_documents(extract_file, name, mode):
    data = make_tar({"dir/a.txt": b"first member", "b.html": make_html(["second member"])}, mode)
    docs = extract_file(name, data)
    assert [(d.relpath, d.status, d.text) for d in docs] == [
        (f"{name}!dir/a.txt", "ok", "first member"), (f"{name}!b.html", "ok", "second member")]
    assert all(d.container == name for d in docs)
    assert docs[0].date == 1_100_000_000


def test_zstd_tar(extract_file):
    data = zstandard.ZstdCompressor().compress(make_tar({"x.txt": b"inside zstd tar"}))
    [doc] = extract_file("src.tar.zst", data)
    assert (doc.relpath, doc.text, doc.container) == ("src.tar.zst!x.txt", "inside zstd tar", "src.tar.zst")


def test_7z_members_are_documents(extract_file):
    docs = extract_file("box.7z", make_7z({"dir/a.txt": b"seven zip text", "b.docx": make_docx(["docx in 7z"])}))
    assert sorted((d.relpath, d.status, d.text) for d in docs) == [
        ("box.7z!b.docx", "ok", "docx in 7z"), ("box.7z!dir/a.txt", "ok", "seven zip text")]
    assert all(d.container == "box.7z" for d in docs)


def test_empty_members_of_7z_and_tar(extract_file):
    docs = extract_file("e.7z", make_7z({"empty.txt": b"", "a.txt": b"words"}))
    assert [(d.relpath, d.status, d.reason) for d in docs] == [
        ("e.7z!empty.txt", "skipped", "empty file"), ("e.7z!a.txt", "ok", "")]
    docs = extract_file("e.tar", make_tar({"empty.txt": b"", "a.txt": b"words"}))
    assert [(d.relpath, d.status) for d in docs] == [("e.tar!empty.txt", "skipped"), ("e.tar!a.txt", "ok")]


def test_gz_inside_zip_inside_tar(extract_file):
    inner = make_zip({"notes.txt.gz": gzip.compress(b"three levels down")})
    [doc] = extract_file("outer.tar", make_tar({"inner.zip": inner}))
    assert (doc.relpath, doc.text, doc.container) == ("outer.tar!inner.zip!notes.txt.gz", "three levels down", "outer.tar")


def test_empty_tar_is_reported(one):
    doc = one("nothing.tar", make_tar({}))
    assert (doc.status, doc.reason) == ("skipped", "empty TAR: no documents inside")


# -- hostile -------------------------------------------------------------------------------
@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_compression_bombs_stop_early(one, suffix):
    bomb = COMPRESS[suffix](bytes(60 * MB))
    start = time.monotonic()
    doc = one(f"zeros.{suffix}", bomb)
    assert doc.status == "skipped" and doc.reason.startswith("decompression bomb protection:")
    assert time.monotonic() - start < 5


def test_compressed_file_over_the_expansion_budget(one):
    doc = one("random.gz", gzip.compress(os.urandom(2 * MB)), Limits(max_expanded_bytes=MB))
    assert (doc.status, doc.reason) == ("skipped", "decompression bomb protection: expands beyond 1 MB")


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_truncated_compressed_files(one, suffix):
    packed = COMPRESS[suffix](os.urandom(50_000))
    doc = one(f"cut.{suffix}", packed[: len(packed) // 2])
    assert (doc.status, doc.format) == ("error", suffix)
    assert doc.reason.startswith("corrupt or truncated"), doc.reason


def test_corrupt_compressed_header(one):
    doc = one("bad.gz", b"\x1f\x8b\x08\x00" + os.urandom(300))
    assert doc.status == "error" and doc.reason.startswith("corrupt or truncated gzip data")


def test_gz_nested_too_deep(one):
    data = b"bottom"
    for _ in range(6):
        data = gzip.compress(data)
    doc = one("doll.gz", data, Limits(max_depth=3))
    assert (doc.status, doc.reason) == ("skipped", "containers nested too deep (limit 3)")


def test_tar_path_traversal_names_stay_inside(extract_file):
    docs = extract_file("evil.tar", make_tar({"../../etc/passwd": b"not really", "/abs/path.txt": b"absolute",
                                              "./a/../b.txt": b"dotted"}))
    assert [d.relpath for d in docs] == ["evil.tar!etc/passwd", "evil.tar!abs/path.txt", "evil.tar!a/b.txt"]
    assert [d.text for d in docs] == ["not really", "absolute", "dotted"]


def test_zip_path_traversal_names_stay_inside(extract_file):
    docs = extract_file("evil.zip", make_zip({"../../../tmp/x.txt": b"zipped"}))
    assert [(d.relpath, d.text) for d in docs] == [("evil.zip!tmp/x.txt", "zipped")]


def test_tar_links_and_devices_are_listed_not_followed(extract_file):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tf:
        for name, kind in (("sym", tarfile.SYMTYPE), ("hard", tarfile.LNKTYPE), ("dev", tarfile.CHRTYPE),
                           ("fifo", tarfile.FIFOTYPE)):
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = "/etc/passwd" if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE) else ""
            tf.addfile(info)
        info = tarfile.TarInfo("real.txt")
        info.size = 4
        tf.addfile(info, io.BytesIO(b"real"))
    docs = extract_file("links.tar", out.getvalue())
    assert [(d.relpath, d.status, d.reason) for d in docs] == [
        ("links.tar!sym", "skipped", "link inside an archive (not followed)"),
        ("links.tar!hard", "skipped", "link inside an archive (not followed)"),
        ("links.tar!dev", "skipped", "not a regular file (device) inside an archive"),
        ("links.tar!fifo", "skipped", "not a regular file (FIFO) inside an archive"),
        ("links.tar!real.txt", "ok", ""),
    ]


def test_archives_with_too_many_members_say_what_to_do(one):
    """Not called a bomb: an archive of many small notes is an ordinary archive."""
    doc = one("many.tar", make_tar({f"{i}.txt": b"x" for i in range(30)}), Limits(max_members=20))
    assert (doc.status, doc.reason) == ("skipped", "too many entries to read: more than 20 (the limit is 20 an "
                                                   "archive); unpack it and scan its folder")
    doc = one("many.zip", make_zip({f"{i}.txt": b"x" for i in range(30)}), Limits(max_members=20))
    assert (doc.status, doc.reason) == ("skipped", "too many entries to read: 30 (the limit is 20 an archive); "
                                                   "unpack it and scan its folder")


def test_truncated_tar_keeps_the_good_members(extract_file):
    data = make_tar({"a.txt": b"A" * 2000, "b.txt": b"B" * 20_000})
    docs = extract_file("cut.tar", data[:4000])
    assert (docs[0].relpath, docs[0].status) == ("cut.tar!a.txt", "ok")
    assert docs[-1].status == "error"
    assert all(d.status != "ok" for d in docs[1:])


def test_tar_of_garbage_after_a_header(one):
    doc = one("junk.tar", b"x" * 257 + b"ustar" + os.urandom(800))
    assert doc.status == "error" and doc.reason.startswith("corrupt or truncated TAR")


def test_tar_gz_bomb(one):
    doc = one("bomb.tar.gz", gzip.compress(make_tar({"zeros.txt": bytes(40 * MB)})))
    assert doc.status == "skipped" and doc.reason.startswith("decompression bomb protection:")


def test_encrypted_7z(one):
    doc = one("locked.7z", make_7z({"secret.txt": b"hidden words"}, password="pw"))
    assert (doc.status, doc.reason) == ("skipped", "encrypted: no password")
    doc = one("locked-names.7z", make_7z({"secret.txt": b"hidden words"}, password="pw", encrypt_names=True))
    assert (doc.status, doc.reason) == ("skipped", "encrypted: no password")


def test_corrupt_7z(one):
    data = make_7z({"a.txt": os.urandom(5000)})
    doc = one("cut.7z", data[: len(data) // 2])
    assert (doc.status, doc.format) == ("error", "7z")
    assert doc.reason.startswith("corrupt"), doc.reason
    doc = one("junk.7z", b"7z\xbc\xaf\x27\x1c" + os.urandom(500))
    assert doc.status == "error" and doc.reason.startswith("corrupt")


def test_7z_bomb(one):
    start = time.monotonic()
    doc = one("bomb.7z", make_7z({"zeros.txt": bytes(60 * MB)}))
    assert doc.status == "skipped" and doc.reason.startswith("zip bomb protection:")
    assert time.monotonic() - start < 10


def test_7z_path_traversal_member_is_listed_and_the_rest_read(extract_file):
    out = io.BytesIO()
    with py7zr.SevenZipFile(out, "w") as z:
        z.set_encoded_header_mode(False)  # names in the clear, to be rewritten below
        z.writestr(b"climbing", "aa/aa/x.txt")
        z.writestr(b"staying", "ok.txt")
    data = bytearray(out.getvalue())
    at = data.index("aa/aa/x.txt".encode("utf-16-le"))
    data[at:at + 22] = "../../x.txt".encode("utf-16-le")
    offset, size = struct.unpack("<QQ", data[12:28])  # the start header: fix both CRCs
    data[28:32] = struct.pack("<I", zlib.crc32(bytes(data[32 + offset:32 + offset + size])))
    data[8:12] = struct.pack("<I", zlib.crc32(bytes(data[12:32])))
    docs = extract_file("evil.7z", bytes(data))
    assert [(d.relpath, d.status, d.reason, d.text) for d in docs] == [
        ("evil.7z!x.txt", "skipped", "member name leads out of the archive (absolute or '..'): not read", None),
        ("evil.7z!ok.txt", "ok", "", "staying")]


def test_good_file_after_bad_archives(extract_file):
    assert extract_file("bad.gz", b"\x1f\x8b junk")[0].status == "error"
    assert extract_file("bad.7z", b"7z\xbc\xaf\x27\x1c junk")[0].status == "error"
    assert extract_file("good.txt", b"still fine")[0].text == "still fine"


def test_7z_symbolic_link_is_listed_not_followed(extract_file, tmp_path):
    (tmp_path / "target.txt").write_text("the link's target")
    (tmp_path / "link.txt").symlink_to(tmp_path / "target.txt")
    out = io.BytesIO()
    with py7zr.SevenZipFile(out, "w") as z:
        z.write(tmp_path / "link.txt", "link.txt")
        z.writestr(b"plain", "plain.txt")
    docs = extract_file("links.7z", out.getvalue())
    assert [(d.relpath, d.status, d.reason) for d in docs] == [
        ("links.7z!link.txt", "skipped", "link inside an archive (not followed)"), ("links.7z!plain.txt", "ok", "")]


def _cut_after(data: bytes, member: bytes) -> bytes:
    """The archive cut in the middle of the member whose bytes start with ``member``."""
    return data[: data.index(member) + len(member) // 2]


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED], ids=["deflated", "stored"])
def test_a_zip_cut_off_in_transfer_keeps_its_whole_members(extract_file, method):
    # the table of contents is at a ZIP's end: a cut archive was refused whole ("File is
    # not a zip file"), though its first members were complete
    first, second = ("Minutes of the meeting. " * 80).encode(), ("A letter to the council. " * 80).encode()
    cut = os.urandom(6000)
    data = make_zip({"minutes.txt": first, "letters/letter.txt": second, "scan.bin": cut}, method=method)
    docs = extract_file("transfer.zip", data[: data.index(cut[:64] if method == zipfile.ZIP_STORED else b"scan.bin")
                                              + 200])
    by_name = {d.relpath: d for d in docs}
    assert by_name["transfer.zip!minutes.txt"].status == "ok"
    assert by_name["transfer.zip!minutes.txt"].text.startswith("Minutes of the meeting.")
    assert by_name["transfer.zip!letters/letter.txt"].status == "ok"
    assert by_name["transfer.zip!scan.bin"].status == "error"
    assert any(d.status == "error" and d.reason.startswith("truncated ZIP: 2 whole members") for d in docs)


def test_a_zip_whose_member_is_damaged_before_the_cut_says_so(extract_file):
    data = bytearray(make_zip({"a.txt": b"first words " * 200, "b.txt": b"second words " * 200,
                               "c.txt": b"third words " * 200}, method=zipfile.ZIP_STORED))
    at = bytes(data).index(b"second words")
    data[at] ^= 0xFF  # b's checksum no longer matches
    cut = bytes(data[: bytes(data).index(b"third words") + 100])  # cut inside c: no table of contents
    docs = {d.relpath: d for d in extract_file("cut.zip", cut)}
    assert docs["cut.zip!a.txt"].status == "ok"
    assert (docs["cut.zip!b.txt"].status, docs["cut.zip!b.txt"].reason) == (
        "error", "corrupt archive member: checksum differs")
    assert (docs["cut.zip!c.txt"].status, docs["cut.zip!c.txt"].reason) == ("error", "corrupt archive member: cut off")
