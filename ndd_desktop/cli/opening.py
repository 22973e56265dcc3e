"""The collection file a command works on: opened for the command, store failures turned
into one-line errors (exit status 1), the output written so far kept."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

from ..store import Store, StoreError, StoreNotThere
from . import CommandError, UsageError


@contextmanager
def open_store(path: str, *, create: bool = False) -> Iterator[Store]:
    """Open the collection file, turning store failures into one-line errors: at opening
    and while the command reads or writes it (a damaged page met half-way through a
    listing ends the command with exit status 1, after what was already written)."""
    try:
        store = Store.open(path, create=create)
    except StoreNotThere as exc:  # refused before any work
        raise UsageError(str(exc)) from None
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
