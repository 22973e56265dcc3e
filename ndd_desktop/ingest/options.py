"""How documents are read, as opposed to how much of them (``Limits``).

One choice so far: how a web page is read. A page saved from a site carries its menus,
header, sidebar and footer, the same on every page of the site, which make all pages of one
site look alike and one article saved from two sites look different. ``html="main"`` (the
default) reads a page by its main content (``ingest.formats.html``); ``html="all"`` keeps
every visible word, as before.

A collection remembers the options its documents were read with (``pipeline.reading``), so
a scan with other options reads the affected files again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

#: How a web page can be read: its main content, or all its visible text.
HTML_READINGS = ("main", "all")


@dataclass(frozen=True)
class ExtractOptions:
    """Choices of how documents are read (picklable: it travels to the extraction workers).

    Attributes:
        html: "main" reads an HTML page by its main content (menus, headers, sidebars and
            footers left out; the whole page when no main content is found); "all" reads
            every visible word of the page.
    """

    html: str = "main"

    def __post_init__(self) -> None:
        if self.html not in HTML_READINGS:
            raise ValueError(f"html: {self.html!r} is not one of {', '.join(HTML_READINGS)}")

    def as_dict(self) -> dict[str, str]:
        """The options as a JSON-ready dict (what a collection records)."""
        return asdict(self)
