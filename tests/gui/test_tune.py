"""Flow 4: the threshold re-filters and regroups at once, with no rescan."""

from __future__ import annotations

import numpy as np
from gui_helpers import wait_idle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ndd_desktop.gui.score_histogram import LABEL_WIDTH, axis_labels
from ndd_desktop.gui.threshold_panel import SLIDER_STEPS


def test_threshold_refilters_and_regroups_without_rescan(qtbot, scanned):
    w = scanned
    store = w.collection.store
    runs = len(store.scans.runs())
    scores = w.collection.data.arrays.score
    assert w.threshold.histogram.counts.sum() == len(scores)
    assert f"<b>{int((scores >= w.threshold.threshold()).sum()):,}</b> pairs" in w.threshold.counts_label.text()
    high_groups = len(w.collection.grouping.groups)
    # lower the threshold with the slider: more pairs at once, groups follow
    lowest = float(scores.min())
    w.threshold.slider.setValue(int(lowest * SLIDER_STEPS))
    t = w.threshold.threshold()
    assert w.pairs.model.total_rows() == int((scores >= t).sum())
    qtbot.waitUntil(lambda: abs(w.collection.threshold - t) < 1e-9, timeout=3000)
    wait_idle(qtbot, w)
    low = w.collection.grouping
    assert low.pair_count == int((scores >= t).sum())
    dropped = sum(len(g.members) - 1 for g in low.groups)
    assert f"<b>{len(low.groups):,}</b> groups" in w.threshold.counts_label.text()
    assert f"<b>{dropped:,}</b> documents" in w.threshold.counts_label.text()
    # raise it with the spin box above every score: nothing left
    w.threshold.spin.setValue(1.0)
    assert w.pairs.model.total_rows() == int((scores >= 1.0).sum())
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: w.collection.threshold == 1.0, timeout=3000)
    wait_idle(qtbot, w)
    assert len(w.collection.grouping.groups) <= high_groups
    assert w.threshold.slider.value() == SLIDER_STEPS
    assert len(store.scans.runs()) == runs  # no rescan


def test_histogram_click_and_keyboard(qtbot, scanned):
    w = scanned
    hist = w.threshold.histogram
    hist.resize(400, 120)
    r = hist._plot_rect()
    qtbot.mouseClick(hist, Qt.MouseButton.LeftButton, pos=r.center().toPoint())
    expected = hist.lo + 0.5 * (1 - hist.lo)
    assert abs(w.threshold.threshold() - expected) < 0.02
    w.threshold.slider.setFocus()
    before = w.threshold.threshold()
    qtbot.keyClick(w.threshold.slider, Qt.Key.Key_PageUp)
    assert w.threshold.threshold() > before


def test_acceptance_curve_for_banded_methods(qtbot, window, folder):
    from gui_helpers import scan

    from ndd_desktop.core.methods import get_method

    window.open_folder(str(folder))
    window.setup.set_method("minhash", {})
    scan(qtbot, window)
    method = get_method("minhash")
    curve = window.threshold.histogram.curve
    assert curve is not None and len(curve) > 10
    assert np.all(np.diff(curve) >= -1e-9)  # more similar, more likely found
    params = method.params({})
    floor = window.collection.data.floor
    expected = float(np.asarray(method.acceptance_curve(params, np.array([1.0]), floor))[0])
    assert abs(curve[-1] - expected) < 1e-6


def test_axis_labels_never_overlap_and_stay_under_the_plot():
    left, right = 10.0, 410.0
    for t in np.linspace(0.3, 1.0, 57):
        tx = left + (t - 0.3) / 0.7 * (right - left)
        labels = axis_labels(0.3, float(t), tx, left, right)
        boxes = sorted(x for x, _ in labels)
        assert all(left <= x and x + LABEL_WIDTH <= right for x in boxes)
        assert all(b - a >= LABEL_WIDTH for a, b in zip(boxes, boxes[1:]))  # no overlap
        assert labels[0][1] == f"{t:.2f}"
    # in the middle all three are shown; at the floor the floor label gives way
    assert [text for _, text in axis_labels(0.3, 0.65, 210.0, left, right)] == ["0.65", "0.30", "1.00"]
    assert [text for _, text in axis_labels(0.3, 0.3, left, left, right)] == ["0.30", "1.00"]


