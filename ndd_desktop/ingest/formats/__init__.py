"""One module per format. Each exposes ``extract(data, ctx) -> Extraction``.

Extractors raise :class:`~ndd_desktop.ingest.formats.base.Skip` or
:class:`~ndd_desktop.ingest.formats.base.Fail` with a human-readable reason; anything
else they raise is caught by :mod:`ndd_desktop.ingest.extract` and reported as
"extractor failed".
"""
