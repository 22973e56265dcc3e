"""``ndd`` run in-process by the tests (a uniquely named module: conftest names collide)."""

from __future__ import annotations

from ndd_desktop.cli import main


def run(capsys, *argv):
    """main(argv) -> (status, stdout, stderr)."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err
