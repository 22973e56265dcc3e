"""The scan on a real Dask LocalCluster (2 worker processes, shared by the module's tests):
the same pairs and errors as the local engine, an unchanged rescan that reads nothing,
the band group-by equal to the local one, a worker killed mid-scan, a cluster that goes
away, and the errors of a bad scheduler address or an unsupported method."""

from __future__ import annotations

import math
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ndd_desktop.cluster import ClusterError, DaskEngine
from ndd_desktop.cluster.bands import DaskBandGrouper
from ndd_desktop.cluster.connect import open_client, require_distributed
from ndd_desktop.core import lsh, set_lsh
from ndd_desktop.core.band_words import DOC_BITS, band_word_codes
from ndd_desktop.core.band_grouping import band_grouping
from ndd_desktop.pipeline import ScanConfig, ScanError, ScanJob
from ndd_desktop.store import Root, Store

WORDS = [f"{a}{b}" for a in ("ar", "be", "co", "du", "el", "fa", "gi", "ho") for b in
         ("lam", "mor", "nex", "pul", "quar", "rist", "sov", "tem", "ulk", "vey")]


def _text(rng: random.Random, n: int = 160) -> list[str]:
    return [rng.choice(WORDS) + str(rng.randrange(40)) for _ in range(n)]


def make_folder(folder: Path, n: int = 40, seed: int = 7) -> None:
    """n texts, a third of them near-duplicates (a few to many words changed, so scores
    spread over the floor), one corrupt PDF, one empty file."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    bases = []
    for k in range(n):
        if k % 3 == 2:
            words = list(bases[rng.randrange(len(bases))])
            for _ in range(rng.randrange(2, 70)):
                words[rng.randrange(len(words))] = rng.choice(WORDS)
        else:
            words = _text(rng)
            bases.append(words)
        (folder / f"d{k:03d}.txt").write_text(" ".join(words), encoding="utf-8")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Length 99 >> stream\nxx")
    (folder / "empty.txt").write_bytes(b"")


def pairs_of(store: Store, method: str) -> list[tuple]:
    """Stored pairs as (path, path, score, containment of the first, of the second,
    estimate), by path, so the order of document ids does not matter."""
    sets = [ps for ps in store.pairs.sets() if ps.method == method]
    assert len(sets) == 1
    out = []
    for r in store.pairs.rows(method, sets[0].pairs_key, 0.0):
        a, b, ca, cb = r.a.relpath, r.b.relpath, r.cont_ab, r.cont_ba
        if a > b:
            a, b, ca, cb = b, a, cb, ca
        out.append((a, b, r.score, ca, cb, None if math.isnan(r.estimate) else r.estimate))
    return sorted(out)


def failures_of(store: Store) -> list[tuple]:
    return sorted((d.relpath, d.status, d.reason) for d in store.documents.all(None, status=None) if d.status != "ok")


def run_scan(db: Path, folder: Path, method: str, engine=None, **kw):
    """A scan with the Dask ``engine``, or the local engine reading in this process."""
    store = Store.open(db)
    try:
        config = ScanConfig(roots=[Root(str(folder))], method=method, workers=0 if engine is None else 2)
        summary = ScanJob(store, config, engine=engine, **kw).run()
        return summary, pairs_of(store, method), failures_of(store)
    finally:
        store.close()


@pytest.fixture(scope="module")
def engine():
    """One DaskEngine on a LocalCluster of 2 worker processes for the whole module; every
    group-by on the cluster, however small (client_rows=0)."""
    eng = DaskEngine(workers=2, part_files=4, client_rows=0).start()
    yield eng
    eng.close()


def _dask_thread(name: str) -> bool:
    return any(part in name for part in ("Dask", "IO loop", "ThreadPoolExecutor", "Profile", "AsyncProcess", "QueueFeederThread"))


@pytest.fixture(autouse=True)
def _no_thread_left_running(thread_guard):
    """The suite's thread guard, less the threads Dask's client keeps for its lifetime
    (its event loop and offload pool, started on first use and stopped with the client)."""
    python_threads, _ = thread_guard
    before = python_threads()
    yield
    deadline = time.monotonic() + 2.0
    while True:
        left = [t.name for t in python_threads() - before if t.is_alive() and not _dask_thread(t.name)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    if left:
        pytest.fail("test left threads running: " + ", ".join(left), pytrace=False)


@pytest.mark.parametrize("method", ["qgram", "minhash"])
def test_dask_engine_finds_the_local_pairs_and_rescans_nothing(tmp_path, engine, method):
    folder = tmp_path / "docs"
    make_folder(folder)
    local, local_pairs, local_failed = run_scan(tmp_path / "local.ndd", folder, method)
    sent = engine.files_sent
    dask, dask_pairs, dask_failed = run_scan(tmp_path / "dask.ndd", folder, method, engine)
    assert engine.files_sent - sent == 42  # every file was read on the cluster
    assert len(local_pairs) >= 6  # the corpus has near-duplicates, some below and above 0.5
    assert {round(p[2], 1) for p in local_pairs} != {1.0}
    assert dask_pairs == local_pairs
    assert (dask.documents, dask.errors, dask.pairs) == (local.documents, local.errors, local.pairs) == (40, 2, len(local_pairs))
    # the corrupt and the empty file have the reasons of a local scan
    assert [f[0] for f in dask_failed] == ["broken.pdf", "empty.txt"]
    assert dask_failed == local_failed
    sent = engine.files_sent
    again, again_pairs, _ = run_scan(tmp_path / "dask.ndd", folder, method, engine)
    assert engine.files_sent == sent  # nothing handed to the workers
    assert (again.new, again.changed, again.unchanged) == (0, 0, 42)
    assert again_pairs == local_pairs


def _set_sketches(n: int, seed: int) -> list[np.ndarray]:
    """uint32 sets: groups of five near-copies of a base (Jaccard about 0.5 to 0.9), and an empty one."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        if k % 5 == 0:
            base = rng.integers(0, 2**32, 700 + k, dtype=np.uint64)
        keep = base[rng.random(base.shape[0]) > 0.04 * (k % 5)]
        extra = rng.integers(0, 2**32, 30 * (k % 5), dtype=np.uint64)
        out.append(np.unique(np.concatenate([keep, extra]).astype(np.uint32)))
    out[7] = np.empty(0, np.uint32)
    return out


