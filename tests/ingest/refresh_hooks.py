"""An extractor that marks its documents, for the pool's ``refresh`` test (module level, so
worker processes can import it)."""

from __future__ import annotations

from dataclasses import dataclass

from ndd_desktop.ingest.extract import extract_entry


@dataclass(frozen=True)
class Tagged:
    """``extract_entry``, each document marked with ``tag`` (attribute ``tag``)."""

    tag: str

    def __call__(self, entry, limits):
        docs = extract_entry(entry, limits)
        for d in docs:
            d.tag = self.tag
        return docs
