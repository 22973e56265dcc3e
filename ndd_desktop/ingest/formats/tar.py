"""Tar archives (``.tar``; ``.tar.gz``, ``.tgz``, ``.tar.xz``, ``.tar.bz2`` once the
compressed layer is undone): each regular file is a document ``archive.tar!path/inside``.

Read with the standard library's ``tarfile`` from bytes already in memory; nothing is
ever extracted to disk. The member count is limited like a ZIP's; links, devices and
FIFOs are listed with a reason and never followed; sparse members (which expand from
nothing) are refused; member names are labels, cleaned of ``..`` and absolute parts.
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip, too_many_entries
from ndd_desktop.ingest.formats.zip import member_label


def extract(data: bytes, ctx: Context) -> Extraction:
    """A tar container: no text of its own, one member per regular file inside."""
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:")
    except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
        raise Fail(f"corrupt or truncated TAR: {exc}") from None
    members: list[tarfile.TarInfo | None] = []
    broken = ""
    try:
        while True:
            info = archive.next()
            if info is None:
                break
            if not info.isdir():
                members.append(info)
            if len(members) > ctx.limits.max_members:
                raise Skip(too_many_entries(None, ctx.limits.max_members))
    except tarfile.TarError as exc:
        if not members:
            raise Fail(f"corrupt or truncated TAR: {exc}") from None
        broken = str(exc) or type(exc).__name__
        members.append(None)  # the rest of the archive is unreadable: say so after the good part
    return Extraction(text=None, members=_members(archive, members, broken))


def _members(archive: tarfile.TarFile, infos: list, broken: str) -> Iterator[Member]:
    try:
        for number, info in enumerate(infos, 1):
            if info is None:
                yield Member("", None, status="error",
                             reason=f"corrupt TAR after member {number - 1}: {broken}")
                break
            name = member_label(info.name, number)
            date = float(info.mtime) if isinstance(info.mtime, (int, float)) and info.mtime > 0 else None
            if info.issym() or info.islnk():
                yield Member(name, None, date, status="skipped", reason="link inside an archive (not followed)")
            elif not info.isreg():
                yield Member(name, None, date, status="skipped", reason=_special(info))
            elif info.sparse is not None or info.type == tarfile.GNUTYPE_SPARSE:
                yield Member(name, None, date, status="skipped",
                             reason="zip bomb protection: sparse member (expands from nothing)")
            else:
                try:
                    fh = archive.extractfile(info)
                    payload = fh.read() if fh is not None else b""
                except (tarfile.TarError, EOFError, OSError, ValueError) as exc:
                    yield Member(name, None, date, status="error", reason=f"corrupt archive member: {exc}")
                    continue
                if len(payload) != info.size:
                    yield Member(name, None, date, status="error",
                                 reason="corrupt archive member: truncated")
                    continue
                yield Member(name, payload, date)
    finally:
        archive.close()


def _special(info: tarfile.TarInfo) -> str:
    kind = "FIFO" if info.isfifo() else "device" if (info.ischr() or info.isblk()) else "special entry"
    return f"not a regular file ({kind}) inside an archive"
