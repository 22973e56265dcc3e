"""ZIP-based office packages (ODF, PPTX, EPUB): the checks and the safe XML streaming they share.

A package is opened once, checked like a ZIP (entry count, declared expanded size,
expansion ratio, one budget per file on disk) and every ``.xml``/``.rels``/``.opf`` part
is refused when it declares a DTD or entities: all of them up front, or (``check="read"``,
what DOCX uses) each part as it is read, which spares decompressing the large parts a
reader never parses (a DOCX carries 800 KB of styles) and is as safe, since a part that is
never read is never parsed. The parts a reader needs are then streamed through lxml's
``iterparse`` with entity resolution, DTD loading and network access off, so a part is
never held as a whole tree. ``core_created`` reads an OOXML package's creation date.
"""

from __future__ import annotations

import io
import posixpath
from collections.abc import Iterator
from datetime import datetime, timezone

from lxml import etree

from ndd_desktop.ingest.formats.base import Context, Fail
from ndd_desktop.ingest.formats.xml import refuse_dtd
from ndd_desktop.ingest.formats.zip import check_archive, open_zip, read_member

_XML_PARTS = (".xml", ".rels", ".opf")


class Package:
    """An open, checked package: its parts by name, read on demand with the ZIP limits.

    ``check`` says when XML parts are checked for a DTD: "all" (every part, on opening) or
    "read" (each part when ``read`` returns it).
    """

    def __init__(self, data: bytes, ctx: Context, what: str, *, check: str = "all") -> None:
        self.what = what
        self.check_on_read = check == "read"
        self.zf = open_zip(data, what)
        try:
            infos = check_archive(self.zf, ctx)
            self.infos = {i.filename: i for i in infos}
            if not self.check_on_read:
                for info in infos:
                    if info.filename.lower().endswith(_XML_PARTS):
                        refuse_dtd(read_member(self.zf, info), info.filename)
        except BaseException:
            self.zf.close()
            raise

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *exc) -> None:
        self.zf.close()

    def has(self, name: str) -> bool:
        """True when the package holds a part of that name."""
        return name in self.infos

    def read(self, name: str) -> bytes:
        """The bytes of one part; Fail("corrupt ...: no <name>") when it is missing."""
        info = self.infos.get(name)
        if info is None:
            raise Fail(f"corrupt {self.what}: no {name}")
        data = read_member(self.zf, info)
        if self.check_on_read and name.lower().endswith(_XML_PARTS):
            refuse_dtd(data, name)
        return data

    def names(self) -> list[str]:
        """Names of the file parts, in the archive's order."""
        return list(self.infos)


def rels_part(part: str) -> str:
    """The relationships part of ``part`` (``word/document.xml``: ``word/_rels/document.xml.rels``)."""
    return posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")


def target_part(source: str, target: str) -> str:
    """The part a relationship of the part ``source`` names (``""`` for the package's own
    relationships): a target with a leading slash from the package's root, any other from
    the source part's folder."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def iterparse(data: bytes, *, events=("end",), tag=None) -> Iterator[tuple[str, etree._Element]]:
    """lxml ``iterparse`` of XML bytes with every external or expanding feature off."""
    return etree.iterparse(
        io.BytesIO(data), events=events, tag=tag, resolve_entities=False, no_network=True,
        load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True,
    )


def parse(data: bytes, what: str, part: str) -> etree._Element:
    """A small part (manifest, relationships, OPF) as a tree, through the same safe parser."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise Fail(f"corrupt {what}: {part}: {exc}") from None


def drop_done(elem: etree._Element) -> None:
    """Free a finished element and its earlier siblings (they were read already), so a
    long part streams in bounded memory."""
    elem.clear(keep_tail=True)
    parent = elem.getparent()
    if parent is None:
        return
    while elem.getprevious() is not None:
        del parent[0]


def core_created(package: Package) -> float | None:
    """``dcterms:created`` of an OOXML package's ``docProps/core.xml`` as epoch seconds
    (None when absent or not a date; Fail when the part declares a DTD or cannot be read)."""
    if not package.has("docProps/core.xml"):
        return None
    data = package.read("docProps/core.xml")  # a refused DTD is an error, as in any part read
    try:
        root = parse(data, "package", "docProps/core.xml")
        found = root.find("{http://purl.org/dc/terms/}created")
        if found is None or not (found.text or "").strip():
            return None
        return to_epoch(datetime.fromisoformat(found.text.strip().replace("Z", "+00:00")))
    except (Fail, ValueError):
        return None


def to_epoch(value: datetime | None) -> float | None:
    """A datetime as epoch seconds; naive values are taken as UTC."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    try:
        return value.timestamp()
    except (OverflowError, OSError, ValueError):
        return None
