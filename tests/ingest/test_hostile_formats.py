"""One hostile file of every new format, scanned together through the process pool with
a memory limit: each gets a reason, the good file after them is read, all in bounded time."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import struct
import time
import zlib

import zstandard

from ingest_makers import (
    LAUGHS_ENTITY_PART, add_zip_member, make_7z, make_epub, make_odp, make_ods, make_pptx, make_tar, make_xlsx,
    replace_zip_member,
)
from ingest_support import entry_for
from ndd_desktop.ingest import Limits, extract_many
from ndd_desktop.ingest.limits import MB


def _png_claiming(width: int, height: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(100))) + chunk(b"IEND", b""))


HOSTILE = {
    "bomb.gz": lambda: gzip.compress(bytes(40 * MB)),
    "bomb.bz2": lambda: bz2.compress(bytes(40 * MB)),
    "bomb.xz": lambda: lzma.compress(bytes(40 * MB)),
    "bomb.zst": lambda: zstandard.ZstdCompressor().compress(bytes(40 * MB)),
    "bomb.tar.gz": lambda: gzip.compress(make_tar({"zeros": bytes(40 * MB)})),
    "cut.tar": lambda: make_tar({"a.txt": os.urandom(20_000)})[:5000],
    "bomb.7z": lambda: make_7z({"zeros": bytes(40 * MB)}),
    "locked.7z": lambda: make_7z({"a.txt": b"secret"}, password="pw"),
    "laughs.xlsx": lambda: replace_zip_member(make_xlsx({"S": [["a"]]}), "xl/worksheets/sheet1.xml", LAUGHS_ENTITY_PART),
    "bomb.ods": lambda: add_zip_member(make_ods({"S": [["a"]]}), "zeros.bin", bytes(40 * MB)),
    "cut.pptx": lambda: make_pptx([["a"]])[:300],
    "laughs.odp": lambda: replace_zip_member(make_odp([["a"]]), "content.xml", LAUGHS_ENTITY_PART),
    "nocontainer.epub": lambda: make_epub([["a"]]).replace(b"META-INF/container.xml", b"META-INF/elsewhere.xml"),
    "junk.doc": lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + os.urandom(4000),
    "huge.png": lambda: _png_claiming(200_000, 200_000),
    "junk.jpg": lambda: b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + os.urandom(2000),
}


def test_every_hostile_format_gets_a_reason_in_the_pool(tmp_path):
    entries = []
    for name, make in HOSTILE.items():
        (tmp_path / name).write_bytes(make())
        entries.append(entry_for(tmp_path / name, tmp_path))
    (tmp_path / "zz-good.txt").write_text("the good file after the bad ones")
    entries.append(entry_for(tmp_path / "zz-good.txt", tmp_path))
    start = time.monotonic()
    docs = {d.relpath: d for batch in extract_many(entries, Limits(timeout_s=30, max_worker_memory_bytes=2048 * MB),
                                                   workers=2) for d in batch}
    elapsed = time.monotonic() - start
    assert docs.pop("zz-good.txt").text == "the good file after the bad ones"
    by_file = {}
    for d in docs.values():
        by_file.setdefault(d.container or d.relpath, []).append(d)
    assert set(by_file) == set(HOSTILE)
    for name, records in by_file.items():
        assert all(r.status in ("skipped", "error") and r.reason for r in records), (name, records)
        assert not any(r.reason.startswith(("timed out", "extractor crashed", "extractor failed")) for r in records), \
            (name, [r.reason for r in records])
    assert elapsed < 60


def test_a_password_protected_docx_or_xlsx_is_named_encrypted(one):
    import io

    from msoffcrypto.format.ooxml import OOXMLFile

    from ingest_makers import make_docx

    locked = io.BytesIO()  # what Word's "Encrypt with password" writes: an OLE2 file, not a ZIP
    OOXMLFile(io.BytesIO(make_docx(["A protected memo of the harbour board."]))).encrypt("secret", locked)
    for name in ("memo.docx", "sheet.xlsx"):
        doc = one(name, locked.getvalue())
        assert (doc.status, doc.reason) == ("skipped", "encrypted: no password (a password-protected Office document)")
        assert doc.format == name.rsplit(".", 1)[1]
