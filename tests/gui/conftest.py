"""Fixtures for the window's tests: private settings and data folders, generated folders."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import make_collection, scan

import ndd_desktop.gui  # noqa: F401 - applies the PySide6 compatibility fix before Qt runs
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings in a private INI file."""
    return Settings.at(str(tmp_path / "settings.ini"))


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A private data folder (where default stores go)."""
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A small folder of near-duplicate text files and two broken files."""
    return make_collection(tmp_path / "docs")


@pytest.fixture
def window(qtbot, settings: Settings, data_dir: Path) -> MainWindow:
    """The main window, shown offscreen; closing it (by qtbot) stops every worker."""
    w = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def scanned(qtbot, window: MainWindow, folder: Path) -> MainWindow:
    """The window after a scan of ``folder`` with the default method."""
    assert window.open_folder(str(folder))
    scan(qtbot, window)
    return window
