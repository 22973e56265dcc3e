"""Where the application finds its bundled files and keeps its collections."""

from __future__ import annotations

import re
from pathlib import Path

import platformdirs

import ndd_desktop

APP_NAME = "ndd-desktop"
STORE_SUFFIX = ".ndd.sqlite"


def resources_folder() -> Path:
    """The ``resources`` folder (``ndd_desktop.resources`` knows every road to it)."""
    try:
        from ..resources import resources_dir

        return resources_dir()
    except (ImportError, FileNotFoundError):
        package = Path(ndd_desktop.__file__).resolve().parent
        for candidate in (package.parent / "resources", package / "_resources"):
            if candidate.is_dir():
                return candidate
        return package.parent / "resources"


def demo_folder() -> Path:
    """The small demo collection shipped with the application."""
    return resources_folder() / "demo"


def demo_roots() -> list[tuple[str, bool]]:
    """The demo's folders as (path, reference): each sub-folder, ``holdings`` as reference."""
    base = demo_folder()
    subs = sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
    return [(str(p), p.name == "holdings") for p in subs] or [(str(base), False)]


def icon_file() -> Path | None:
    """The application icon (SVG), if the resources have one."""
    try:
        from ..resources import icon_path

        path = icon_path(256)
        return path if path.is_file() else None
    except (ImportError, FileNotFoundError):
        return None


def data_dir() -> Path:
    """The user's data folder for ndd-desktop (platformdirs)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_store_path(name: str, base: Path | None = None) -> Path:
    """The default store file for a collection called ``name``.

    ``<data dir>/collections/<name>.ndd.sqlite``; ``base`` replaces the data folder (tests).
    """
    safe = re.sub(r"[^\w.-]+", "_", name).strip("._") or "collection"
    return Path(base or data_dir()) / "collections" / f"{safe}{STORE_SUFFIX}"


def is_store_file(path: Path) -> bool:
    """True when ``path`` looks like a collection store (SQLite header or our suffix)."""
    if not path.is_file():
        return False
    if path.name.endswith(STORE_SUFFIX):
        return True
    try:
        with path.open("rb") as fh:
            return fh.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False
