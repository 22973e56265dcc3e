"""Flow 1: the start page, the demo, and the command line of ``ndd-desktop``."""

from __future__ import annotations

import subprocess
import sys

import pytest
from gui_helpers import wait_idle
from PySide6.QtCore import Qt

from ndd_desktop.gui import app
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.resources import default_store_path, demo_folder


def test_start_page_then_demo(qtbot, window, data_dir):
    assert window.stack.currentIndex() == 0
    page = window.start_page
    for button in (page.folder_button, page.collection_button, page.demo_button):
        assert button.isVisible() and button.toolTip()
    assert page.no_recent.isVisible()
    with qtbot.waitSignal(window.scan.done, timeout=120000):
        qtbot.mouseClick(page.demo_button, Qt.MouseButton.LeftButton)
    assert window.scan.outcome == "finished"
    wait_idle(qtbot, window)
    assert window.stack.currentIndex() == 1
    assert window.collection.path == str(default_store_path("demo", data_dir))
    assert any(ref and p.endswith("holdings") for p, ref in window.setup.roots())
    # the demo has real near-duplicates across formats
    model = window.pairs.model
    assert model.total_rows() >= 3
    formats = {f for r in range(model.rowCount()) for f in model.data(model.index(r, 5)).split(" / ")}
    assert len(formats) >= 3
    assert window.collection.grouping.groups
    assert str(demo_folder()) not in window.collection.path  # the store never goes into resources/


def test_recent_collections_are_listed_and_open(qtbot, settings, data_dir, tmp_path):
    folder = tmp_path / "letters"
    folder.mkdir()
    first = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(first)
    assert first.open_folder(str(folder))
    store_path = first.collection.path
    first.close()
    second = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(second)
    recent = second.start_page.recent
    assert recent.count() == 1 and recent.item(0).data(Qt.ItemDataRole.UserRole) == store_path
    # named with the folder it scans, not the folder its file is kept in
    assert recent.item(0).text() == f"letters\n{folder}" and str(folder) in recent.item(0).toolTip()
    assert second.start_page.no_recent.isHidden()  # the "no recent collections" line gives way to the list
    second.start_page.recentChosen.emit(store_path)
    assert second.collection is not None and second.collection.path == store_path
    assert [p for p, _ in second.setup.roots()] == [str(folder)]


def test_command_line_opens_demo_folder_or_store(qtbot, settings, data_dir, tmp_path):
    folder = tmp_path / "box"
    folder.mkdir()
    w = app.create_window(app.parse_args([str(folder)]), settings=settings, data_dir=data_dir)
    qtbot.addWidget(w)
    assert w.collection is not None and [p for p, _ in w.setup.roots()] == [str(folder)]
    store = w.collection.path
    w.close()
    w2 = app.create_window(app.parse_args([store]), settings=settings, data_dir=data_dir)
    qtbot.addWidget(w2)
    assert w2.collection is not None and w2.collection.path == store
    w2.close()
    args = app.parse_args(["--demo"])
    assert args.demo and args.path is None
    w3 = app.create_window(args, settings=settings, data_dir=data_dir)
    qtbot.addWidget(w3)
    assert w3.stack.currentIndex() == 1 and w3.scan.running()
    with qtbot.waitSignal(w3.scan.done, timeout=120000):
        pass


def test_version_and_missing_path(capsys):
    with pytest.raises(SystemExit) as exc:
        app.main(["--version"])
    assert exc.value.code == 0
    assert "ndd-desktop" in capsys.readouterr().out
    assert app.main(["/no/such/folder"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_without_a_display_it_names_the_ndd_command(monkeypatch, capsys, tmp_path):
    for var in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert app.main([]) != 0
    err = capsys.readouterr().err
    assert "ndd scan FOLDER --db" in err and "display" in err
    assert app.main([str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert f"ndd scan {tmp_path} --db" in err and f"xvfb-run -a ndd-desktop {tmp_path}" in err
    assert app.main(["--demo"]) != 0
    assert "xvfb-run -a ndd-desktop --demo" in capsys.readouterr().err


def test_python_dash_m_runs_the_same_entry_point():
    out = subprocess.run([sys.executable, "-m", "ndd_desktop", "--version"], capture_output=True, text=True,
                         timeout=60, cwd=str(demo_folder().parent.parent))
    assert out.returncode == 0 and out.stdout.startswith("ndd-desktop ")


def test_opening_a_collection_shows_the_wait_cursor_and_restores_it(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QApplication

    from ndd_desktop.gui import opening
    from ndd_desktop.store import Store, StoreError

    seen = []
    real_open = Store.open

    def watched(path, **kw):
        cursor = QApplication.overrideCursor()
        seen.append(cursor.shape() if cursor is not None else None)
        return real_open(path, **kw)

    monkeypatch.setattr(opening.Store, "open", staticmethod(watched))
    assert window.open_store(str(tmp_path / "new.ndd.sqlite"), create=True)
    assert seen == [Qt.CursorShape.WaitCursor]
    assert QApplication.overrideCursor() is None

    def failing(path, **kw):
        raise StoreError("not a collection file")

    monkeypatch.setattr(opening.Store, "open", staticmethod(failing))
    monkeypatch.setattr(window, "_warn", lambda message: seen.append(message))
    assert not window.open_store(str(tmp_path / "other.ndd.sqlite"))
    assert QApplication.overrideCursor() is None  # restored after a failure too
    assert "not a collection file" in seen[-1]


def test_self_test_scans_the_demo_in_a_private_folder(qtbot, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))  # nothing may be written to the user's folders
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert app.main(["--self-test"]) == 0
    out = capsys.readouterr().out
    assert "self-test passed" in out and " 0 pairs" not in out
    assert not any(tmp_path.rglob("*.ndd.sqlite"))


def test_self_test_fails_with_a_reason(qtbot, capsys, monkeypatch, tmp_path):
    from ndd_desktop.gui import resources

    monkeypatch.setattr(resources, "demo_folder", lambda: tmp_path / "no-demo")
    monkeypatch.setattr("ndd_desktop.gui.main_window.MainWindow._warn", lambda self, message: None)
    assert app.main(["--self-test"]) == 1
    assert "self-test failed: the demo collection could not be opened" in capsys.readouterr().err
