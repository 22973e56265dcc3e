"""Start the desktop application: ``ndd-desktop [--demo] [--self-test] [PATH]``."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path
from typing import Sequence

import ndd_desktop
from ndd_desktop.core.allocator import keep_freed_memory


def no_display_message(args: argparse.Namespace) -> str:
    """What to say when there is no display: the equivalent ``ndd`` commands."""
    from .resources import default_store_path, demo_roots, folder_store_path, is_store_file

    path = Path(args.path).expanduser() if args.path else None
    if args.demo:
        folder = " ".join([p for p, ref in demo_roots() if not ref] + [f"--reference {p}" for p, ref in demo_roots() if ref])
        db = str(default_store_path("demo"))
    elif path is not None and is_store_file(path):
        folder, db = None, str(path)
    elif path is not None:
        folder, db = str(path), str(folder_store_path(path))
    else:
        folder, db = "FOLDER", "COLLECTION.ndd.sqlite"
    lines = ["ndd-desktop needs a graphical display, and none was found (DISPLAY and WAYLAND_DISPLAY "
             "are not set).", "Use the command line instead:"]
    if folder:
        lines.append(f"    ndd scan {folder} --db {db}        # find near-duplicates")
    lines += [f"    ndd pairs --db {db}        # list the pairs", f"    ndd clusters --db {db}     # list the groups",
              "or run the window under a virtual display: xvfb-run -a ndd-desktop" + _same_arguments(args)]
    return "\n".join(lines)



def _same_arguments(args: argparse.Namespace) -> str:
    """The arguments given, to repeat in a suggested command ('' when none)."""
    if args.demo:
        return " --demo"
    return f" {shlex.quote(str(args.path))}" if args.path else ""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(
        prog="ndd-desktop",
        description="Find near-duplicate documents in archival folders (desktop application). "
                    "The same scans run headless with the `ndd` command.")
    parser.add_argument("path", nargs="?", help="a folder to scan or a collection file (.ndd.sqlite) to open")
    parser.add_argument("--demo", action="store_true", help="open the demo collection")
    parser.add_argument("--self-test", action="store_true",
                        help="open, scan and show the demo collection in a private temporary folder, "
                             "then quit: exit status 0 when all of it worked (to check an installation)")
    parser.add_argument("--version", action="version", version=f"ndd-desktop {ndd_desktop.__version__}")
    return parser.parse_args(list(argv) if argv is not None else None)


def display_available() -> bool:
    """True when Qt can show a window (a display, or a platform plugin chosen explicitly)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def create_application(argv: Sequence[str] | None = None):
    """The QApplication (created once), with its names set for QSettings."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "ndd-desktop", *(argv or [])])
    app.setApplicationName("ndd-desktop")
    app.setOrganizationName("ndd-desktop")
    app.setApplicationVersion(ndd_desktop.__version__)
    return app


def create_window(args: argparse.Namespace, settings=None, data_dir: Path | None = None):
    """The main window, opened on what the arguments ask for."""
    from .main_window import MainWindow

    window = MainWindow(settings=settings, data_dir=data_dir)
    if args.demo:
        window.open_demo()
    elif args.path:
        window.open_path(args.path)
    return window


def install_store_error_hook(window) -> None:
    """Show a failing collection file (damaged, full disk, read-only) as a message in the
    window instead of a traceback, whichever slot met it; other errors go on as before."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        from ..store import StoreError

        if isinstance(value, StoreError):
            print(f"ndd-desktop: {value}", file=sys.stderr)
            window._warn(str(value))
            return
        previous(kind, value, tb)

    sys.excepthook = hook


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``ndd-desktop``; returns the exit status."""
    args = parse_args(argv)
    if args.path and not Path(args.path).expanduser().exists():
        print(f"ndd-desktop: {args.path}: no such file or folder", file=sys.stderr)
        return 2
    if args.self_test and not display_available():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a check needs no screen
    if not display_available():
        print(no_display_message(args), file=sys.stderr)
        return 3
    keep_freed_memory()  # core.allocator: the scan's array work faults in fewer pages
    app = create_application()
    if args.self_test:
        from .self_test import run_self_test

        return run_self_test()
    window = create_window(args)
    install_store_error_hook(window)
    window.show()
    return int(app.exec())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
