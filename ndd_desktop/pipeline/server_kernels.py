"""Imported by the workers' server before it forks any worker (``pipeline.kernel_preload``):
makes the compiled word-sketch loop (``core.minhash_kernel``) and the verification's
(``core.share_kernel``) ready, once, so that every worker and verification helper forked
from the server has them. Where the package's C extension is built (``core.native``)
they are ready on import and numba is not loaded at all; otherwise numba's versions are
loaded here. A kernel that cannot load (no numba, no compiler for a first compilation)
is left unloaded: the workers then take numpy's path and the helpers load the
verification's kernel themselves, as without this module.
"""

from __future__ import annotations

from ..core import minhash_kernel, native, share_kernel

if native.LOOPS is None:
    for _load in (minhash_kernel.load, share_kernel.load):
        try:
            _load()
        except Exception:  # noqa: BLE001, S110 - see the module docstring
            pass
