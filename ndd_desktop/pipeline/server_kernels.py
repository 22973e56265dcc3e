"""Imported by the workers' server before it forks any worker (``pipeline.kernel_preload``):
loads the compiled word-sketch loop (``core.minhash_kernel``) and the verification's
(``core.share_kernel``), once, so that every worker and verification helper forked from
the server has them. A kernel that cannot load (no numba, no compiler for a first
compilation) is left unloaded: the workers then take numpy's path and the helpers load
the verification's kernel themselves, as without this module.
"""

from __future__ import annotations

from ..core import minhash_kernel, share_kernel

for _load in (minhash_kernel.load, share_kernel.load):
    try:
        _load()
    except Exception:  # noqa: BLE001, S110 - see the module docstring
        pass
