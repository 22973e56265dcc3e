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
A collection that holds no document yet records the options at once instead: every
document its first scan stores is read with them, so a first scan stopped half-way
(Ctrl-C, a lost cluster) resumes with the files not read yet, as it says, where it read
every text and web page again.
Collections scanned before the options existed read every page whole, which is what a
missing setting means.
"""

from __future__ import annotations

from ..ingest.options import ExtractOptions
from ..ingest.reasons import NOT_A_FILE_REASONS, UNREAD_REASONS
from ..store import Settings, Store

#: The setting that records the options the documents were read with.
READING_KEY = "reading"
#: What a collection without the setting was read with (every page whole).
LEGACY_READING = {"html": "all"}
#: Formats whose text depends on the options.
OPTION_FORMATS = ("html",)
#: The generation of the readers: bumped when a release reads files that earlier ones
#: skipped or failed (2: compressed files, spreadsheets, OCR, ODT files odfpy could not
#: parse; 3: GIF, BMP and WebP scans by OCR, the whole members of a ZIP cut off in
#: transfer; 4: UTF-16 without a byte-order mark in scripts other than Latin, which was
#: "binary content"). A collection read by an older generation reads its skipped and failed
#: files once more; those it can read now become documents.
READERS = 4
#: The generation of the web-page reader: bumped when the same page and options give
#: another text (2: a page with none of a site's furniture is read whole, where
#: trafilatura dropped its lists and subheadings). A collection read by an older one
#: reads its web pages again once, so that old and new pages are compared as read alike.
HTML_READER = 2
#: The generation of the text decoders and the message readers: bumped when the same
#: bytes of a text, page or message give another text (2: legacy code pages chosen by the
#: letters they give, mail bodies without a charset decoded as text files are, a
#: message's text its body without its header lines, RTF's Mac character set, old Mac
#: line ends; 3: Mac Roman and DOS code pages, a mail's damaged base64, the footnotes,
#: endnotes, comments, headers and footers of DOCX and RTF files; 4: ISO-2022-JP and -KR
#: text, which was read as UTF-8 with its escape sequences, and the text of an RTF file
#: after a picture stored as raw bytes, which was lost; a presentation's speaker notes
#: after its slides, in PPTX and ODP alike; an XLSX formula stored without its value). A
#: collection read by an older one reads those files again once.
TEXT_READER = 4
#: Formats whose text those decoders and readers give.
TEXT_FORMATS = ("txt", "md", "html", "xml", "eml", "msg", "rtf", "docx", "pptx", "odp", "xlsx")
#: What the recorded reading holds besides the options.
_GENERATIONS = ("readers", "html_reader", "text_reader")
_MISSING = object()


def recorded_reading(settings: Settings) -> dict | None:
    """The options the collection's documents were read with; None while unsettled."""
    return settings.get(READING_KEY, LEGACY_READING)


def start_reading(store: Store, options: ExtractOptions) -> set[tuple[str, str]] | None:
    """None when the documents were read with ``options``; otherwise the files (root,
    relative path) holding a document whose text depends on them, which the scan must read
    again, and the collection's reading is marked unsettled until :func:`settle_reading`."""
    stored = store.settings.get(READING_KEY, _MISSING)
    old = LEGACY_READING if stored is _MISSING else stored
    if old == _recorded(options):
        return None
    if store.documents.count(status=None) == 0:  # nothing read yet: all of it will be read so
        settle_reading(store.settings, options)
        return None
    same_options = isinstance(old, dict) and {k: v for k, v in old.items() if k not in _GENERATIONS} == options.as_dict()
    same_readers = isinstance(old, dict) and old.get("readers", 1) == READERS
    # the whole-page reader is unchanged: only main-text readings depend on the generation
    same_pages = same_options and (options.html != "main" or old.get("html_reader", 1) == HTML_READER)
    same_texts = isinstance(old, dict) and old.get("text_reader", 1) == TEXT_READER
    files = set()
    for d in store.documents.all(status=None):
        if (not same_pages and d.format in OPTION_FORMATS) or (not same_texts and d.format in TEXT_FORMATS):
            files.add((d.root, d.container or d.relpath))
        elif not same_readers and d.status != "ok" and not (d.reason or "").startswith(NOT_A_FILE_REASONS + UNREAD_REASONS):
            files.add((d.root, d.container or d.relpath))
    store.settings.put(READING_KEY, None)
    return files


def _recorded(options: ExtractOptions) -> dict:
    """What a collection records after a reading with ``options`` by these readers."""
    return {**options.as_dict(), "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}


def settle_reading(settings: Settings, options: ExtractOptions) -> None:
    """Record that every document has been read with ``options`` (after the extraction)."""
    settings.put(READING_KEY, _recorded(options))


def reading_choice(settings: Settings) -> ExtractOptions:
    """The options to offer for the next scan of a collection: those its documents were read
    with, the defaults when unknown (a new collection, one from before the options, one
    whose last change of options was stopped)."""
    recorded = settings.get(READING_KEY)
    try:
        if not isinstance(recorded, dict):
            return ExtractOptions()
        return ExtractOptions(**{k: v for k, v in recorded.items() if k not in _GENERATIONS})
    except (TypeError, ValueError):  # written by another release
        return ExtractOptions()


def reading_digest(options: ExtractOptions) -> str:
    """The options as a short string for the pair set's input digest."""
    return ",".join(f"{k}={v}" for k, v in sorted(options.as_dict().items()))