@pytest.mark.parametrize("shuffle", ["tasks", "p2p"])
def test_band_group_by_on_the_cluster_equals_the_local_one(engine, shuffle):
    grouper = DaskBandGrouper(engine.client, shuffle, client_rows=0)
    sketches = _set_sketches(240, 3)
    i, j = set_lsh.band_pairs(sketches, 0.5)
    with band_grouping(grouper):
        di, dj = set_lsh.band_pairs(sketches, 0.5)
    assert grouper.stats["shuffle"] == shuffle and grouper.stats["map_parts"] >= 2
    assert grouper.stats["arrays"] == (shuffle == "tasks")  # packed words go as sorted arrays
    assert len(i) > 240  # the groups pair up
    assert np.array_equal(i, di) and np.array_equal(j, dj)
    # small sets (bottom-k-like): SMALL_BINS bins, more rounds
    small = [s[:200] for s in sketches]
    i, j = set_lsh.lsh_pairs(small, 0.4)
    with band_grouping(grouper):
        di, dj = set_lsh.lsh_pairs(small, 0.4)
    assert len(i) > 100 and np.array_equal(i, di) and np.array_equal(j, dj)


def test_a_group_by_smaller_than_client_rows_is_left_to_the_client(engine):
    sketches = _set_sketches(240, 3)
    keys = np.random.default_rng(5).integers(0, 2**63, (600, 12), dtype=np.uint64)
    keys[300:] = keys[:300]  # 300 exact pairs
    want_sets, want_keys = set_lsh.band_pairs(sketches, 0.5), lsh.bucket_pairs(keys, 1)
    rows = 239 * set_lsh.LARGE_BINS  # the live sketches' band rows of one group, at least
    grouper = DaskBandGrouper(engine.client, "tasks", client_rows=rows * 100)
    submitted = []
    real = engine.client.submit
    engine.client.submit = lambda *a, **k: submitted.append(a[0]) or real(*a, **k)
    try:
        with band_grouping(grouper):
            got_sets, got_keys = set_lsh.band_pairs(sketches, 0.5), lsh.bucket_pairs(keys, 1)
            assert grouper.stats["shuffle"] == "client"
    finally:
        del engine.client.submit
    assert submitted == []  # nothing went to the cluster
    assert all(np.array_equal(a, b) for a, b in zip(got_sets, want_sets))
    assert np.array_equal(got_keys, want_keys) and want_keys.shape[0] == 300
    grouper.client_rows = 0  # and with no floor, the same through the cluster
    with band_grouping(grouper):
        again = set_lsh.band_pairs(sketches, 0.5)
    assert grouper.stats["shuffle"] == "tasks"
    assert all(np.array_equal(a, b) for a, b in zip(again, want_sets))


