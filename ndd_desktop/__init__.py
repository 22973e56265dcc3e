"""ndd-desktop: find near-duplicate documents in archival collections."""

__version__ = "0.1.0"
