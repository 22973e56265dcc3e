"""Helper processes verify candidate pairs exactly as the scan's process does; a helper that
is gone leaves its slices to the scan's process; a cancel stops the verification."""

from __future__ import annotations

import os

import numpy as np
import psutil
import pytest
from pipehelp import make_corpus, scan

from ndd_desktop.core.methods import get_method
from ndd_desktop.pipeline import Limits, ScanConfig, ScanJob
from ndd_desktop.pipeline.cancel import ScanCancelled
from ndd_desktop.pipeline.verify_helpers import VerifyHelpers
from ndd_desktop.pipeline.verify_stage import pair_shares
from ndd_desktop.store import Root


def candidates(store) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of the stored documents, in the order of the first."""
    ids = sorted(d.id for d in store.documents.all())
    a, b = zip(*[(x, y) for k, x in enumerate(ids) for y in ids[k + 1:]])
    return np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)


def nowhere(a, b):
    raise AssertionError("a slice was not verified by a helper")


@pytest.fixture
def scanned(store, tmp_path):
    make_corpus(tmp_path / "docs", n=24, dup_every=3)
    scan(store, [tmp_path / "docs"], method="minhash")
    return store


@pytest.fixture
def verified_here(scanned):
    """(method, params, a, b, shares) of every pair, verified in this process."""
    method = get_method("minhash")
    params = method.params({})
    a, b = candidates(scanned)
    return method, params, a, b, pair_shares(scanned.documents, method, params, a, b)


def test_helpers_give_the_shares_of_the_scans_own_process(scanned, verified_here):
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2, first=2)
    try:
        seen = []
        got = helpers.shares(a, b, nowhere, progress=seen.append)
    finally:
        helpers.close()
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])
    assert (here[0] > 0.9).sum() >= 8  # the planted near-duplicates are among them
    assert seen[-1] == a.shape[0]


def test_more_helpers_start_only_for_many_candidates_where_there_are_no_twins(scanned, verified_here, monkeypatch):
    from ndd_desktop.pipeline import verify_helpers

    monkeypatch.setattr(verify_helpers, "TWINS", False)  # as on macOS and Windows: spawned helpers
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2)
    try:
        assert len(helpers._helpers) == 1
        got = helpers.shares(a, b, nowhere)  # 276 candidates: one helper does them
        assert len(helpers._helpers) == 1
        monkeypatch.setattr(verify_helpers, "GROW_FROM_PAIRS", a.shape[0])
        again = helpers.shares(a, b, nowhere)
        assert len(helpers._helpers) == 2 and all(h.process.is_alive() for h in helpers._helpers)
    finally:
        helpers.close()
    for shares in (got, again):
        assert np.array_equal(shares[0], here[0]) and np.array_equal(shares[1], here[1])


def test_the_first_helper_forks_its_twins_which_verify_alike(scanned, verified_here):
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 3)
    try:
        # one process of ours, two twins forked by it: every core at once, no second loading
        assert [h.process is None for h in helpers._helpers] == [False, True, True]
        got = helpers.shares(a, b, nowhere)  # a slice a twin got wrong would land in nowhere()
    finally:
        helpers.close()
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])


def test_twins_die_with_the_helper_they_were_forked_from(scanned, verified_here):
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2)
    first, twin = helpers._helpers
    try:
        assert twin.process is None
        got = helpers.shares(a, b, nowhere)  # both have loaded and served
        first.process.kill()
        first.process.join(5)
        # the twin's end of the pipe closes when the kernel kills it (parent-death signal)
        assert twin.conn.poll(5)
        with pytest.raises(EOFError):
            twin.conn.recv()
    finally:
        helpers.close()
    assert np.array_equal(got[0], here[0])


def test_slices_of_helpers_that_are_gone_are_verified_here(scanned, verified_here):
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2, first=2)
    for helper in helpers._helpers:
        if helper.process is not None:  # a twin dies with the helper it was forked from
            helper.process.kill()
            helper.process.join(5)
    fallen = []

    def fallback(x, y):
        fallen.append(x.shape[0])
        return pair_shares(scanned.documents, method, params, x, y)

    try:
        got = helpers.shares(a, b, fallback)
    finally:
        helpers.close()
    assert sum(fallen) == a.shape[0]
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])


def test_a_cancel_stops_the_verification(scanned):
    params = get_method("minhash").params({})
    a, b = candidates(scanned)
    helpers = VerifyHelpers(scanned.path, "minhash", params, 1)

    def cancelled():
        raise ScanCancelled()

    try:
        with pytest.raises(ScanCancelled):
            helpers.shares(a, b, nowhere, check=cancelled)
    finally:
        helpers.close()
    assert helpers._helpers == []


def test_a_scan_of_many_files_verifies_in_its_helpers_with_the_same_pairs(tmp_path, monkeypatch):
    from pipehelp import pairs_by_path

    from ndd_desktop.pipeline import ScanConfig, ScanJob, extract_stage, verify_helpers
    from ndd_desktop.store import Root, Store

    make_corpus(tmp_path / "docs", n=40, dup_every=4)
    started = []
    real = verify_helpers.VerifyHelpers.__init__

    def counting(self, *args, **kwargs):
        started.append(args)
        real(self, *args, **kwargs)

    monkeypatch.setattr(verify_helpers.VerifyHelpers, "__init__", counting)
    found = {}
    for label, helpers_from, workers in (("helpers", 40, 2), ("too few files", 41, 2), ("here", 1, 0)):
        monkeypatch.setattr(extract_stage, "HELPERS_FROM_FILES", helpers_from)
        with Store.open(str(tmp_path / f"{label}.ndd")) as store:
            ScanJob(store, ScanConfig(roots=[Root(str(tmp_path / "docs"))], method="minhash", params={}, floor=0.3,
                                      workers=workers)).run()
            found[label] = pairs_by_path(store, "minhash")
        # helpers start from HELPERS_FROM_FILES files in the collection, and only with worker processes
        assert len(started) == 1, label
    assert found["helpers"] == found["too few files"] == found["here"] and len(found["here"]) >= 10
    # a rescan that reads two changed files of the collection keeps the stored scores of the
    # others' pairs (pair_stage.reusing) and verifies only the changed ones' candidates: the
    # files it reads count, not the collection's, so it starts no helper, and finds the
    # pairs of a scan from scratch
    monkeypatch.setattr(extract_stage, "HELPERS_FROM_FILES", 40)
    for name in ("doc003.txt", "doc010.txt"):
        path = tmp_path / "docs" / name
        path.write_text(path.read_text(encoding="utf-8") + " and one more line at the end", encoding="utf-8")
    config = ScanConfig(roots=[Root(str(tmp_path / "docs"))], method="minhash", params={}, floor=0.3, workers=2)
    with Store.open(str(tmp_path / "helpers.ndd")) as store:
        summary = ScanJob(store, config).run()
        again = pairs_by_path(store, "minhash")
    with Store.open(str(tmp_path / "fresh.ndd")) as store:
        ScanJob(store, config).run()
        fresh = pairs_by_path(store, "minhash")
    assert summary.changed == 2 and len(started) == 2  # only the scan from scratch started them
    assert again == fresh and len(fresh) >= 10


def test_helpers_read_the_texts_the_store_reads_without_sqlalchemy(tmp_path):
    """A helper reads texts over a plain read-only sqlite3 connection (store.text_reading):
    the same texts as the store, whether kept compressed or read from their files, and its
    imports leave SQLAlchemy out (0.2 s of a core while the workers extract)."""
    from fresh_python import fresh_python

    from ndd_desktop.store import Store
    from ndd_desktop.store.text_reading import TextReader

    make_corpus(tmp_path / "plain", n=6)
    make_corpus(tmp_path / "kept", n=6, seed=3, kept=True)  # a byte order mark: stored compressed
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [tmp_path / "plain", tmp_path / "kept"], method="minhash")
        ids = sorted(d.id for d in store.documents.all())
        expected = store.documents.texts(ids)
    reader = TextReader(str(tmp_path / "c.ndd"))
    try:
        assert reader.texts(ids) == expected and len(expected) == 12
    finally:
        reader.close()
    script = ("import sys\n"
              "from ndd_desktop.pipeline import verify_helpers, verify_stage\n"
              "from ndd_desktop.store.text_reading import TextReader\n"
              "from ndd_desktop.core.methods import get_method\n"
              "from ndd_desktop.core import share_kernel\n"
              "print('sqlalchemy' in sys.modules)\n")
    assert fresh_python(script).strip() == "False"


def test_a_twin_that_cannot_be_forked_closes_its_pipe_and_the_helper_serves_on(scanned, verified_here, monkeypatch):
    """No twin when fork fails (no memory, too many processes): its pipe closes, so the
    scan sees it gone and gives its slices to the others; the helper itself verifies."""
    import multiprocessing

    from ndd_desktop.pipeline import verify_helpers

    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(verify_helpers.os, "fork", no_fork)
    monkeypatch.setattr(verify_helpers.signal, "signal", lambda *args: None)  # this is pytest's process,
    monkeypatch.setattr(verify_helpers, "name_process", lambda name: None)  # which keeps its name
    method, params, a, b, here = verified_here
    ours, theirs = multiprocessing.Pipe(duplex=True)
    twin_ours, twin_theirs = multiprocessing.Pipe(duplex=True)
    ours.send((a, b))
    ours.send(None)  # served in this process: the helper returns after the slice
    verify_helpers._helper_main(theirs, scanned.path, "minhash", params, twins=[twin_theirs])
    got = ours.recv()
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])
    assert twin_ours.poll(1)
    with pytest.raises(EOFError):
        twin_ours.recv()


def test_helpers_and_their_twins_run_as_far_below_the_scan_as_asked(scanned, verified_here):
    method, params, a, b, here = verified_here
    own = os.getpriority(os.PRIO_PROCESS, 0)
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2, niceness=3)
    try:
        got = helpers.shares(a, b, nowhere)  # both have answered: they run
        first = helpers._helpers[0].process.pid
        twins = psutil.Process(first).children()
        assert len(twins) == 1
        assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in (first, twins[0].pid)] == [min(own + 3, 19)] * 2
    finally:
        helpers.close()
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])


def test_helpers_and_their_twins_show_their_role_in_the_process_list(scanned, verified_here):
    method, params, a, b, here = verified_here
    helpers = VerifyHelpers(scanned.path, "minhash", params, 2)
    try:
        got = helpers.shares(a, b, nowhere)  # both have answered: they run
        first = psutil.Process(helpers._helpers[0].process.pid)
        twins = first.children()
        assert len(twins) == 1
        assert [first.name(), twins[0].name()] == ["ndd-verify", "ndd-verify"]
        assert psutil.Process().name() != "ndd-verify"  # the scan's own process is not renamed
    finally:
        helpers.close()
    assert np.array_equal(got[0], here[0]) and np.array_equal(got[1], here[1])


def test_a_scan_starts_its_helpers_as_far_below_it_as_its_limits_say(store, tmp_path, monkeypatch):
    from ndd_desktop.pipeline import extract_stage, verify_helpers

    monkeypatch.setattr(extract_stage, "HELPERS_FROM_FILES", 1)  # helpers for a small collection too
    seen = []

    class Watched(verify_helpers.VerifyHelpers):
        """The real helpers, whose first one's priority is read once it has answered."""

        def shares(self, *args, **kwargs):
            got = super().shares(*args, **kwargs)
            seen.append(os.getpriority(os.PRIO_PROCESS, self._helpers[0].process.pid))
            return got

    monkeypatch.setattr(verify_helpers, "VerifyHelpers", Watched)
    make_corpus(tmp_path / "docs", n=24, dup_every=3)
    own = os.getpriority(os.PRIO_PROCESS, 0)
    config = ScanConfig(roots=[Root(str(tmp_path / "docs"))], method="minhash", workers=2,
                        limits=Limits(worker_niceness=3))
    summary = ScanJob(store, config).run()
    assert summary.pairs >= 8
    assert seen == [min(own + 3, 19)]