@pytest.mark.parametrize("shuffle", ["tasks", "p2p"])
def test_feature_buckets_on_the_cluster_equal_the_local_ones(engine, shuffle):
    grouper = DaskBandGrouper(engine.client, shuffle, client_rows=0)
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 2**63, (600, 12), dtype=np.uint64)
    keys[300:] = keys[:300]  # 300 exact pairs
    keys[100:400:2, 3] = keys[0, 3]  # one bucket of 150 rows, capped at 20 below
    keys[::7, 5] = keys[1, 5]
    for r, cap in ((1, 20), (2, None), (3, 20)):
        want = lsh.bucket_pairs(keys, r, max_bucket=cap)
        with band_grouping(grouper):
            got = lsh.bucket_pairs(keys, r, max_bucket=cap)
        assert want.shape[0] >= 300
        assert np.array_equal(got, want), (r, cap)


def _worker_pids(engine) -> list[int]:
    return sorted(engine.client.run(os.getpid).values())


def test_a_worker_killed_mid_scan_still_gives_every_pair(tmp_path, engine):
    folder = tmp_path / "docs"
    make_folder(folder, n=400, seed=11)  # enough that the first report comes while most are unread
    local, local_pairs, _ = run_scan(tmp_path / "local.ndd", folder, "minhash")
    pids = _worker_pids(engine)
    killed: list[int] = []

    def progress(p) -> None:  # kill once, after a few partitions came back
        if p.stage == "extract" and p.done and p.done >= 8 and not killed:
            killed.append(p.total - p.done)
            os.kill(pids[0], signal.SIGKILL)

    summary, pairs, _ = run_scan(tmp_path / "dask.ndd", folder, "minhash", engine, progress=progress)
    assert killed and killed[0] >= 40  # files still to read when the worker died
    assert local.documents == 400 and (summary.documents, summary.new) == (local.documents, local.new)
    assert pairs == local_pairs and len(pairs) >= 20
    deadline = time.monotonic() + 20  # the nanny brings the worker back for the next tests
    while len(engine.client.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)


