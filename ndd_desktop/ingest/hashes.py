"""Content hashes of a document's bytes: xxh3-128 (exact duplicates) and SHA-256 (fixity)."""

from __future__ import annotations

import hashlib

import xxhash


def hash_bytes(data: bytes) -> tuple[str, str]:
    """(xxh3-128 hex, SHA-256 hex) of ``data``."""
    return xxhash.xxh3_128_hexdigest(data), hashlib.sha256(data).hexdigest()
