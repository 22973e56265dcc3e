"""Limits that keep hostile or huge input from stalling or exhausting a scan."""

from __future__ import annotations

from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Per-file limits of extraction. All sizes in bytes.

    Attributes:
        max_file_bytes: files larger than this are skipped unread ("larger than the size
            cap"); it also caps every read, so memory stays bounded.
        max_expanded_bytes: total bytes that may be decompressed out of one file on disk
            (ZIP members, DOCX/ODT parts, nested containers together).
        max_ratio: largest allowed expansion ratio (uncompressed / compressed) of a
            compressed member or a whole archive above ``ratio_floor_bytes``.
        ratio_floor_bytes: members smaller than this are not ratio-checked.
        max_members: most entries an archive may hold.
        max_depth: how deep containers may nest (a ZIP in a mail in a ZIP is depth 3).
        max_text_chars: extracted text beyond this is cut off; status stays "ok" and
            the reason says "text truncated to N characters".
        timeout_s: wall-clock seconds one file may take in the process pool.
        max_worker_memory_bytes: address space each pool worker may take beyond what it
            holds when it starts (POSIX);
            None for no limit.
        ocr: read pictures and PDFs without a text layer by OCR when tesseract is
            installed (``ndd scan --ocr auto``); False skips them (``--ocr off``).
        ocr_languages: tesseract's ``-l`` value ("eng", "eng+fra", ...).
        ocr_page_timeout_s: wall-clock seconds one page or picture may take in tesseract.
        worker_niceness: how far below the scan's own process the pool's workers and the
            verification helpers run (``ingest.priority``): 0 from the command line; the
            window asks for more, so that it answers at once while every core reads.
    """

    max_file_bytes: int = 200 * MB
    max_expanded_bytes: int = 500 * MB
    max_ratio: float = 200.0
    # 16 MB: a log of one repeated line compresses 300:1 and more; a bomb's harm is its
    # expanded size, which max_expanded_bytes caps (a 3 MB log was refused at 1 MB)
    ratio_floor_bytes: int = 16 * MB
    max_members: int = 10_000
    max_depth: int = 4
    max_text_chars: int = 20_000_000
    timeout_s: float = 60.0
    max_worker_memory_bytes: int | None = 4096 * MB
    ocr: bool = True
    ocr_languages: str = "eng"
    ocr_page_timeout_s: float = 30.0
    worker_niceness: int = 0


def mb(n: int) -> str:
    """A byte count as a short human-readable figure in MB."""
    value = n / MB
    return f"{value:.0f} MB" if value >= 10 or value == int(value) else f"{value:.1f} MB"
