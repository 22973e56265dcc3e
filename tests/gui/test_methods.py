"""Flow 9: a second method on the same collection, and where the two agree."""

from __future__ import annotations

from gui_helpers import wait_idle

from ndd_desktop.gui.formatting import doc_label


def test_second_method_and_agreement(qtbot, scanned):
    w = scanned
    first = w.collection.data.method
    other = next(w.setup.methods.item(k).text().split(" — ")[0] for k in range(w.setup.methods.count())
                 if not w.setup.methods.item(k).text().startswith(first) and
                 not w.setup.methods.item(k).text().startswith("exact"))
    panel = w.methods
    w.tabs.setCurrentIndex(2)
    panel.run_method.setCurrentText(other)
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        panel.run_button.click()
    assert w.scan.outcome == "finished"
    wait_idle(qtbot, w)
    assert {ps.method for ps in w.collection.store.pairs.sets()} >= {first, other}
    assert panel.set_a.count() >= 2
    panel.set_a.setCurrentIndex([panel.set_a.itemData(k).method for k in range(panel.set_a.count())].index(first))
    panel.set_b.setCurrentIndex([panel.set_b.itemData(k).method for k in range(panel.set_b.count())].index(other))
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not None, timeout=10000)
    r = panel.result
    assert len(r.both) > 0
    assert "Both find" in panel.counts.text()
    total_a = int((w.collection.store.pairs.arrays(first, panel.set_a.currentData().pairs_key).score
                   >= panel.t_a.value()).sum())
    assert len(r.both) + len(r.only_a) == total_a
    panel.which.setCurrentIndex(2)  # both
    assert panel.model.rowCount() == len(r.both)
    # a threshold of 1 for the second method: only its identical pairs remain, so the first
    # method's pairs it lost are now the first's alone. The expected sets come from the
    # stored pairs with Python sets, not from agreement().
    panel.t_b.setValue(1.0)
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not r, timeout=10000)
    store = w.collection.store

    def kept(method: str, key: str, threshold: float) -> set:
        arr = store.pairs.arrays(method, key)
        return {(a, b) for a, b, ok in zip(arr.a.tolist(), arr.b.tolist(), (arr.score >= threshold).tolist()) if ok}

    pairs_a = kept(first, panel.set_a.currentData().pairs_key, panel.t_a.value())
    pairs_b = kept(other, panel.set_b.currentData().pairs_key, 1.0)
    got = panel.result
    assert {tuple(p) for p in got.only_a.tolist()} == pairs_a - pairs_b
    assert {tuple(p) for p in got.both.tolist()} == pairs_a & pairs_b
    assert {tuple(p) for p in got.only_b.tolist()} == pairs_b - pairs_a
    assert len(got.only_a) > len(r.only_a)


def run_other_method(qtbot, w, name: str, tab: int):
    """Scan with another method while tab ``tab`` is shown; wait for the comparison."""
    panel = w.methods
    w.tabs.setCurrentIndex(tab)
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        w.run_method(name)
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not None, timeout=10000)
    return panel


def count_reads(store, monkeypatch) -> list:
    """The (method, pairs_key) of every pair set read from ``store`` from now on."""
    reads: list = []
    real = store.pairs.arrays
    monkeypatch.setattr(store.pairs, "arrays", lambda *k, **kw: reads.append(k) or real(*k, **kw))
    return reads


def test_new_thresholds_compare_without_reading_the_pair_sets_again(qtbot, scanned, monkeypatch):
    w = scanned
    panel = run_other_method(qtbot, w, "minhash", tab=2)
    store = w.collection.store
    reads = count_reads(store, monkeypatch)
    before = panel.result
    panel.t_a.setValue(min(1.0, panel.t_a.value() + 0.05))
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not before, timeout=10000)
    assert reads == []  # both sets were kept from the first comparison
    # a rescan changes the store's pair sets: the kept arrays are dropped and read again
    panel.set_store(store, w.collection.data.docs)
    qtbot.waitUntil(lambda: not panel.busy() and len(reads) == 2, timeout=10000)


def test_a_finished_scan_reads_its_new_pair_set_once(qtbot, scanned, monkeypatch):
    w = scanned
    reads = count_reads(w.collection.store, monkeypatch)
    run_other_method(qtbot, w, "bottomk", tab=2)
    new = (w.collection.data.method, w.collection.data.pairs_key)
    assert new[0] == "bottomk"
    # the window's own read; the comparison is handed that copy instead of reading it again
    assert reads.count(new) == 1, reads


def test_the_comparison_runs_when_its_tab_is_shown(qtbot, scanned, monkeypatch):
    w = scanned
    panel = w.methods
    w.tabs.setCurrentIndex(0)  # the pairs tab: the comparison is hidden
    reads = count_reads(w.collection.store, monkeypatch)
    with qtbot.waitSignal(w.scan.done, timeout=120000):
        w.run_method("minhash")
    wait_idle(qtbot, w)
    new = (w.collection.data.method, w.collection.data.pairs_key)
    assert reads == [new]  # the window's own read only: nobody looks at the comparison
    assert panel.set_a.count() >= 2  # its lists of pair sets are up to date all the same
    w.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not None, timeout=10000)
    listed = len(getattr(panel.result, panel.which.currentData()))
    assert listed > 0 and panel.model.rowCount() == min(listed, 5000)
    # a result that arrives after the user moved on is listed when the tab comes back
    panel.t_a.setValue(min(1.0, panel.t_a.value() + 0.05))
    w.tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10000)
    w.tabs.setCurrentIndex(2)
    listed = len(getattr(panel.result, panel.which.currentData()))
    assert panel.model.rowCount() == min(listed, 5000)


def test_pairs_of_documents_the_window_does_not_hold_are_named(qtbot, scanned):
    """The window holds only the documents of the pair set it shows; the comparison names
    the documents of the other set's pairs from the store, never as "#id"."""
    w = scanned
    panel = run_other_method(qtbot, w, "bottomk", 2)
    store = w.collection.store
    panel.set_store(store, {})  # as if the shown pair set named none of these documents
    qtbot.waitUntil(lambda: not panel.busy() and panel.result is not None, timeout=10000)
    panel.which.setCurrentIndex(2)  # both
    assert panel.model.rowCount() > 0
    labels = {doc_label(d) for d in store.documents.all()}
    for row in range(panel.model.rowCount()):
        for col in (0, 1):
            assert panel.model.item(row, col).text() in labels  # not "#12"


def test_two_pair_sets_of_one_method_are_told_apart_by_what_differs():
    """Both read "qgram (ignore=, max_df=0.5, measure=resemblance)": q was not among the
    first three parameters in name order."""
    from types import SimpleNamespace

    from ndd_desktop.gui.method_compare import pair_set_label

    base = {"q": 4, "measure": "resemblance", "window_hours": 0.0, "max_df": 0.5, "ignore": ""}
    assert pair_set_label(SimpleNamespace(method="qgram", params=base, count=1234)) == "qgram (defaults) — 1,234 pairs"
    five = SimpleNamespace(method="qgram", params={**base, "q": 5, "ignore": "urls"}, count=12)
    assert pair_set_label(five) == "qgram (ignore=urls, q=5) — 12 pairs"
