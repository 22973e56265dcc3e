"""The collection file a command works on: opened for the command, store failures turned
into one-line errors (exit status 1), the output written so far kept."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Iterator

from ..store import Store, StoreError
from . import CommandError, UsageError


@contextmanager
def open_store(path: str, *, create: bool = False) -> Iterator[Store]:
    """Open the collection file, turning store failures into one-line errors: at opening
    and while the command reads or writes it (a damaged page met half-way through a
    listing ends the command with exit status 1, after what was already written)."""
    if not create and not os.path.exists(path):
        raise UsageError(f"no collection file at {path}")
    # refused before any work (exit 2), as a missing collection file is
    if os.path.isdir(path):
        raise UsageError(f"{path} is a folder, not a collection file")
    if create and not os.path.exists(path) and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise UsageError(f"folder {os.path.dirname(os.path.abspath(path))} does not exist (for the collection file "
                         f"{path})")
    try:
        store = Store.open(path, create=create)
    except StoreError as exc:
        raise CommandError(str(exc)) from None
    if store.unread_changes:  # what follows is the file without them: say so first
        sys.stderr.write(f"ndd: note: {store.unread_changes}\n")
    try:
        yield store
    except StoreError as exc:
        sys.stdout.flush()  # the partial output first, then the error that cut it short
        raise CommandError(str(exc)) from None
    finally:
        store.close()
