"""Loading a compiled (numba) kernel once per process, without SciPy's linear algebra.

Loading compiled code makes numba import its NumPy support, which asks for SciPy's BLAS
(for ``np.dot`` in compiled code) and so imports ``scipy.linalg`` when SciPy is installed:
about a second for nothing the kernels of this package use. While a kernel is first called
here, that module is hidden (an import of it fails at once), so numba records "no BLAS"
for the process; the stand-in is removed afterwards, so a later import of SciPy works.
(``core.share_kernel`` does the same for the verification kernel.)
"""

from __future__ import annotations

import sys
import threading
from typing import Callable

_BLAS = "scipy.linalg.cython_blas"


class KernelLoader:
    """Calls ``warm`` (a first call of each compiled function on tiny inputs) once, from
    whichever thread asks first; the others wait for it."""

    def __init__(self, warm: Callable[[], object]):
        self._warm = warm
        self._loaded = threading.Event()
        self._loading = threading.Lock()

    def __call__(self) -> None:
        if self._loaded.is_set():
            return
        with self._loading:
            if self._loaded.is_set():
                return
            hide = _BLAS not in sys.modules
            if hide:
                sys.modules[_BLAS] = None  # type: ignore[assignment]
            try:
                self._warm()
            finally:
                if hide and sys.modules.get(_BLAS, 0) is None:
                    del sys.modules[_BLAS]
            self._loaded.set()
