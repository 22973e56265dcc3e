"""The options a collection's documents were read with, and what a change reads again.

How a document is read (``ingest.ExtractOptions``: a web page by its main text or whole)
decides its text, and so its sketches and pairs, without changing its bytes: the content
hash that tells a scan what changed does not see it. So the collection records the options
(the setting ``reading``), and a scan with other options reads again the files that hold an
HTML document, even when they are unchanged on disk. A document whose text comes out
different is treated as changed (its sketches are recomputed); the options are part of the
digest that decides whether the pairs must be computed again (``pair_stage.input_hash``).

While such a scan runs, the setting is ``null`` (unsettled): a scan stopped half-way leaves
documents read both ways, and the next scan, whatever its options, reads them all again.
Collections scanned before the options existed read every page whole, which is what a
missing setting means.
"""

from __future__ import annotations

from ..ingest.options import ExtractOptions
from ..store import Store

#: The setting that records the options the documents were read with.
READING_KEY = "reading"
#: What a collection without the setting was read with (every page whole).
LEGACY_READING = {"html": "all"}
#: Formats whose text depends on the options.
OPTION_FORMATS = ("html",)
_MISSING = object()


def recorded_reading(store: Store) -> dict | None:
    """The options the collection's documents were read with; None while unsettled."""
    return store.setting(READING_KEY, LEGACY_READING)


def start_reading(store: Store, options: ExtractOptions) -> set[tuple[str, str]] | None:
    """None when the documents were read with ``options``; otherwise the files (root,
    relative path) holding a document whose text depends on them, which the scan must read
    again, and the collection's reading is marked unsettled until :func:`settle_reading`."""
    stored = store.setting(READING_KEY, _MISSING)
    if (LEGACY_READING if stored is _MISSING else stored) == options.as_dict():
        if stored is _MISSING:  # say so, for the window's choice (reading_choice)
            settle_reading(store, options)
        return None
    files = {
        (d.root, d.container or d.relpath)
        for d in store.documents(status=None)
        if d.format in OPTION_FORMATS
    }
    store.set_setting(READING_KEY, None)
    return files


def settle_reading(store: Store, options: ExtractOptions) -> None:
    """Record that every document has been read with ``options`` (after the extraction)."""
    store.set_setting(READING_KEY, options.as_dict())


def reading_choice(store: Store) -> ExtractOptions:
    """The options to offer for the next scan of a collection: those its documents were read
    with, the defaults when unknown (a new collection, one from before the options, one
    whose last change of options was stopped)."""
    recorded = store.setting(READING_KEY)
    try:
        return ExtractOptions(**recorded) if isinstance(recorded, dict) else ExtractOptions()
    except (TypeError, ValueError):  # written by another release
        return ExtractOptions()


def reading_digest(options: ExtractOptions) -> str:
    """The options as a short string for the pair set's input digest."""
    return ",".join(f"{k}={v}" for k, v in sorted(options.as_dict().items()))
