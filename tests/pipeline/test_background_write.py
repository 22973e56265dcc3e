"""With a process pool the extract stage writes each batch on a writer thread; a batch that
fails there fails the scan as before, on the scan's thread, and what was committed stays."""

from __future__ import annotations

import pytest
from disk_full import nearly_full
from pipehelp import make_corpus

from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.store import Root, Store, StoreFull


def test_a_batch_that_does_not_fit_fails_the_scan_and_the_next_scan_finishes(tmp_path):
    folder = tmp_path / "docs"
    make_corpus(folder, n=30)
    db = str(tmp_path / "c.ndd")
    with Store.open(db) as s:
        ScanJob(s, ScanConfig([Root(str(folder))], "minhash", {}, 0.3, workers=1)).run()
        before = {d.relpath: d.id for d in s.documents.all()}
    more = tmp_path / "more"
    cap = nearly_full(db, more)
    roots = [Root(str(folder)), Root(str(more))]
    with Store.open(db, max_pages=cap) as s:
        with pytest.raises(StoreFull):
            ScanJob(s, ScanConfig(roots, "minhash", {}, 0.3, workers=1)).run()
        assert s.scans.runs()[0].status == "failed"
    with Store.open(db) as s:
        assert s.integrity_check() == "ok"
        assert {d.relpath: d.id for d in s.documents.all() if d.root == str(folder)} == before
        summary = ScanJob(s, ScanConfig(roots, "minhash", {}, 0.3, workers=1)).run()
    assert summary.documents == 70
