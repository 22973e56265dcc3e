"""``ndd scan --engine dask``: the options' refusals and errors, in one line each, before
anything is written (the scans themselves: test_dask_engine.py)."""

from __future__ import annotations

import sys
import time

import pytest

from cli_run import run


@pytest.fixture
def folder(tmp_path):
    f = tmp_path / "docs"
    f.mkdir()
    (f / "a.txt").write_text("the harbour master wrote to the council about the bridge", encoding="utf-8")
    return f


def test_scheduler_needs_the_dask_engine(capsys, folder, tmp_path):
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--scheduler", "tcp://127.0.0.1:8786")
    assert status == 2 and "--scheduler needs --engine dask" in err
    assert not (tmp_path / "c.ndd").exists()


def test_a_method_the_cluster_cannot_run_is_refused_by_name(capsys, folder, tmp_path):
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask", "--method", "exact")
    assert status == 2
    assert "runs the methods qgram, minhash; exact has no banded candidate search" in err
    assert err.count("\n") == 1 and not (tmp_path / "c.ndd").exists()


def test_a_scheduler_that_refuses_is_one_line_within_10_s(capsys, folder, tmp_path):
    t0 = time.monotonic()
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask",
                         "--scheduler", "tcp://127.0.0.1:1")
    assert time.monotonic() - t0 < 10
    assert status == 1
    assert err.startswith("ndd: error: no Dask scheduler answers at tcp://127.0.0.1:1") and err.count("\n") == 1
    assert not (tmp_path / "c.ndd").exists()


def test_without_dask_the_engine_names_the_extra_to_install(capsys, folder, tmp_path, monkeypatch):
    # the test environment has Dask; a None entry makes its import fail as on an install without it
    monkeypatch.setitem(sys.modules, "distributed", None)
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask")
    assert status == 1
    assert "pip install 'ndd-desktop[cluster]'" in err and err.count("\n") == 1
    assert not (tmp_path / "c.ndd").exists()


def test_a_scheduler_address_without_a_port_says_so(capsys, folder, tmp_path):
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask",
                         "--scheduler", "tcp://127.0.0.1")
    assert status == 1 and "tcp://127.0.0.1 names no port: give the scheduler's address as tcp://HOST:PORT" in err
    assert "invalid literal" not in err


def test_the_dashboard_s_address_and_a_trailing_slash_are_told_apart(capsys, folder, tmp_path):
    # the dashboard's URL was "not in Dask's protocol (ValueError ...)", and tcp://HOST:8786/
    # "names no port"
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask",
                         "--scheduler", "http://127.0.0.1:8787")
    assert status == 1 and "is a web address (the scheduler's dashboard?)" in err and "tcp://HOST:8786" in err
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask",
                         "--scheduler", "tcp://127.0.0.1:1/")
    assert status == 1 and "names no port" not in err and "no Dask scheduler answers at tcp://127.0.0.1:1" in err


def test_a_collection_being_scanned_is_refused_before_a_cluster_starts(capsys, folder, tmp_path, monkeypatch):
    """A local cluster (seconds of both cores) was started, then the scan's lock refused it."""
    from ndd_desktop.cluster import DaskEngine
    from ndd_desktop.pipeline.scan_lock import scan_lock

    def started(self):
        raise AssertionError("a cluster was started for a scan that is refused")

    monkeypatch.setattr(DaskEngine, "start", started)
    db = tmp_path / "c.ndd"
    with scan_lock(str(db)):
        status, _, err = run(capsys, "scan", folder, "--db", db, "--engine", "dask", "--workers", "1")
    assert status == 2 and "another scan of this collection is running" in err

