"""A rescan takes the stored scores of pairs whose documents did not change, and verifies
only the others; a pair set made stale by a scan that stopped before its pair stage is
verified again in full."""

from __future__ import annotations

import pytest
from pipehelp import make_corpus, pairs_by_path, scan, variant

from ndd_desktop.pipeline import verify_stage
from ndd_desktop.pipeline.cancel import CancelToken, ScanCancelled
from ndd_desktop.store import Store


@pytest.fixture
def verified(monkeypatch):
    """The pairs each scan verified on their texts (the scans here run in one process)."""
    seen: list[tuple[int, int]] = []
    real = verify_stage.pair_shares

    def counting(documents, method, params, a, b, *args, **kwargs):
        seen.extend(zip(a.tolist(), b.tolist()))
        return real(documents, method, params, a, b, *args, **kwargs)

    monkeypatch.setattr(verify_stage, "pair_shares", counting)
    return seen


def fresh_pairs(tmp_path, folder, name: str) -> list[tuple]:
    with Store.open(str(tmp_path / f"{name}.ndd")) as fresh:
        scan(fresh, [folder], method="minhash")
        return pairs_by_path(fresh, "minhash")


def test_a_rescan_verifies_only_the_pairs_of_the_documents_it_read(tmp_path, verified):
    folder = tmp_path / "docs"
    files = make_corpus(folder, n=30, dup_every=3)
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [folder], method="minhash")
        first = len(verified)
        assert first >= 10
        verified.clear()
        edited = "doc004.txt"
        (folder / edited).write_text(variant(files[edited], seed=9, changes=6), encoding="utf-8")
        scan(store, [folder], method="minhash")
        ids = {d.relpath: d.id for d in store.documents.all()}
        again = pairs_by_path(store, "minhash")
    # only pairs of the edited document were verified again, and at least its own pair
    assert verified and all(ids[edited] in pair for pair in verified)
    assert len(verified) < first
    assert again == fresh_pairs(tmp_path, folder, "fresh")


def test_a_pair_set_left_stale_by_a_stopped_scan_is_verified_again(tmp_path, verified):
    folder = tmp_path / "docs"
    files = make_corpus(folder, n=30, dup_every=3)
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [folder], method="minhash")
        # doc005 is a near-duplicate of doc004: rewritten, their pair's score falls; the
        # scan that reads it stops before its pair stage, so the stored score is stale
        (folder / "doc005.txt").write_text(variant(files["doc005.txt"], seed=3, changes=8), encoding="utf-8")
        token = CancelToken()

        def stop_at_pairs(progress) -> None:
            if progress.stage == "pairs":
                token.cancel()

        with pytest.raises(ScanCancelled):
            scan(store, [folder], method="minhash", progress=stop_at_pairs, cancel=token)
        # another edit, so that the next rescan reads a file and makes the pair set again
        (folder / "doc010.txt").write_text(variant(files["doc010.txt"], seed=4, changes=2), encoding="utf-8")
        verified.clear()
        scan(store, [folder], method="minhash")
        ids = {d.relpath: d.id for d in store.documents.all()}
        again = pairs_by_path(store, "minhash")
    assert any(ids["doc005.txt"] in pair for pair in verified)  # not taken from the stale set
    assert again == fresh_pairs(tmp_path, folder, "fresh")


@pytest.mark.parametrize("method", ["minhash", "qgram"])
def test_an_unchanged_rescan_finds_the_pair_set_current_and_verifies_nothing(tmp_path, verified, method):
    """The first scan stores the digest of its pair stage's input as it reads the sketches;
    the check of a later scan, which reads them apart, must come to the same digest."""
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.ingest.options import ExtractOptions
    from ndd_desktop.pipeline.pair_stage import pair_set_current
    from ndd_desktop.pipeline.reading import reading_digest

    folder = tmp_path / "docs"
    make_corpus(folder, n=24, dup_every=3)
    with Store.open(str(tmp_path / "c.ndd")) as store:
        scan(store, [folder], method=method)
        assert verified
        m = get_method(method)
        params = m.params({})
        floor = store.pairs.find_set(method, m.pairs_key(params)).floor
        assert pair_set_current(store, m, params, floor, reading_digest(ExtractOptions()))
        verified.clear()
        scan(store, [folder], method=method)
        assert verified == []
