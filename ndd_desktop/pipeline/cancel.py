"""Cancelling a scan: a thread-safe token the window or a signal handler sets."""

from __future__ import annotations

import threading


class ScanCancelled(Exception):
    """The scan stopped because its token was cancelled; finished work is in the store."""


class CancelToken:
    """Set once by :meth:`cancel`; read by the job between batches (any thread)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the job to stop at the next batch boundary."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`ScanCancelled` when cancelled."""
        if self._event.is_set():
            raise ScanCancelled("scan cancelled")
