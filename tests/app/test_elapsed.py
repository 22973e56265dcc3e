"""The wording of how long a finished scan or export took (window and ``ndd`` alike)."""

from __future__ import annotations

import math

from ndd_desktop.app.elapsed import elapsed


def test_short_work_is_not_said_to_take_no_time():
    assert elapsed(0.0) == "0.00 s"
    assert elapsed(0.04) == "0.04 s"
    assert elapsed(0.099) == "0.10 s"


def test_seconds_then_minutes_then_hours():
    assert elapsed(0.1) == "0.1 s"
    assert elapsed(3.24) == "3.2 s"
    assert elapsed(59.94) == "59.9 s"
    assert elapsed(60.0) == "1 min 00 s"
    assert elapsed(456.04) == "7 min 36 s"
    assert elapsed(3599.4) == "59 min 59 s"
    assert elapsed(3725.0) == "1 h 02 min"


def test_an_unknown_time_is_said_as_unknown():
    assert elapsed(math.nan) == "– s"
    assert elapsed(-1.0) == "– s"
