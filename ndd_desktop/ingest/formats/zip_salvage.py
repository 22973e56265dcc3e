"""The members of a ZIP archive cut off in transfer, read from their local headers.

A ZIP's table of contents (the central directory) is at its end, so an archive cut short
(a download or copy interrupted, a disk that filled up) has none, and ``zipfile`` refuses
all of it, though every member before the cut is whole: each is preceded by a local header
giving its name, method, sizes and checksum. :func:`salvage` walks those headers from the
start, as a tar reader walks its blocks, and returns the whole members (stored or deflated,
their checksum verified) followed by one record saying where the archive breaks off.

The zip-bomb limits hold as for a whole archive: the member count, the expansion ratio of
each member and the budget of expanded bytes shared with the rest of the file. What the
headers cannot say is skipped honestly: an encrypted member, another compression method,
a ZIP64 member, or a stored member whose sizes follow its data end the walk with a reason.
"""

from __future__ import annotations

import struct
import time
import zlib

from ndd_desktop.ingest.formats.base import Context, Member, Skip, too_many_entries
from ndd_desktop.ingest.formats.zip import member_label
from ndd_desktop.ingest.limits import mb

_LOCAL = b"PK\x03\x04"
_HEADER = struct.Struct("<4s5H3I2H")  # signature, version, flags, method, time, date, crc, sizes, name and extra lengths
_DESCRIPTOR = b"PK\x07\x08"
_STORED, _DEFLATED = 0, 8


def salvage(data: bytes, ctx: Context) -> list[Member] | None:
    """The members of a ZIP that has no readable central directory, and a last record
    saying where it breaks off; None when ``data`` does not start with a local header or
    no member before the break is whole."""
    if not data.startswith(_LOCAL):
        return None
    limits = ctx.limits
    members: list[Member] = []
    pos, whole, stop = 0, 0, ""
    while data.startswith(_LOCAL, pos):
        if pos + _HEADER.size > len(data):
            stop = "a member's header is cut off"
            break
        _, _, flags, method, mtime, mdate, crc, csize, usize, nlen, xlen = _HEADER.unpack_from(data, pos)
        start = pos + _HEADER.size + nlen + xlen
        if start > len(data):
            stop = "a member's header is cut off"
            break
        raw_name = data[pos + _HEADER.size:pos + _HEADER.size + nlen]
        name = _label(raw_name.decode("utf-8" if flags & 0x800 else "cp437", "replace"), len(members) + 1)
        date = _date(mdate, mtime)
        if len(members) >= limits.max_members:
            raise Skip(too_many_entries(None, limits.max_members))
        if flags & 0x1:
            members.append(Member(name, None, date, status="error", reason="encrypted: no password"))
            stop = "an encrypted member's end cannot be found without its table of contents"
            break
        later = bool(flags & 0x8)  # sizes and checksum follow the data
        if method not in (_STORED, _DEFLATED) or 0xFFFFFFFF in (csize, usize) or (later and method == _STORED):
            stop = f"member {name!r} cannot be read without the archive's table of contents"
            break
        cap = min(ctx.budget.remaining, limits.max_file_bytes)
        if method == _STORED:
            body, used, done = data[start:start + csize], csize, start + csize <= len(data)
        else:
            inflate = zlib.decompressobj(-15)
            packed = data[start:] if later else data[start:start + csize]
            try:
                body = inflate.decompress(packed, cap + 1)
            except zlib.error:
                members.append(Member(name, None, date, status="error", reason="corrupt archive member"))
                stop = "a member is damaged"
                break
            if len(body) > cap:
                raise Skip(f"zip bomb protection: {name!r} expands beyond {mb(cap)}")
            used, done = len(packed) - len(inflate.unused_data), inflate.eof
        if not done:
            stop = f"member {name!r} is cut off"
            members.append(Member(name, None, date, status="error", reason="corrupt archive member: cut off"))
            break
        end = start + used
        if later:
            descriptor = 16 if data.startswith(_DESCRIPTOR, end) else 12
            if end + descriptor > len(data):
                stop = f"member {name!r} is cut off"
                members.append(Member(name, None, date, status="error", reason="corrupt archive member: cut off"))
                break
            crc = struct.unpack_from("<I", data, end + descriptor - 12)[0]
            end += descriptor
        if len(body) > limits.ratio_floor_bytes and len(body) > limits.max_ratio * max(used, 1):
            raise Skip(f"zip bomb protection: {name!r} expands {len(body) / max(used, 1):.0f}:1 "
                       f"(limit {limits.max_ratio:.0f}:1)")
        ctx.budget.take(len(body))
        if zlib.crc32(body) != crc:
            members.append(Member(name, None, date, status="error", reason="corrupt archive member: checksum differs"))
        elif not name.endswith("/"):
            members.append(Member(name, body, date))
            whole += 1
        pos = end
    if not whole:  # nothing whole before the break: the archive is simply corrupt
        return None
    reason = (f"truncated ZIP: {whole} whole member{'' if whole == 1 else 's'} read from their headers, "
              f"then {stop or 'no table of contents'}")
    members.append(Member("", None, status="error", reason=reason))
    return members


def _label(raw: str, number: int) -> str:
    return member_label(raw, number) + ("/" if raw.endswith(("/", "\\")) else "")


def _date(mdate: int, mtime: int) -> float | None:
    """A DOS date and time (local) as epoch seconds."""
    try:
        parts = (1980 + (mdate >> 9), (mdate >> 5) & 0xF, mdate & 0x1F, mtime >> 11, (mtime >> 5) & 0x3F,
                 (mtime & 0x1F) * 2, 0, 0, -1)
        return time.mktime(parts)
    except (OverflowError, ValueError):
        return None
