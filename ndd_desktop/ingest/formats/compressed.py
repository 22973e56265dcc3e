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
from typing import BinaryIO

import zstandard

from ndd_desktop.ingest.formats.base import Context, Fail, Skip
from ndd_desktop.ingest.limits import mb

_CHUNK = 1 << 16
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
        with _reader(data, fmt) as stream:
            while True:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
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


def _reader(data: bytes, fmt: str) -> BinaryIO:
    raw = io.BytesIO(data)
    if fmt == "gz":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if fmt == "bz2":
        return bz2.BZ2File(raw, mode="rb")
    if fmt == "xz":
        return lzma.LZMAFile(raw, mode="rb")
    # read_across_frames: a file of several frames (pzstd, appended streams) is one document
    return zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."
