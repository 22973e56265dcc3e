"""How long a finished piece of work took, as the window and ``ndd`` both say it.

A scan of a small folder or a pass that found nothing to do takes less than a tenth of a
second, which one decimal showed as "0.0 s"; a scan of a million files takes minutes, which
seconds alone made hard to read ("456.0 s").
"""

from __future__ import annotations

import math


def elapsed(seconds: float) -> str:
    """``0.04 s`` below a tenth of a second, ``3.2 s`` below a minute, then ``7 min 36 s``,
    and ``1 h 02 min`` from an hour on."""
    if not math.isfinite(seconds) or seconds < 0:
        return "– s"
    if seconds < 0.1:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = int(round(seconds))
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
