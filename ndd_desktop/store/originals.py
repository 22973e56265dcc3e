"""Texts that are their own file: kept as a mark, read again from the original.

A plain UTF-8 text file is its extracted text, byte for byte. Storing it again (even
compressed) only doubles what the archive already holds, so for such a document the
collection keeps an empty ``document_text`` row, the mark :data:`ORIGINAL`, and the text is
read from the file when it is asked for. The document's size and content hash (xxh3-128,
taken when it was scanned) say whether the file still holds that text: a file changed,
moved or unreadable since the scan gives no text (``Documents.text`` returns None and
``Documents.text_missing`` says why) until a rescan reads it again.

Which documents qualify is decided from the text alone (:func:`is_original`): a file on disk
(not a member of a container) whose text, encoded as UTF-8, has the file's size and hash.
A text that was decoded from another encoding, had a byte order mark or NUL bytes removed,
or was extracted from markup never matches, and is stored compressed as before.
"""

from __future__ import annotations

import os

import xxhash

#: The ``document_text.data`` of a document whose text is its file (a compressed text is
#: never empty: a zstd frame has a header, a zlib stream too).
ORIGINAL = b""


def is_original(text: str, *, container: str | None, size: int, xxh128: str | None) -> bool:
    """Whether ``text`` is exactly the bytes of the document's own file, as UTF-8."""
    if container or not xxh128:
        return False
    try:
        data = text.encode("utf-8")  # a lone surrogate: not what a file decodes to
    except UnicodeEncodeError:
        return False
    return len(data) == size and xxhash.xxh3_128_hexdigest(data) == xxh128


def read_original(path: str, size: int, xxh128: str) -> tuple[str | None, str]:
    """(text, "") of a file that still holds the scanned content, else (None, why not)."""
    try:
        with open(path, "rb") as fh:
            if os.fstat(fh.fileno()).st_size != size:
                return None, "the file changed since the scan (its size differs)"
            data = fh.read(size + 1)
    except FileNotFoundError:
        return None, "the file is no longer there"
    except OSError as exc:
        return None, f"the file cannot be read ({exc.strerror or exc})"
    if len(data) != size or xxhash.xxh3_128_hexdigest(data) != xxh128:
        return None, "the file changed since the scan (its content differs)"
    return data.decode("utf-8", "replace"), ""  # the scanned bytes: they were UTF-8
