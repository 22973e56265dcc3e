"""Output helpers of ``ndd``: the terminal progress line and CSV/JSON rows."""

from __future__ import annotations

import io
import json

from ndd_desktop.cli.output import ProgressBar, write_rows
from ndd_desktop.pipeline import Progress


def test_progress_bar_draws_one_line_per_stage():
    out = io.StringIO()
    bar = ProgressBar(out, interval=0.0)
    bar(Progress("walk", 10, None, "a.txt", 100.0, None))
    bar(Progress("extract", 5, 10, "dir/b.txt", 50.0, 0.1))
    bar(Progress("extract", 10, 10, "dir/c.txt", 50.0, 0.0))
    bar.close()
    text = out.getvalue()
    lines = text.split("\n")
    assert len(lines) == 3 and lines[-1] == ""  # walk line, extract line, final newline
    assert lines[0].startswith("\rwalk") and "10" in lines[0]
    assert "5/10" in lines[1] and " 50%" in lines[1] and lines[1].rstrip().endswith("dir/c.txt")
    assert "[########################] 10/10 100%" in lines[1]


def test_write_rows_csv_and_json_clean_nan_and_odd_paths():
    rows = [{"a": "caf\udce9.txt", "score": float("nan"), "n": 1}]
    out = io.StringIO()
    write_rows(rows, "csv", out, ["a", "score", "n"])
    assert out.getvalue() == "a,score,n\ncaf\\xe9.txt,,1\n"
    out = io.StringIO()
    write_rows(rows, "json", out, ["a", "score", "n"])
    assert json.loads(out.getvalue()) == [{"a": "caf\\xe9.txt", "score": None, "n": 1}]
