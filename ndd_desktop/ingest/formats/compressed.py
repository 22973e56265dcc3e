"""Single compressed files (gzip, bzip2, xz, Zstandard): the one document inside.

``manual.1.gz`` is read as the document ``manual.1`` it holds: the record keeps the path
and the hashes of the file on disk, and the format found in the inner bytes (a
compressed tar becomes a container). Decompression streams in 64 KB steps against the
same limits as a ZIP: the expanded size is spent from the file's budget and may not
exceed ``Limits.max_ratio`` times the compressed size once past ``ratio_floor_bytes``,
so a bomb stops after at most a few megabytes of work.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zlib
from collections.abc import Iterator

import zstandard

from ndd_desktop.ingest.formats.base import Context, Fail, Skip
from ndd_desktop.ingest.limits import mb

_CHUNK = 1 << 16
_ZSTD_STEP = 128
_SUFFIXES = {
    "gz": {".gz": "", ".tgz": ".tar", ".z": ""},
    "bz2": {".bz2": "", ".tbz2": ".tar", ".tbz": ".tar", ".bz": ""},
    "xz": {".xz": "", ".txz": ".tar"},
    "zst": {".zst": "", ".tzst": ".tar", ".zstd": ""},
}
_NAMES = {"gz": "gzip", "bz2": "bzip2", "xz": "xz", "zst": "Zstandard"}
_BROKEN = (OSError, EOFError, zlib.error, lzma.LZMAError, zstandard.ZstdError, ValueError)


def inner_name(name: str, fmt: str) -> str:
    """The name of the document inside: ``manual.1.gz`` -> ``manual.1``,
    ``src.tgz`` -> ``src.tar``; a name without the suffix is kept as it is."""
    low = name.lower()
    for suffix, replacement in _SUFFIXES.get(fmt, {}).items():
        if low.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)] + replacement
    return name


def decompress(data: bytes, fmt: str, ctx: Context) -> bytes:
    """The bytes inside a compressed file, within the file's budget and the ratio limit.

    Raises Skip on a bomb (too large or too compressed) and Fail on corrupt or truncated
    data.
    """
    what = _NAMES[fmt]
    limits = ctx.limits
    chunks: list[bytes] = []
    got = 0
    try:
        for chunk in (_zstd_chunks(data) if fmt == "zst" else _stream_chunks(data, fmt)):
            got += len(chunk)
            if got > limits.ratio_floor_bytes and got > limits.max_ratio * max(len(data), 1):
                raise Skip(f"decompression bomb protection: {what} data expands beyond "
                           f"{limits.max_ratio:.0f}:1")
            if got > ctx.budget.remaining:
                raise Skip(f"decompression bomb protection: expands beyond "
                           f"{mb(limits.max_expanded_bytes)}")
            chunks.append(chunk)
    except _BROKEN as exc:
        raise Fail(f"corrupt or truncated {what} data: {_short(exc)}") from None
    ctx.budget.take(got)
    return b"".join(chunks)


def _stream_chunks(data: bytes, fmt: str) -> Iterator[bytes]:
    """Decompressed pieces of at most 64 KB; the file classes read concatenated streams
    as one and raise EOFError on a truncated one."""
    raw = io.BytesIO(data)
    opener = {"gz": gzip.GzipFile, "bz2": bz2.BZ2File, "xz": lzma.LZMAFile}[fmt]
    with opener(fileobj=raw, mode="rb") if fmt == "gz" else opener(raw, mode="rb") as stream:
        while chunk := stream.read(_CHUNK):
            yield chunk


def _zstd_chunks(data: bytes) -> Iterator[bytes]:
    """Decompressed pieces of a Zstandard file, frame after frame.

    zstandard's decompression object has no output cap, so input goes in 128-byte steps
    (at most a few MB of output each, even for a bomb); its ``eof`` tells a complete
    frame from a truncated one, which the stream reader does not.
    """
    pos = 0
    while pos < len(data):
        obj = zstandard.ZstdDecompressor().decompressobj()
        while not obj.eof:
            if pos >= len(data):
                raise EOFError("truncated Zstandard frame")
            piece = data[pos:pos + _ZSTD_STEP]
            pos += len(piece)
            out = obj.decompress(piece)
            if out:
                yield out
        pos -= len(obj.unused_data)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