def test_a_cluster_that_goes_away_keeps_the_written_batches(tmp_path, engine):
    from ndd_desktop.pipeline.extract_stage import BATCH_SECONDS

    folder = tmp_path / "docs"
    make_folder(folder, n=60, seed=13)
    db = tmp_path / "c.ndd"
    # a client of its own on the module's cluster, whose connection goes away mid-scan
    eng = DaskEngine(scheduler=engine.client.scheduler.address, part_files=2).start()
    seen: list[int] = []

    def progress(p) -> None:
        if p.stage != "extract" or not p.done or p.done >= p.total:
            return
        seen.append(p.done)
        if len(seen) == 1:  # let the stage write a batch (it writes at least every BATCH_SECONDS)
            time.sleep(BATCH_SECONDS + 0.1)
        elif len(seen) == 2:  # then the cluster goes away (for this scan)
            eng.client.close()

    try:
        with pytest.raises(ClusterError, match="run the same command again to resume"):
            run_scan(db, folder, "qgram", eng, progress=progress)
    finally:
        eng.close()
    store = Store.open(db)
    kept = store.documents.count(status=None)
    store.close()
    assert len(seen) >= 2 and 0 < kept < 62
    summary, pairs, _ = run_scan(db, folder, "qgram")  # the next run reads only the rest
    assert summary.new == 62 - kept
    assert summary.documents == 60 and len(pairs) >= 10


def test_a_result_awaited_from_a_closed_client_is_a_lost_cluster(engine):
    """The race CI met: the client closes while a partition's result is awaited, and
    Dask raises RuntimeError("IOLoop is closed") instead of CancelledError."""
    from ndd_desktop.cluster.connect import is_lost

    eng = DaskEngine(scheduler=engine.client.scheduler.address).start()
    fut = eng.client.submit(time.sleep, 0.5, pure=False)
    eng.client.close()
    with pytest.raises(Exception) as raised:
        fut.result()
    assert is_lost(raised.value, eng.client)
    assert not is_lost(RuntimeError("a bug in the work"), engine.client)  # a running client: the work's error
    assert not is_lost(ValueError("IOLoop is closed"), eng.client)
    eng.close()


def test_a_scheduler_that_does_not_answer_is_an_error_within_the_timeout():
    t0 = time.monotonic()
    with pytest.raises(ClusterError, match=r"no Dask scheduler answers at tcp://127\.0\.0\.1:1\b.*refused"):
        open_client("tcp://127.0.0.1:1", None)
    assert time.monotonic() - t0 < 10
    require_distributed()  # Dask's imports are not the wait being measured
    silent = socket.socket()  # accepts the connection, never says a word
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)
    try:
        address = f"tcp://127.0.0.1:{silent.getsockname()[1]}"
        t0 = time.monotonic()
        with pytest.raises(ClusterError, match="no Dask scheduler answers at " + address):
            open_client(address, None, timeout_s=1.5)
        assert 1.4 < time.monotonic() - t0 < 5
    finally:
        silent.close()


