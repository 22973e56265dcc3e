"""Every stored pair is scored on its two texts (core.text_share), whatever the method;
the method's own estimate is kept beside it."""

from __future__ import annotations

import math

import pytest

from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.pipeline.grouping import groups_at
from ndd_desktop.store import Root, Store

WORDS = [f"word{k:03d}z" for k in range(200)]


@pytest.fixture
def revised(tmp_path):
    """a.txt (200 words) and b.txt: the same with word 100 replaced; c.txt: another text."""
    root = tmp_path / "src"
    root.mkdir()
    (root / "a.txt").write_text(" ".join(WORDS), encoding="utf-8")
    edited = WORDS.copy()
    edited[100] = "replaced"
    (root / "b.txt").write_text(" ".join(edited), encoding="utf-8")
    (root / "c.txt").write_text(" ".join(f"other{k:03d}q" for k in range(200)), encoding="utf-8")
    return root


@pytest.mark.parametrize("method", ["qgram", "bottomk", "minhash", "fingerprint", "hybrid"])
def test_the_score_is_the_share_of_text_and_the_estimate_is_kept(tmp_path, revised, method):
    with Store.open(str(tmp_path / f"{method}.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(revised))], method=method, workers=0)).run()
        ps = store.pairs.sets()[0]
        pa = store.pairs.arrays(method, ps.pairs_key)
        assert len(pa) == 1  # a~b; c shares nothing
        # one changed word in 200 breaks the five runs through it and costs that word: 199/200
        assert pa.score[0] == pytest.approx(199 / 200)
        assert pa.cont_ab[0] == pytest.approx(199 / 200) and pa.cont_ba[0] == pytest.approx(199 / 200)
        assert not math.isnan(pa.estimate[0]) and 0.0 < pa.estimate[0] <= 1.0


def test_a_scan_with_containment_stores_the_larger_share(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "report.txt").write_text(" ".join(WORDS), encoding="utf-8")
    (root / "quote.txt").write_text(" ".join(WORDS[50:90]), encoding="utf-8")  # 40 of its 200 words
    with Store.open(str(tmp_path / "c.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", params={"measure": "containment"},
                                  workers=0)).run()
        ps = store.pairs.sets()[0]
        assert ps.floor == pytest.approx(0.2)  # the default floor follows the default threshold
        pa = store.pairs.arrays("qgram", ps.pairs_key)
        assert len(pa) == 1
        assert pa.score[0] == 1.0  # the quote is wholly inside the report
        assert sorted([pa.cont_ab[0], pa.cont_ba[0]]) == [pytest.approx(40 / 200), 1.0]



def test_with_containment_short_notes_tie_no_letters_together(tmp_path):
    # "Approved." and "Thanks." lie in every letter below; the letters share no run of
    # five words. Each note was wholly found in each letter (score 1) and one group held all.
    root = tmp_path / "src"
    root.mkdir()
    (root / "note.txt").write_text("Approved.", encoding="utf-8")
    (root / "thanks.txt").write_text("Thanks.", encoding="utf-8")
    for k in range(4):
        body = " ".join(f"letter{k}w{n:02d}" for n in range(60))
        (root / f"letter{k}.txt").write_text(f"{body} approved. Thanks.", encoding="utf-8")
    with Store.open(str(tmp_path / "c.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", params={"measure": "containment"},
                                  workers=0)).run()
        ps = store.pairs.sets()[0]
        assert len(store.pairs.arrays("qgram", ps.pairs_key)) == 0
        assert groups_at(store, "qgram", ps.pairs_key, 0.2).groups == []


COMMON = ("government information community development important education national experience "
          "particular different business question children problem several something").split()


def test_hybrid_verifies_the_words_it_corrected(tmp_path):
    """A text and a copy with a typo in every fourth word share no five-word run as written;
    hybrid compares corrected words, and its pairs are verified on them too."""
    import random

    rng = random.Random(5)
    words = [rng.choice(COMMON) for _ in range(200)]
    typos = [w[:2] + w[3] + w[2] + w[4:] if k % 4 == 0 else w for k, w in enumerate(words)]
    root = tmp_path / "src"
    root.mkdir()
    (root / "clean.txt").write_text(" ".join(words), encoding="utf-8")
    (root / "typos.txt").write_text(" ".join(typos), encoding="utf-8")
    with Store.open(str(tmp_path / "h.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="hybrid", workers=0)).run()
        ps = store.pairs.sets()[0]
        pa = store.pairs.arrays("hybrid", ps.pairs_key)
        assert len(pa) == 1 and pa.score[0] == 1.0  # every typo corrected back
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", workers=0, floor=0.0)).run()
        qgram = next(p for p in store.pairs.sets() if p.method == "qgram")
        qa = store.pairs.arrays("qgram", qgram.pairs_key)
        # as written, few five-word runs survive (a swap of two equal letters changes nothing)
        assert len(qa) == 1 and qa.score[0] < 0.3 and qa.estimate[0] > 0.7
