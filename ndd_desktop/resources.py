"""Where the application's bundled files are: icons, style sheet, word lists, demo collection.

The files live in the top-level ``resources/`` folder of the source tree. They reach the
running program by one of four roads, tried in this order:

1. ``NDD_DESKTOP_RESOURCES``: an environment variable naming the folder (tests, packagers);
2. a PyInstaller bundle: ``resources/`` beside the executables (``sys._MEIPASS``);
3. an installed wheel: ``ndd_desktop/_resources/`` inside the package (``setup.py`` maps
   the top-level folder there at build time);
4. a source checkout or an editable install: ``resources/`` beside the package.

Only the standard library is used here, so every layer may import this module.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

#: Environment variable that overrides where the resources are.
ENV_VAR = "NDD_DESKTOP_RESOURCES"
#: Sizes (pixels, square) at which the application icon is shipped as PNG.
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)
#: Stem of the icon files: ``resources/icons/<ICON_NAME>-<size>.png`` and ``.svg``.
ICON_NAME = "ndd-desktop"

_PACKAGE_DIR = Path(__file__).resolve().parent
# A file that every complete resources folder has: tells a real one from an empty husk.
_MARKER = Path("icons") / f"{ICON_NAME}.svg"


class ResourcesNotFound(FileNotFoundError):
    """No resources folder was found by any of the roads this module knows."""


def _candidates() -> list[Path]:
    """Folders that may hold the resources, most specific first."""
    found: list[Path] = []
    env = os.environ.get(ENV_VAR)
    if env:
        found.append(Path(env))
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        found.append(Path(bundle) / "resources")
    found.append(_PACKAGE_DIR / "_resources")
    found.append(_PACKAGE_DIR.parent / "resources")
    return found


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder holding the bundled resources (``icons/``, ``demo/``, ...).

    Raises:
        ResourcesNotFound: naming every place that was looked at.
    """
    candidates = _candidates()
    for folder in candidates:
        if (folder / _MARKER).is_file():
            return folder.resolve()
    tried = ", ".join(str(c) for c in candidates)
    raise ResourcesNotFound(f"ndd-desktop resources not found (looked in: {tried})")


def demo_folder() -> Path:
    """The small demo collection: a folder of near-duplicate documents in several formats.

    Treat it as read-only, like every source folder: a scan's database goes elsewhere.
    """
    return resources_dir() / "demo"


def demo_roots() -> list[tuple[Path, bool]]:
    """The demo's two scan roots as ``(folder, reference)``: new material, then the holdings.

    ``incoming/`` is scanned as usual; ``holdings/`` is a reference folder (compared with
    the incoming documents, not within itself; its copy is the keeper of a group).
    """
    demo = demo_folder()
    return [(demo / "incoming", False), (demo / "holdings", True)]


def icon_path(size: int | None = None) -> Path:
    """The application icon: the PNG closest to ``size`` pixels (not smaller when possible).

    Args:
        size: wanted edge length in pixels; ``None`` gives the scalable SVG.
    """
    icons = resources_dir() / "icons"
    if size is None:
        return icons / f"{ICON_NAME}.svg"
    larger = [s for s in ICON_SIZES if s >= size]
    best = min(larger) if larger else max(ICON_SIZES)
    return icons / f"{ICON_NAME}-{best}.png"