def test_an_address_that_answers_garbage_is_not_taken_for_a_scheduler():
    server = socket.socket()  # answers every connection with bytes that are no Dask message
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.1)
    stop = threading.Event()

    def answer() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:  # the accept timed out: look at the stop flag again
                continue
            with conn:
                conn.sendall(b"\xff" * 64 + b"HTTP/1.1 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(ClusterError, match="no Dask scheduler answers at " + address + ": something answered"):
            open_client(address, None, timeout_s=2)
    finally:
        stop.set()
        thread.join()
        server.close()


def test_a_refused_address_is_told_without_importing_dask(tmp_path):
    # the command line's answer to a wrong address should not wait for Dask's imports
    code = ("import sys; from ndd_desktop.cluster.connect import probe_address, ClusterError\n"
            "try:\n    probe_address('tcp://127.0.0.1:1', 2)\nexcept ClusterError as e:\n    print(e)\n"
            "print('distributed' in sys.modules, 'dask' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "no Dask scheduler answers at tcp://127.0.0.1:1" in out and "refused" in out
    assert out.strip().endswith("False False")


def test_a_method_without_a_banded_search_is_refused_by_name(tmp_path):
    folder = tmp_path / "docs"
    make_folder(folder, n=3)
    store = Store.open(tmp_path / "c.ndd")
    try:
        with pytest.raises(ScanError, match="runs the methods qgram, minhash; fingerprint has no banded"):
            ScanJob(store, ScanConfig([Root(str(folder))], "fingerprint"), engine=DaskEngine(workers=1)).run()
        # bottomk has one (qgram's): it is refused as not tried yet, as docs/scale-out.md says
        with pytest.raises(ScanError, match="bottomk shares qgram's banded search but has not been tried"):
            ScanJob(store, ScanConfig([Root(str(folder))], "bottomk"), engine=DaskEngine(workers=1)).run()
        assert store.documents.count(status=None) == 0
    finally:
        store.close()


def test_the_workers_compress_the_texts_once_the_dictionary_is_trained(tmp_path, engine, monkeypatch):
    from ndd_desktop.cluster.extract import DaskExtractStage
    from ndd_desktop.pipeline.worker_sketch import TEXT_ATTR
    from ndd_desktop.store.text_codec import TRAIN_MAX_TEXTS

    rng = random.Random(3)
    folder = tmp_path / "docs"
    folder.mkdir()
    texts = {f"t{k:04d}.txt": " ".join(_text(rng, 60)) for k in range(TRAIN_MAX_TEXTS + 200)}
    for name, text in texts.items():  # a byte order mark: texts the store keeps (not read from the file)
        (folder / name).write_text(text, encoding="utf-8-sig")
    arrived = []  # (texts the client must compress, texts the workers compressed) per batch
    real = DaskExtractStage._write

    def spy(self, docs):
        arrived.append((sum(getattr(d, TEXT_ATTR, None) is None for d in docs),
                        sum(bool(getattr(d, TEXT_ATTR, None)) for d in docs)))  # a frame, not the empty mark
        return real(self, docs)

    monkeypatch.setattr(DaskExtractStage, "_write", spy)
    with DaskEngine(scheduler=engine.cluster.scheduler_address, part_files=32) as wide:
        with Store.open(tmp_path / "c.ndd") as store:
            ScanJob(store, ScanConfig(roots=[Root(str(folder))], method="minhash", workers=2), engine=wide).run()
            ids = {d.relpath: d.id for d in store.documents.all()}
            assert store.documents.texts(list(ids.values())) == {ids[n]: t for n, t in texts.items()}
    # the dictionary is trained once 1,000 texts are in; the partitions submitted after
    # that (at most IN_FLIGHT_PER_WORKER per worker were already out) come back compressed
    assert sum(w for _, w in arrived) >= len(texts) - TRAIN_MAX_TEXTS - 6 * 32


@pytest.mark.parametrize("bits", [0, 1, 3])
def test_band_buckets_split_sorted_words_by_their_top_bits_and_pair_as_the_local_search(bits):
    from ndd_desktop.cluster.bands import _reduce_words, set_band_buckets

    sketches = _set_sketches(300, 11)
    live = np.flatnonzero([s.shape[0] > 0 for s in sketches])
    n, groups, r, bins = len(sketches), 3, 2, 16
    lens = np.array([sketches[d].shape[0] for d in live], dtype=np.int64)
    halves = (live[:150], live[150:]), (lens[:150], lens[150:])
    parts = [(d, np.concatenate([sketches[x] for x in d]), ln) for d, ln in zip(*halves)]
    maps = [set_band_buckets(p, groups, r, bins, n, bits) for p in parts]
    for m in maps:
        assert len(m) == 1 << bits and all(len(b) == groups for b in m)
        for j, bucket in enumerate(m):
            for words in bucket:
                assert np.all(words[1:] >= words[:-1])  # sorted
                if bits:  # every word of bucket j has j in its top bits
                    assert np.all(words >> np.uint64(64 - bits) == j)
    got = set_lsh.sorted_unique_codes([_reduce_words(n, *[m[j] for m in maps]) for j in range(1 << bits)])
    # the local search's keys of every group, paired by the local run functions
    want = []
    for g in range(groups):
        words = np.concatenate([set_lsh.band_keys([sketches[d]], g, r, bins).reshape(-1)
                                for d in live])
        docs = np.repeat(live, bins)
        packed = (words >> np.uint64(DOC_BITS)) << np.uint64(DOC_BITS) | docs.astype(np.uint64)
        want.append(band_word_codes(packed, None, n))
    assert got.shape[0] > 300 and np.array_equal(got, set_lsh.sorted_unique_codes(want))


def test_a_cluster_with_no_worker_stops_the_scan_instead_of_waiting_for_ever(tmp_path, monkeypatch):
    """A scheduler with no worker (none started, or every one died) left the scan in
    as_completed for ever, deaf to one Ctrl-C."""
    from ndd_desktop.cluster import extract

    distributed = require_distributed()
    monkeypatch.setattr(extract, "NO_WORKERS_S", 1.0)
    folder = tmp_path / "docs"
    make_folder(folder, n=6)
    cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0")
    try:
        eng = DaskEngine(scheduler=cluster.scheduler_address).start()
        t0 = time.monotonic()
        try:
            with pytest.raises(ClusterError, match="has had no worker for 1 s"):
                run_scan(tmp_path / "c.ndd", folder, "qgram", eng)
        finally:
            eng.close()
        assert time.monotonic() - t0 < 30
    finally:
        cluster.close()


def test_workers_that_cannot_see_the_folder_are_refused_by_name(tmp_path, engine):
    # a worker blind to the scanned folder (not mounted there) reported every file
    # "vanished during the scan" and the scan ended with exit 0 and no document
    seen = tmp_path / "seen"
    seen.mkdir()
    engine.check_workers([str(seen)])  # every worker sees it: nothing to say
    hidden = str(tmp_path / "mounted-on-the-client-only")
    with pytest.raises(ScanError) as caught:
        engine.check_workers([str(seen), hidden])
    message = str(caught.value)
    workers = list(engine.client.scheduler_info()["workers"])
    assert len(workers) == 2 and all(f"{w} cannot see {hidden}" in message for w in workers)
    assert "the same paths" in message and str(seen) + "," not in message


def _self_signed(folder: Path) -> tuple[str, str]:
    """A certificate for localhost and its key, made here (PEM files in ``folder``)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_file), str(key_file)


def test_a_scheduler_secured_with_tls_is_reached_with_dask_s_security_settings(tmp_path):
    # the probe connected without the TLS settings Dask is configured with, and said
    # "something answered there, but not in Dask's protocol", while a Client connected
    import dask
    from distributed import LocalCluster
    from distributed.security import Security

    from ndd_desktop.cluster.connect import probe_scheduler

    cert, key = _self_signed(tmp_path)
    settings = {"distributed.comm.require-encryption": True, "distributed.comm.tls.ca-file": cert}
    for role in ("scheduler", "worker", "client"):
        settings[f"distributed.comm.tls.{role}.cert"] = cert
        settings[f"distributed.comm.tls.{role}.key"] = key
    with dask.config.set(settings):
        with LocalCluster(n_workers=0, protocol="tls://", security=Security(), dashboard_address=None,
                          processes=False) as cluster:
            address = cluster.scheduler_address
            assert address.startswith("tls://")
            probe_scheduler(address, 10.0)  # raised ClusterError before


def test_a_local_cluster_s_start_is_announced(capsys, tmp_path):
    # its workers took 3.5 s to start with nothing on the screen before the progress line
    from cli_run import run

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("the harbour master wrote to the council about the bridge", encoding="utf-8")
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask", "--workers", "1")
    assert status == 0, err
    assert err.startswith("starting a local Dask cluster of 1 worker...\n")
    status, _, err = run(capsys, "scan", folder, "--db", tmp_path / "c.ndd", "--engine", "dask", "--workers", "1", "-q")
    assert status == 0 and "starting a local Dask cluster" not in err
