"""Content hashes of a document's bytes: xxh3-128 (exact duplicates) and SHA-256 (fixity)."""

from __future__ import annotations

import hashlib

import xxhash


class ByteHasher:
    """Both hashes, fed incrementally."""

    def __init__(self) -> None:
        self._xxh = xxhash.xxh3_128()
        self._sha = hashlib.sha256()

    def update(self, chunk: bytes) -> None:
        """Add bytes."""
        self._xxh.update(chunk)
        self._sha.update(chunk)

    def hexdigests(self) -> tuple[str, str]:
        """(xxh3-128 hex, SHA-256 hex) of everything fed so far."""
        return self._xxh.hexdigest(), self._sha.hexdigest()


def hash_bytes(data: bytes) -> tuple[str, str]:
    """(xxh3-128 hex, SHA-256 hex) of ``data``."""
    return xxhash.xxh3_128_hexdigest(data), hashlib.sha256(data).hexdigest()
