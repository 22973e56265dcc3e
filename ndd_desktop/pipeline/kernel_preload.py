"""Which scans have their workers' server load compiled code before it forks the workers,
named without importing any of it (the command line asks before it imports the rest).

A worker forked from a server that has loaded numba and a kernel has them at no cost;
one that loads them itself pays about 0.3 s of CPU (numba's import and the cached machine
code), and a verification helper the same. So for a method whose workers sketch with
compiled code the server imports :data:`MODULE` too, which loads that kernel and the
verification's (``core.share_kernel``); the helpers, forked from the same server, then
start with both. Those methods are minhash (its word sketches: ``core.minhash_kernel``)
and the methods whose own search may cover part of the range (``Method.partial_search``),
whose workers make the same word sketches for the search that completes it
(``pipeline.completion``). For the others the server stays as it was: a helper's load
beside the workers costs what the server's would, and the workers would wait for it.
"""

from __future__ import annotations

#: The module whose import loads the kernels (``pipeline.server_kernels``).
MODULE = "ndd_desktop.pipeline.server_kernels"
#: The methods whose workers sketch with compiled code once it is loaded (minhash, and
#: those with ``partial_search``, for the completing word sketches).
METHODS = frozenset({"minhash", "qgram", "bottomk", "fingerprint"})


def modules_for(method: str | None) -> tuple[str, ...]:
    """What the workers' server of a scan with ``method`` imports beyond the readers and
    the extractor's module."""
    return (MODULE,) if method in METHODS else ()