def test_scores_below_where_the_pairs_are_complete_are_marked(qtbot):
    from ndd_desktop.gui.threshold_panel import ThresholdPanel

    panel = ThresholdPanel()
    qtbot.addWidget(panel)
    panel.set_scores(np.array([0.35, 0.5, 0.75, 0.9]), 0.3)
    panel.set_threshold(0.5, emit=False)
    assert not panel.note.isVisibleTo(panel)  # complete down to the floor: nothing to say
    panel.set_complete_from(0.7)
    assert panel.histogram.complete_from == 0.7
    assert panel.note.isVisibleTo(panel) and "below 0.7" in panel.note.text()
    assert "designed for pairs sharing at least 0.7 of their text" in panel.note.toolTip()
    panel.set_threshold(0.8)  # above it the pairs are complete
    assert not panel.note.isVisibleTo(panel)
    panel.set_threshold(0.6)
    assert panel.note.isVisibleTo(panel)
    panel.set_complete_from(None)  # another pair set, searched exactly
    assert not panel.note.isVisibleTo(panel) and panel.histogram.complete_from is None
    panel.histogram.set_complete_from(0.7)
    panel.histogram.resize(300, 100)
    panel.histogram.grab()  # paints the hatching without error


def test_window_reads_where_a_pair_set_is_complete(tmp_path):
    from ndd_desktop.gui.collection import read_pair_set
    from ndd_desktop.store import Root, Store

    store = Store.open(tmp_path / "c.ndd.sqlite")
    store.documents.set_roots([Root("/r")])
    cols = {"a": np.array([1]), "b": np.array([2]), "score": np.array([0.5]),
            "cont_ab": np.array([np.nan]), "cont_ba": np.array([np.nan])}
    store.pairs.replace("qgram", "pk", "sk", {}, 0.3, "in", cols, complete_from=0.7)
    assert read_pair_set(store, "qgram", {}, "pk", 0.3).complete_from == 0.7
    store.pairs.replace("qgram", "pk", "sk", {}, 0.3, "in2", cols)
    assert read_pair_set(store, "qgram", {}, "pk", 0.3).complete_from is None
    store.close()


def test_typing_a_threshold_gives_that_threshold(qtbot):
    from ndd_desktop.gui.threshold_panel import ThresholdPanel

    panel = ThresholdPanel(settle_ms=1)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_scores(np.array([0.35, 0.5, 0.75, 0.9]), 0.3)
    panel.set_threshold(0.7, emit=False)
    changed, settled = [], []
    panel.thresholdChanged.connect(changed.append)
    panel.thresholdSettled.connect(settled.append)
    for text, want in (("0.45", 0.45), ("0.555", 0.555), ("0.8", 0.8)):
        panel.spin.setFocus()
        panel.spin.selectAll()
        qtbot.keyClicks(panel.spin, text, delay=5)  # slow enough for a settle between keys
        qtbot.keyClick(panel.spin, Qt.Key.Key_Return)
        qtbot.wait(20)
        assert panel.threshold() == want, text
        assert panel.spin.text() == f"{want:.3f}"
    # no threshold half-typed ("0", "0.") was ever applied, let alone saved
    assert changed == [0.45, 0.555, 0.8]
    assert settled == [0.45, 0.555, 0.8]


def test_an_empty_pair_set_names_the_score_its_search_covered(qtbot):
    from ndd_desktop.gui.threshold_panel import ThresholdPanel

    panel = ThresholdPanel()
    qtbot.addWidget(panel)
    panel.set_scores(np.zeros(0), 0.3, documents=100)
    assert "at or above 0.30 (the lowest score a scan keeps)" in panel.counts_label.text()
    panel.set_complete_from(1 - 24 / 128, "fingerprint")  # nothing below its radius searched
    assert "at or above 0.81, the lowest score this method's search covers" in panel.counts_label.text()
    panel.set_scores(np.array([0.9]), 0.3, documents=100)  # pairs again: the counts come back
    assert "<b>1</b> pair · " in panel.counts_label.text()  # one pair, not "1 pairs"


def test_a_click_under_the_handle_gives_the_handle_threshold_and_the_floor_bounds_both(qtbot):
    """The histogram ran from the floor under a slider from 0: a click straight under the
    handle at 0.5 set 0.62, and a threshold below the floor showed an empty band."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    from ndd_desktop.gui.threshold_panel import ThresholdPanel

    panel = ThresholdPanel(settle_ms=1)
    qtbot.addWidget(panel)
    panel.resize(900, 260)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_scores(np.array([0.35, 0.5, 0.75, 0.9]), 0.3)
    for t in (0.5, 0.8):
        panel.set_threshold(t, emit=False)
        QApplication.processEvents()
        option = QStyleOptionSlider()
        panel.slider.initStyleOption(option)
        handle = panel.slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, option,
                                                     QStyle.SubControl.SC_SliderHandle, panel.slider)
        x = panel.histogram.mapFromGlobal(panel.slider.mapToGlobal(handle.center())).x()
        QTest.mouseClick(panel.histogram, Qt.MouseButton.LeftButton, pos=QPoint(x, panel.histogram.height() // 2))
        assert abs(panel.threshold() - t) <= 0.03, (t, panel.threshold())
    panel.set_threshold(0.1)  # below the floor: no pair is stored there
    assert panel.threshold() == 0.3 and panel.spin.value() == 0.3
    assert panel.slider.minimum() == round(0.3 * panel.slider.maximum())
