"""The fixture that runs a kernel test twice: with the grouping's loops as plain Python and
compiled (``core.kernel_load``: a small input's way and a large one's)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["plain", "compiled"], autouse=True)
def loops(request, monkeypatch):
    """Every test twice: the loops as plain Python (a small input's way) and compiled (a
    large one's)."""
    from ndd_desktop.core import clustering_kernel, cover_kernel

    for module in (clustering_kernel, cover_kernel):
        monkeypatch.setattr(module, "SMALL", 10**12 if request.param == "plain" else 0)
    return request.param
