"""Where the application finds its bundled files and keeps its collections."""

from __future__ import annotations

import hashlib
import os
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


def folder_store_path(folder: str | os.PathLike, base: Path | None = None) -> Path:
    """The default store file of the collection opened from ``folder``.

    ``<data dir>/collections/<folder name>-<8 hex digits>.ndd.sqlite``: the digits hash the
    folder's absolute path, so two folders of the same name (``/a/letters``, ``/b/letters``)
    get two collections. A store made before the hash was added (``<folder name>.ndd.sqlite``)
    is used instead when it exists and its folders are exactly ``folder``.
    """
    folder = os.path.abspath(os.fspath(folder))
    name = os.path.basename(folder.rstrip(os.sep)) or "collection"
    digest = hashlib.sha256(os.path.normcase(folder).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    legacy = default_store_path(name, base)
    if legacy.is_file() and _roots_are(legacy, folder):
        return legacy
    return default_store_path(f"{name}-{digest}", base)


def _roots_are(store_path: Path, folder: str) -> bool:
    """True when the store at ``store_path`` is a collection of exactly ``folder``."""
    from ..store import Store, StoreError

    try:
        with Store.open(store_path, create=False) as store:
            roots = [r.path for r in store.documents.roots()]
    except (StoreError, OSError, ValueError):
        return False
    return [os.path.normcase(os.path.abspath(p)) for p in roots] == [os.path.normcase(folder)]


def display_name(store_path: str | os.PathLike) -> str:
    """A collection's name for the title bar: the store's file name without the suffix and
    without the path hash of :func:`folder_store_path`."""
    stem = Path(store_path).name.removesuffix(STORE_SUFFIX)
    return re.sub(r"-[0-9a-f]{8}$", "", stem) or stem


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
