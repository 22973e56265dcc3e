"""One module per format (or family of formats). Each reader is a function
``(data, ctx) -> Extraction``: ``extract`` in most modules, ``legacy.extract_doc`` /
``legacy.extract_ppt`` and ``ocr.extract_image``; ``extract.EXTRACTORS`` maps each
detected format to its reader, and ``compressed`` undoes a compression layer first.

Readers raise :class:`~ndd_desktop.ingest.formats.base.Skip` or
:class:`~ndd_desktop.ingest.formats.base.Fail` with a human-readable reason; anything
else they raise is caught by :mod:`ndd_desktop.ingest.extract` and reported as
"extractor failed".
"""
