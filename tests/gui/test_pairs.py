"""Flow 5: the pairs table stays quick and correct for hundreds of thousands of rows."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from PySide6.QtCore import Qt

from ndd_desktop.gui.pair_model import BATCH, PairTableModel
from ndd_desktop.gui.pairs_view import PairsView
from ndd_desktop.store import PairArrays

N_DOCS = 20000
N_PAIRS = 300_000


def synthetic(n_docs: int = N_DOCS, n_pairs: int = N_PAIRS, seed: int = 3):
    """Random pairs over random documents, as the store would hand them out."""
    rng = np.random.default_rng(seed)
    a = rng.integers(1, n_docs, n_pairs)
    b = a + rng.integers(1, 50, n_pairs)
    score = rng.uniform(0.3, 1.0, n_pairs)
    arrays = PairArrays(np.arange(1, n_pairs + 1), a.astype(np.int64), b.astype(np.int64), score,
                        rng.uniform(0, 1, n_pairs), rng.uniform(0, 1, n_pairs), np.full(n_pairs, np.nan))
    formats = ("txt", "pdf", "docx", "html")
    docs = {i: SimpleNamespace(id=i, root="/archive", relpath=f"box{i % 97}/doc{i:06d}.{formats[i % 4]}",
                               abspath=f"/archive/box{i % 97}/doc{i:06d}", size=1000 + (i * 37) % 5000,
                               date=1.0e9 + i * 3600.0, mtime_ns=0, format=formats[i % 4], reference=False)
            for i in range(1, n_docs + 60)}
    return arrays, docs


def test_model_loads_lazily_and_sorts_every_column(qtbot):
    arrays, docs = synthetic()
    model = PairTableModel()
    model.set_pairs(arrays, docs, {})
    model.set_threshold(0.5)
    expected = int((arrays.score >= 0.5).sum())
    assert model.total_rows() == expected
    assert model.rowCount() == BATCH < expected  # only one batch is loaded
    assert model.canFetchMore()
    model.fetchMore()
    assert model.rowCount() == 2 * BATCH
    scores = [model.pair(r).score for r in range(100)]
    assert scores == sorted(scores, reverse=True)

    model.sort(2, Qt.SortOrder.AscendingOrder)  # document A, by path
    labels = [model.data(model.index(r, 2)) for r in range(200)]
    assert labels == sorted(labels)
    model.sort(4, Qt.SortOrder.DescendingOrder)  # sizes: the larger of the two
    sizes = [max(docs[p.a].size, docs[p.b].size) for p in (model.pair(r) for r in range(200))]
    assert sizes == sorted(sizes, reverse=True)
    model.sort(6, Qt.SortOrder.AscendingOrder)  # dates: the older of the two
    dates = [min(docs[p.a].date, docs[p.b].date) for p in (model.pair(r) for r in range(200))]
    assert dates == sorted(dates)
    for col in range(8):
        model.sort(col, Qt.SortOrder.AscendingOrder)
        assert model.total_rows() == expected
        assert model.data(model.index(0, col)) is not None


def test_filter_threshold_and_verdicts(qtbot):
    arrays, docs = synthetic()
    model = PairTableModel()
    model.set_pairs(arrays, docs, {})
    model.set_text_filter("box7/")
    mask = np.array([("box7/" in docs[a].relpath) or ("box7/" in docs[b].relpath)
                     for a, b in zip(arrays.a, arrays.b)])
    assert model.total_rows() == int(mask.sum())
    for r in range(min(50, model.rowCount())):
        text = model.data(model.index(r, 2)) + model.data(model.index(r, 3))
        assert "box7/" in text
    pair = model.pair(0)
    model.set_verdict(pair.a, pair.b, "not_duplicate")
    assert model.verdict(0) == "not_duplicate"
    assert model.data(model.index(0, 7)) == "not duplicate"
    model.set_threshold(0.99)
    assert all(model.pair(r).score >= 0.99 for r in range(model.rowCount()))


def test_view_selects_rows_beyond_the_loaded_batch(qtbot):
    arrays, docs = synthetic(n_docs=5000, n_pairs=20000)
    view = PairsView()
    qtbot.addWidget(view)
    view.set_pairs(arrays, docs, {}, 0.3)
    with qtbot.waitSignal(view.pairSelected) as blocker:
        assert view.select_row(BATCH + 5)
    assert blocker.args[0].index == view.model.pair(BATCH + 5).index
    assert view.model.rowCount() > BATCH + 5
    target = view.model.pair(10)
    view.table.sortByColumn(3, Qt.SortOrder.AscendingOrder)
    assert view.select_pair(target.a, target.b)
    assert view.current_pair().pair_id == target.pair_id
    view.filter.setText("box3/")
    qtbot.waitUntil(lambda: view.model._text == "box3/", timeout=3000)
    assert all("box3/" in view.model.data(view.model.index(r, 2)) + view.model.data(view.model.index(r, 3))
               for r in range(min(30, view.model.rowCount())))


def test_a_table_of_rows_gives_the_columns_of_its_documents(tmp_path):
    """The pairs table reads a DocumentTable's columns without making each document;
    what it shows, sorts and filters by is what the documents themselves give."""
    from ndd_desktop.gui.formatting import set_root_names
    from ndd_desktop.gui.pair_model import _DocTable
    from ndd_desktop.store import DocWrite, Root, Store

    with Store.open(tmp_path / "c.ndd") as store:
        store.documents.set_roots([Root(str(tmp_path / "letters")), Root(str(tmp_path / "más"), True)])
        rows = [("letters", "b/Zeta.txt", 3.0e9, "txt"), ("más", "caf\udce9.pdf", None, "pdf"),
                ("letters", "a/alpha.txt", float("nan"), "txt"), ("más", "Beta.docx", 2.0e9, "docx"),
                ("letters", "c/zero.txt", None, "txt")]  # no date and a modification time of 0: none
        mtime = [(k + 1) * 10**18 for k in range(4)] + [0]
        ids = store.scans.write_documents([
            DocWrite(root=str(tmp_path / root), file_relpath=rel, file_size=k + 5, file_mtime_ns=mtime[k],
                     file_xxh128=str(k), relpath=rel, container=None, size=k + 5, mtime_ns=mtime[k],
                     date=date, format=fmt, xxh128=str(k), sha256="s" * 64, text_length=9, status="ok", reason="",
                     text="some text") for k, (root, rel, date, fmt) in enumerate(rows)], "m", "k")
        table = store.documents.table(ids)
        set_root_names(table.roots())
        from_rows, from_docs = _DocTable(table), _DocTable(dict(table.items()))
    assert from_rows.labels.tolist() == from_docs.labels.tolist()
    assert from_rows.labels[ids[1]] == "más/caf\udce9.pdf" and from_rows.labels[ids[0]] == "letters/b/Zeta.txt"
    for name in ("size", "date", "path_rank", "fmt_rank"):
        assert np.array_equal(getattr(from_rows, name), getattr(from_docs, name), equal_nan=True), name
    assert [from_rows.date[i] for i in ids[:4]] == [3.0e9, 2.0e9, 3.0e9, 2.0e9]  # no date: the file's time
    assert np.isnan(from_rows.date[ids[4]])
    assert from_rows.size[ids].tolist() == [5.0, 6.0, 7.0, 8.0, 9.0]
    assert from_rows.path_rank[ids].tolist() == [1, 4, 0, 3, 2]  # letters/a, /b, /c, más/Beta, más/caf
    assert np.array_equal(from_rows.matching("ALPHA"), from_docs.matching("alpha"))
    assert np.flatnonzero(from_rows.matching("alpha")).tolist() == [ids[2]]
