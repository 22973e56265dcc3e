"""Compiling a kernel module's loops with numba when they are first needed, and loading them
once per process without SciPy's linear algebra.

A kernel module (``clustering_kernel``, ``cover_kernel``) holds its loops as plain Python
functions: run as they are, they need neither numba nor a compilation, which suits a small
input; :class:`Compiled` makes numba versions of them on first use (numba imported then,
the machine code kept in numba's cache), which a large input needs. The compiled functions
call each other's compiled versions: each is compiled with a copy of the module's globals in
which the names of the others are their compiled versions.

Loading compiled code makes numba import its NumPy support, which asks for SciPy's BLAS
(for ``np.dot`` in compiled code) and so imports ``scipy.linalg`` when SciPy is installed:
about a second for nothing the kernels of this package use. While a kernel is first called
here, that module is hidden (an import of it fails at once), so numba records "no BLAS"
for the process; the stand-in is removed afterwards, so a later import of SciPy works.
(``core.share_kernel`` does the same for the verification kernel, ``core.set_lsh.warm`` for
the banded search's.)
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable
from typing import Any

_BLAS = "scipy.linalg.cython_blas"


class Compiled:
    """The functions ``names`` of a module (its ``globals()``) compiled with numba, made on
    the first call (``nogil``: a worker thread's loop lets the window's thread run)."""

    def __init__(self, module_globals: dict[str, Any], names: tuple[str, ...]):
        self._globals = module_globals
        self._names = names
        self._lock = threading.Lock()
        self._made: types.SimpleNamespace | None = None

    def __call__(self) -> types.SimpleNamespace:
        with self._lock:
            if self._made is None:
                from numba import njit

                namespace = dict(self._globals)
                for name in self._names:
                    f = self._globals[name]
                    g = types.FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
                    g.__qualname__, g.__module__, g.__doc__ = f.__qualname__, f.__module__, f.__doc__
                    namespace[name] = njit(cache=True, nogil=True)(g)
                self._made = types.SimpleNamespace(**{name: namespace[name] for name in self._names})
            return self._made


class KernelLoader:
    """Calls ``warm`` (a first call of each compiled function on tiny inputs) once, from
    whichever thread asks first; the others wait for it."""

    def __init__(self, warm: Callable[[], object]):
        self._warm = warm
        self._loaded = threading.Event()
        self._loading = threading.Lock()

    def is_loaded(self) -> bool:
        """Whether the functions are loaded in this process (or in the one it was forked from)."""
        return self._loaded.is_set()

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


#: Below this much work (edges plus documents) a kernel module's loops run as plain Python:
#: a few milliseconds, against numba's import and the load of the compiled code (0.7-1 s
#: once per process; a compilation of ~20 s the first time on a machine).
SMALL = 20_000


def loops_for(work: int, small: int, module_name: str, load: KernelLoader, compiled: Compiled) -> Any:
    """The loops to run ``work`` with: the module's own functions (plain Python) below
    ``small``, else their compiled versions (loaded on first use)."""
    if work < small:
        return sys.modules[module_name]
    load()
    return compiled()
