"""Settings kept between runs: layout, last method and parameters, recent collections."""

from __future__ import annotations

from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.settings import MAX_RECENT, Settings


def test_settings_round_trip(tmp_path):
    s = Settings.at(str(tmp_path / "s.ini"))
    for k in range(MAX_RECENT + 3):
        s.add_recent(f"/c/{k}.ndd.sqlite")
    s.add_recent("/c/3.ndd.sqlite")
    s.set_last_method("minhash")
    s.set_method_params("minhash", {"bands": 20, "measure": "resemblance"})
    s.sync()
    again = Settings.at(str(tmp_path / "s.ini"))
    assert again.recent()[0] == "/c/3.ndd.sqlite" and len(again.recent()) == MAX_RECENT
    assert again.last_method() == "minhash"
    assert again.method_params("minhash") == {"bands": 20, "measure": "resemblance"}
    assert again.method_params("qgram") == {}
    again.remove_recent("/c/3.ndd.sqlite")
    assert "/c/3.ndd.sqlite" not in again.recent()


def test_window_layout_and_method_are_remembered(qtbot, settings, data_dir, tmp_path):
    w = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(w)
    w.show()
    w.resize(760, 560)  # inside the offscreen screen, so restoring is not clamped
    w.open_folder(str(tmp_path))
    qtbot.wait(20)
    w.right.setSizes([120, 400, 40])
    method = w.setup.methods.item(w.setup.methods.count() - 1).text().split(" — ")[0]
    settings.set_last_method(method)
    saved = w.right.sizes()
    w.close()
    w2 = MainWindow(settings=settings, data_dir=data_dir)
    qtbot.addWidget(w2)
    w2.show()
    assert settings.state("geometry") is not None
    # a new collection starts with the method used last, in the layout left last time
    (tmp_path / "other").mkdir()
    w2.open_folder(str(tmp_path / "other"))
    qtbot.waitUntil(lambda: max(abs(x - y) for x, y in zip(w2.right.sizes(), saved)) <= 2, timeout=3000)
    assert w2.setup.method_name() == method
    assert saved[1] > saved[2]  # not the default proportions (the compare view is the larger)
