"""Output helpers of ``ndd``: the terminal progress line and CSV/JSON rows."""

from __future__ import annotations

import re

import io
import json

from fresh_python import fresh_python

from ndd_desktop.cli import main
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


def test_table_format_fits_the_terminal_and_keeps_names_literal(tmp_path, capsys, monkeypatch):
    from ndd_desktop.cli import main

    folder = tmp_path / "docs"
    folder.mkdir()
    text = "the harbour board agreed to repair the north pier before the winter storms arrive " * 4
    (folder / "[draft] a very long file name that will not fit in one narrow column.txt").write_text(text)
    (folder / "copy.txt").write_text(text + " again")
    db = tmp_path / "c.ndd"
    assert main(["scan", str(folder), "--db", str(db), "--workers", "0"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["pairs", "--db", str(db), "--format", "table"]) == 0
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 60  # fitted to 60 columns
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["pairs", "--db", str(db), "--format", "table"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100 and any(len(line) > 60 for line in lines)
    assert "[qgram]" in lines[0] and "pairs at 0.5 or more" in lines[0]
    assert "[draft]" in out and "copy.txt" in out and re.search(r"│ +0\.9\d+ │", out)
    assert lines[-1] == "1 row"
    assert main(["clusters", "--db", str(db), "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "1 groups at 0.5 or more [qgram]" in out and "principal" in out and out.splitlines()[-1] == "2 rows"


def test_scan_of_a_file_names_its_folder(tmp_path, capsys):
    from ndd_desktop.cli import main

    (tmp_path / "one.txt").write_text("some words")
    status = main(["scan", str(tmp_path / "one.txt"), "--db", str(tmp_path / "c.ndd")])
    err = capsys.readouterr().err
    assert status == 2
    assert "one.txt is a file; ndd scan takes folders" in err and f"scan its folder {tmp_path}" in err
    assert not (tmp_path / "c.ndd").exists()


def test_group_numbers_stay_the_same_across_an_unchanged_rescan(tmp_path, capsys):
    from ndd_desktop.cli import main

    folder = tmp_path / "docs"
    folder.mkdir()
    for family in range(4):
        text = f"family {family} " + " ".join(f"w{family}x{i}" for i in range(60))
        for copy in range(3):
            (folder / f"f{family}c{copy}.txt").write_text(text + f" copy {copy}")
    db = tmp_path / "c.ndd"
    assert main(["scan", str(folder), "--db", str(db), "--workers", "0"]) == 0
    capsys.readouterr()
    assert main(["clusters", "--db", str(db)]) == 0
    first = capsys.readouterr().out
    groups = {line.split(",")[0] for line in first.splitlines()[1:]}
    assert groups == {"1", "2", "3", "4"}
    assert main(["scan", str(folder), "--db", str(db), "--workers", "0"]) == 0
    assert "(0 new, 0 changed" in capsys.readouterr().err
    assert main(["clusters", "--db", str(db)]) == 0
    assert capsys.readouterr().out == first  # same groups, same numbers, same rows


def test_scan_verbose_times_each_stage(tmp_path, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    text = "the harbour works were finished in the spring after a long winter of storms " * 20
    (folder / "a.txt").write_text(text)
    (folder / "b.txt").write_text(text + " and a last line")
    assert main(["scan", str(folder), "--db", str(tmp_path / "c.ndd"), "--workers", "0", "--verbose"]) == 0
    err = capsys.readouterr().err
    lines = [line.split()[0] for line in err.splitlines() if line.startswith("  ")]
    # "sketch" is the catch-up of documents stored without a sketch: none here (sketching ran
    # inside the extraction), so it takes no time and counts nothing
    assert lines == ["walk", "extract", "sketch", "pairs", "verify", "store", "loops"]
    # the extraction counts files (an archive is one file of several documents), and one is
    # "1 pair", not "1 pairs"
    assert re.search(r"^  extract +\d+\.\d\d s, 2 files, [\d,]+ files/s$", err, re.M)
    assert re.search(r"^  verify +\d+\.\d\d s, 1 pair, [\d,]+ pairs/s$", err, re.M)
    # which loops ran: the C ones, built on every test machine; else numba's, and why
    assert re.search(r"^  loops +C \(ndd_desktop/core/_native\)$", err, re.M)


def test_the_loops_line_says_why_the_c_loops_did_not_run(monkeypatch):
    """What ``scan --verbose``'s last line says without the C loops (native.describe)."""
    from ndd_desktop.core import native

    monkeypatch.setattr(native, "LOOPS", None)
    monkeypatch.setenv("NDD_NATIVE_KERNELS", "0")
    assert "turned off: NDD_NATIVE_KERNELS=0" in native.describe()
    monkeypatch.delenv("NDD_NATIVE_KERNELS")
    assert "not built: no C compiler" in native.describe()


def test_the_process_entry_point_returns_mains_status_and_skips_the_exit_collection(tmp_path):
    script = (
        "import gc\n"
        "from ndd_desktop.cli import run\n"
        "ok = run(['methods'])\n"
        f"missing = run(['pairs', '--db', {str(tmp_path / 'none.ndd')!r}])\n"
        "print('STATUS', ok, missing, gc.get_freeze_count() > 0)\n"
    )
    last = fresh_python(script).strip().splitlines()[-1]
    # the methods listed, a missing collection refused as by main(); the objects left to the OS
    assert last == "STATUS 0 2 True"


def test_a_control_character_in_a_name_does_not_reach_a_terminal_raw(tmp_path):
    """`ndd errors --all` wrote a name's escape sequence to the terminal as it was; a file
    or a pipe still gets the name as it is."""
    import os
    import pty
    import subprocess
    import sys

    folder = tmp_path / "box"
    folder.mkdir()
    (folder / "esc\x1b[31mred.txt").write_bytes(b"")  # empty: listed as skipped
    db = tmp_path / "c.ndd"
    ndd = [sys.executable, "-m", "ndd_desktop.cli"]
    assert subprocess.run([*ndd, "scan", str(folder), "--db", str(db), "-q"], capture_output=True).returncode == 0
    piped = subprocess.run([*ndd, "errors", "--db", str(db), "--all"], capture_output=True, text=True)
    assert "esc\x1b[31mred.txt" in piped.stdout
    master, slave = pty.openpty()
    try:
        done = subprocess.run([*ndd, "errors", "--db", str(db), "--all"], stdout=slave, stderr=subprocess.PIPE)
        assert done.returncode == 0
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
    assert b"esc\\x1b[31mred.txt" in seen and b"\x1b[31m" not in seen
