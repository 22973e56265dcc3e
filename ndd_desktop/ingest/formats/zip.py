"""ZIP archives: each member is a document named ``archive.zip!path/inside``.

The zip-bomb checks here serve DOCX and ODT too: before anything is decompressed the
archive's declared sizes are checked against the limits (entry count, total expanded
size, expansion ratio); reads then stream with a hard cap, and Python's zipfile never
returns more than a member's declared size (a lying header fails its CRC check).
"""

from __future__ import annotations

import io
import time
import zipfile
import zlib
from collections.abc import Iterator

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip, too_many_entries
from ndd_desktop.ingest.limits import mb

_CHUNK = 1 << 16


def extract(data: bytes, ctx: Context) -> Extraction:
    """A ZIP container: no text of its own, one member per file inside. An archive cut
    off before its table of contents gives the members before the cut
    (:mod:`.zip_salvage`)."""
    try:
        zf = open_zip(data, "ZIP")
    except Fail:
        from ndd_desktop.ingest.formats.zip_salvage import salvage

        members = salvage(data, ctx)
        if members is None:
            raise
        return Extraction(text=None, members=members)
    refused: dict[str, str] = {}
    infos = check_archive(zf, ctx, refused)
    return Extraction(text=None, members=_members(zf, infos, ctx, refused))


def open_zip(data: bytes, what: str) -> zipfile.ZipFile:
    """Open an archive held in memory; Fail("corrupt ...") when it is not one."""
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError) as exc:
        raise Fail(f"corrupt or truncated {what}: {exc}") from None


def check_archive(zf: zipfile.ZipFile, ctx: Context, refused: dict[str, str] | None = None) -> list[zipfile.ZipInfo]:
    """The archive's file entries, after the zip-bomb checks on declared sizes.

    Spends the declared expanded size from the budget, so nested archives share one
    allowance per file on disk. ``refused``, when given (an archive, whose members are
    documents each), receives the members that expand too far by themselves (name ->
    reason), which are then not read while the others are; without it (a DOCX or ODT,
    which is one document) such a member refuses the whole file. One 300 MB file of zeros
    beside a readme skipped the readme too, under a reason that named the zeros alone.
    """
    limits = ctx.limits
    infos = [i for i in zf.infolist() if not i.is_dir()]
    if len(infos) > limits.max_members:
        raise Skip(too_many_entries(len(infos), limits.max_members))
    for info in infos:
        if info.file_size > limits.ratio_floor_bytes and (
            info.file_size > limits.max_ratio * max(info.compress_size, 1)
        ):
            ratio = info.file_size / max(info.compress_size, 1)
            if refused is None:
                raise Skip(
                    f"zip bomb protection: {info.filename!r} expands {ratio:.0f}:1 "
                    f"(limit {limits.max_ratio:.0f}:1)"
                )
            refused[info.filename] = (f"zip bomb protection: expands {ratio:.0f}:1 (limit {limits.max_ratio:.0f}:1)"
                                      + ("; the archive's other members were read" if len(infos) > 1 else ""))
    kept = [i for i in infos if not refused or i.filename not in refused]
    total = sum(i.file_size for i in kept)
    packed = sum(i.compress_size for i in kept)
    if total > limits.ratio_floor_bytes and total > limits.max_ratio * max(packed, 1):
        raise Skip(
            f"zip bomb protection: expands {total / max(packed, 1):.0f}:1 "
            f"(limit {limits.max_ratio:.0f}:1)"
        )
    if total > ctx.budget.remaining:
        raise Skip(
            f"zip bomb protection: declares {mb(total)} expanded "
            f"(limit {mb(limits.max_expanded_bytes)})"
        )
    ctx.budget.take(total)
    return infos


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """A member's bytes, streamed and never more than its declared size."""
    if info.flag_bits & 0x1:
        raise Fail("encrypted: no password")
    chunks: list[bytes] = []
    got = 0
    try:
        with zf.open(info) as fh:
            while True:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                if got > info.file_size:
                    raise Skip("zip bomb protection: member larger than it declares")
                chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as exc:
        raise Fail(f"corrupt archive member: {exc}") from None
    except NotImplementedError as exc:
        raise Fail(f"unsupported archive member: {exc}") from None
    except RuntimeError as exc:  # zipfile's "password required"
        raise Fail(f"encrypted: no password ({exc})") from None
    return b"".join(chunks)


def zip_date(info: zipfile.ZipInfo) -> float | None:
    """A member's stored modification time (local time) as epoch seconds."""
    try:
        return time.mktime(tuple(info.date_time) + (0, 0, -1))
    except (OverflowError, ValueError):
        return None


def member_label(raw: str, number: int) -> str:
    """An archive member's name as a label under ``archive!``: backslashes become "/",
    and empty, "." and ".." parts (absolute paths, traversal such as ``../../etc/x``) are
    dropped, so the label never climbs out of its archive; "member-N" when nothing is left.
    Nothing is ever written under this name: it only names the record."""
    parts = [p for p in raw.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return "/".join(parts) or f"member-{number}"


def _members(zf: zipfile.ZipFile, infos: list[zipfile.ZipInfo], ctx: Context,
             refused: dict[str, str] | None = None) -> Iterator[Member]:
    try:
        for number, info in enumerate(infos, 1):
            name = member_label(info.filename, number)
            if refused and info.filename in refused:
                yield Member(name, None, zip_date(info), status="skipped", reason=refused[info.filename])
                continue
            try:
                data = read_member(zf, info)
            except (Fail, Skip) as exc:
                status = "skipped" if isinstance(exc, Skip) else "error"
                yield Member(name, None, zip_date(info), status=status, reason=str(exc))
                continue
            yield Member(name, data, zip_date(info))
    finally:
        zf.close()
