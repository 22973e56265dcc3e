"""Arrays derived from installed data, kept between runs in the user's cache folder.

Some inputs take a second to derive and never change between runs of one installation (the
spelling dictionary of the hybrid method: wordfreq's list read, normalised and profiled, in
every process that needs it). They are saved once as a NumPy ``.npz`` file named for what
they are and stamped with everything they were derived from; a file whose stamp differs, or
that cannot be read, is ignored and replaced. Nothing here is needed for a result: a cache
folder that cannot be written only costs the time of deriving the arrays again.

The folder is ``platformdirs.user_cache_dir("ndd-desktop")``, or ``$NDD_CACHE_DIR``.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

ENV_VAR = "NDD_CACHE_DIR"
_STAMP = "__stamp__"


def cache_dir() -> Path:
    """The folder cached arrays go to (not created here)."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("ndd-desktop", appauthor=False))


def _path(name: str) -> Path:
    return cache_dir() / f"{name}.npz"


def load(name: str, stamp: str) -> dict[str, np.ndarray] | None:
    """The arrays saved under ``name`` with this ``stamp``, or None (none saved, another
    stamp, or a file that cannot be read: a damaged cache is never an error)."""
    try:
        with np.load(_path(name), allow_pickle=False) as data:
            if _STAMP not in data.files or bytes(data[_STAMP]).decode("utf-8") != stamp:
                return None
            return {k: data[k] for k in data.files if k != _STAMP}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnicodeDecodeError):
        return None


def save(name: str, stamp: str, arrays: dict[str, np.ndarray]) -> bool:
    """Save ``arrays`` under ``name`` with ``stamp``, replacing the file at once (another
    process never reads half a file); False when the cache folder cannot be written."""
    folder = cache_dir()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".npz", dir=folder)
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays, **{_STAMP: np.frombuffer(stamp.encode("utf-8"), dtype=np.uint8)})
        os.replace(tmp, _path(name))
        return True
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        return False
