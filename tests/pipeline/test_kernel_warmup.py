"""Tests of the pair search's kernels loaded on a thread while a scan reads its files."""

from __future__ import annotations

import threading

from pipehelp import make_corpus, scan

from ndd_desktop.core import set_lsh
from ndd_desktop.core.inverted_index import SAMPLE_DOCS
from ndd_desktop.core.methods import get_method
from ndd_desktop.core.set_overlap_method import SetOverlapMethod
from ndd_desktop.pipeline.kernel_warmup import KernelWarmup
from ndd_desktop.store import Store


def test_a_warmup_runs_on_its_own_thread_and_a_failure_is_only_recorded():
    seen = []
    w = KernelWarmup(lambda: seen.append(threading.current_thread().name))
    w.wait()
    assert seen == ["ndd-kernel-warmup"] and w.failed is None

    def broken() -> None:
        raise ImportError("no numba here")

    w = KernelWarmup(broken)
    w.wait()
    assert isinstance(w.failed, ImportError)
    KernelWarmup(None).wait()  # nothing to run: returns at once
    w = KernelWarmup(lambda: seen.append("later"), later=True)
    w.wait()  # never started: returns at once, nothing ran
    assert seen == ["ndd-kernel-warmup"]
    w.start()
    w.start()  # once
    w.wait()
    assert seen == ["ndd-kernel-warmup", "later"]


def test_set_based_methods_warm_the_banded_search_only_where_the_join_may_choose_it():
    from ndd_desktop.core.set_overlap_method import warm_banded_search

    for name in ("qgram", "bottomk", "hybrid"):
        m = get_method(name)
        assert m.pair_search_warmup(SAMPLE_DOCS) is None, name
        assert m.pair_search_warmup(SAMPLE_DOCS + 1) is warm_banded_search, name
    for name in ("minhash", "exact", "fingerprint"):
        assert get_method(name).pair_search_warmup(10**6) is None, name


def test_asking_for_the_warmup_imports_no_numba():
    """The scan asks for the warm-up on its own thread before the workers start; the
    import of the banded search (and numba with it) happens on the warm-up's thread."""
    from fresh_python import fresh_python

    out = fresh_python(
        "import os, sys\n"
        "os.environ['NDD_NATIVE_KERNELS'] = '1'\n"
        "from ndd_desktop.core.methods import get_method\n"
        "warm = get_method('qgram').pair_search_warmup(10**6)\n"
        "print('numba' in sys.modules, 'ndd_desktop.core.set_lsh' in sys.modules)\n"
        "warm()\n"
        "print('numba' in sys.modules, 'ndd_desktop.core.set_lsh' in sys.modules)\n"
    )
    assert out.split() == ["False", "False", "True", "True"]


def test_warm_loads_the_kernels_for_every_set_type():
    """After it, the band keys' kernel and the merge of 32- and 64-bit sets are compiled
    (loaded from numba's cache) for the types a scan passes them."""
    from ndd_desktop.core import oph_kernel, pair_overlap

    set_lsh.warm()
    merged = {str(sig[0]) for sig in pair_overlap._merged_counts.signatures}
    assert any("uint32" in s for s in merged) and any("uint64" in s for s in merged), merged
    assert oph_kernel.band_key_rows.signatures


def test_a_scan_that_reads_files_warms_the_pair_search_and_waits_for_it(tmp_path, monkeypatch):
    """The scan asks the method for its warm-up with the number of files it walked, runs it
    on a thread while it reads them, and has joined that thread when it returns; a rescan
    with nothing to read starts none."""
    from ndd_desktop.pipeline.extract_stage import ExtractStage

    calls = []

    def warmup(self, documents):
        def warm() -> None:
            calls.append((documents, threading.current_thread().name))

        return warm

    monkeypatch.setattr(SetOverlapMethod, "pair_search_warmup", warmup)
    helpers = ExtractStage._start_helpers  # the warm-up starts once the reading has begun, not before

    def start_helpers(self, *args, **kwargs):
        calls.append("reading")
        return helpers(self, *args, **kwargs)

    monkeypatch.setattr(ExtractStage, "_start_helpers", start_helpers)
    make_corpus(tmp_path / "docs", n=9)
    with Store.open(tmp_path / "c.ndd") as store:
        before = set(threading.enumerate())
        scan(store, [tmp_path / "docs"], method="qgram")
        assert calls == ["reading", (9, "ndd-kernel-warmup")]
        assert not [t for t in set(threading.enumerate()) - before if t.name == "ndd-kernel-warmup"]
        scan(store, [tmp_path / "docs"], method="qgram")  # unchanged: nothing to read
        assert len(calls) == 2
