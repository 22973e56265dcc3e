"""7-Zip archives through py7zr: each file is a document ``archive.7z!path/inside``.

The declared sizes are checked before anything is decompressed (entry count, total
expanded size against the file's budget, expansion ratio), as for a ZIP; members are
then decompressed into memory buffers that never keep more than a member declares, so
a header that lies costs time (bounded by the pool's time limit), not memory. Encrypted
archives are skipped with a reason; symbolic links are listed, not followed; a member
whose name is absolute or holds ``..`` is listed with a reason and not read (py7zr
refuses it), the other members are. Nothing is written to disk.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import py7zr
from py7zr.exceptions import ArchiveError, PasswordRequired
from py7zr.io import Py7zIO, WriterFactory

from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Member, Skip, too_many_entries
from ndd_desktop.ingest.formats.zip import member_label
from ndd_desktop.ingest.limits import mb

_BROKEN = (ArchiveError, EOFError, OSError, ValueError, KeyError, IndexError, TypeError, AttributeError)


def extract(data: bytes, ctx: Context) -> Extraction:
    """A 7z container: no text of its own, one member per file inside."""
    limits = ctx.limits
    try:
        archive = py7zr.SevenZipFile(io.BytesIO(data), mode="r")
    except PasswordRequired:
        raise Skip("encrypted: no password") from None
    except _BROKEN as exc:
        raise Fail(f"corrupt or truncated 7Z: {_short(exc)}") from None
    with archive:
        try:
            if archive.needs_password():
                raise Skip("encrypted: no password")
            infos = [i for i in archive.list() if not i.is_directory]
        except _BROKEN as exc:
            raise Fail(f"corrupt or truncated 7Z: {_short(exc)}") from None
        if len(infos) > limits.max_members:
            raise Skip(too_many_entries(len(infos), limits.max_members))
        total = sum(max(0, i.uncompressed or 0) for i in infos)
        if total > limits.ratio_floor_bytes and total > limits.max_ratio * max(len(data), 1):
            raise Skip(f"zip bomb protection: expands {total / max(len(data), 1):.0f}:1 "
                       f"(limit {limits.max_ratio:.0f}:1)")
        if total > ctx.budget.remaining:
            raise Skip(f"zip bomb protection: declares {mb(total)} expanded "
                       f"(limit {mb(limits.max_expanded_bytes)})")
        ctx.budget.take(total)
        factory = _Buffers({i.filename: max(0, i.uncompressed or 0) for i in infos})
        # py7zr refuses a whole archive over one name that climbs out of it: read the others
        safe = [i.filename for i in infos if not _climbs(i.filename)]
        try:
            archive.extract(targets=safe, factory=factory)
        except PasswordRequired:
            raise Skip("encrypted: no password") from None
        except (*_BROKEN, RuntimeError) as exc:
            raise Fail(f"corrupt 7Z: {_short(exc)}") from None
    return Extraction(text=None, members=_members(infos, factory))


def _members(infos, factory: _Buffers) -> Iterator[Member]:
    for number, info in enumerate(infos, 1):
        name = member_label(info.filename, number)
        date = info.creationtime.timestamp() if info.creationtime is not None else None
        if info.is_symlink:
            yield Member(name, None, date, status="skipped", reason="link inside an archive (not followed)")
            continue
        if _climbs(info.filename):
            yield Member(name, None, date, status="skipped",
                         reason="member name leads out of the archive (absolute or '..'): not read")
            continue
        buffer = factory.buffers.get(info.filename)
        if buffer is None and not info.uncompressed:
            yield Member(name, b"", date)  # an empty file: py7zr writes nothing for it
        elif buffer is None:
            yield Member(name, None, date, status="error", reason="corrupt archive member: not in the archive's data")
        elif buffer.overflow:
            yield Member(name, None, date, status="skipped",
                         reason="zip bomb protection: member larger than it declares")
        else:
            yield Member(name, buffer.getvalue(), date)


def _climbs(name: str) -> bool:
    """True for an absolute member name or one with a ".." part (py7zr will not read it)."""
    parts = name.replace("\\", "/").split("/")
    return name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":")


class _Capped(Py7zIO):
    """An in-memory member that keeps at most its declared size."""

    def __init__(self, cap: int) -> None:
        self.cap, self.overflow = cap, False
        self._buf = io.BytesIO()

    def write(self, s) -> int:
        room = self.cap - self._buf.tell()
        if len(s) > room:
            self.overflow = True
            s = s[:max(room, 0)]
        self._buf.write(s)
        return len(s)

    def read(self, size: int | None = None) -> bytes:
        return self._buf.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._buf.seek(offset, whence)

    def flush(self) -> None:
        pass

    def size(self) -> int:
        return self._buf.getbuffer().nbytes

    def getvalue(self) -> bytes:
        return self._buf.getvalue()


class _Buffers(WriterFactory):
    """py7zr's writer factory: one capped buffer per member, found again by name."""

    def __init__(self, declared: dict[str, int]) -> None:
        self.declared = declared
        self.buffers: dict[str, _Capped] = {}

    def create(self, filename: str) -> Py7zIO:
        key = filename if filename in self.declared else filename.lstrip("/")
        buffer = _Capped(self.declared.get(key, 0))
        self.buffers[key] = buffer
        return buffer


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    text = text if len(text) <= 160 else text[:157] + "..."
    return f"{type(exc).__name__}: {text}" if str(exc) else text
