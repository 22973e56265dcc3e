"""Loading a later stage's compiled kernels on a thread while the files are read.

The pair search of a large collection calls numba kernels (the banded search of the
set-based methods, ``core.set_lsh``). Importing numba and loading their cached machine code
takes about a second the first time in a process, which the pair stage would otherwise
spend after the extraction, with every core idle but one. The extraction stage leaves this
process mostly waiting for its workers, so a scan that reads files starts
``Method.pair_search_warmup`` on a thread here and the pair stage finds the kernels loaded
(Python's import lock and numba's compilation lock make a stage that arrives first wait
for the thread instead of loading twice).

A warm-up that fails is ignored: the pair stage then loads the kernels itself and reports
whatever is wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class KernelWarmup:
    """Runs ``warm`` on a daemon thread (nothing when it is None): at once, or with
    ``later`` when :meth:`start` is called (the scan starts it once its workers have their
    first files: numba's import on a thread beside the pool's start held the interpreter
    and forked the workers 0.1 s later); ``wait`` joins it (at once when it never started)."""

    def __init__(self, warm: Callable[[], None] | None, later: bool = False) -> None:
        self.failed: BaseException | None = None
        self._thread = None
        if warm is not None:
            self._thread = threading.Thread(target=self._run, args=(warm,), name="ndd-kernel-warmup", daemon=True)
            if not later:
                self._thread.start()

    def start(self) -> None:
        """Start the thread (once; a later call does nothing)."""
        if self._thread is not None and self._thread.ident is None:
            self._thread.start()

    def _run(self, warm: Callable[[], None]) -> None:
        try:
            warm()
        except BaseException as exc:  # noqa: BLE001 - the pair stage loads them again and reports
            self.failed = exc

    def wait(self) -> None:
        """Until the warm-up has ended (at once when there was none or it never started)."""
        if self._thread is not None and self._thread.ident is not None:
            self._thread.join()
