"""Nothing is left out that does not duplicate something exported: a chained group keeps as
many documents as it needs, and every left-out document names the kept one it duplicates."""

from __future__ import annotations

import csv
import os
import random

import numpy as np
import pytest

from export_support import doc_id, write
from ndd_desktop.export import ExportOptions, plan_export, run_export
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.store import Root, Store

THRESHOLD = 0.5


def _sections(n: int, seed: int = 7) -> list[str]:
    """``n`` sections of invented words: two texts share q-grams only where they share sections."""
    rng = random.Random(seed)
    letters = "bcdfghjklmnpqrstvwxz"
    vowels = "aeiou"

    def word() -> str:
        return "".join(rng.choice(letters) + rng.choice(vowels) for _ in range(rng.randint(2, 4)))

    return [" ".join(word() for _ in range(40)) + ".\n" for _ in range(n)]


@pytest.fixture
def chain(tmp_path):
    """a.txt ~ b.txt ~ c.txt, a and c not alike: sections 0-9, 3-12 and 6-15.

    qgram's shared/max is about 7/10 for a-b and b-c, 4/10 for a-c (below 0.5); the files
    are dated a, b, c from oldest to newest so the "oldest" rule keeps a first.
    """
    s = _sections(16)
    root = tmp_path / "src"
    texts = {"a.txt": s[0:10], "b.txt": s[3:13], "c.txt": s[6:16]}
    for k, (name, parts) in enumerate(texts.items()):
        write(root / name, "".join(parts))
        os.utime(root / name, (1_600_000_000 + k * 86400,) * 2)
    store = Store.open(str(tmp_path / "c.sqlite"))
    ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", workers=0)).run()
    yield store, tmp_path
    store.close()


def _options(tmp_path, name: str) -> ExportOptions:
    return ExportOptions(dest=str(tmp_path / name), method="qgram", threshold=THRESHOLD, keeper_rule="oldest")


def _scores(store) -> dict[tuple[int, int], float]:
    pa = store.pairs.arrays("qgram", store.pairs.sets()[0].pairs_key)
    return {(int(a), int(b)): float(s) for a, b, s in zip(pa.a, pa.b, pa.score)}


def test_the_chain_is_what_the_fixture_says(chain):
    store, _ = chain
    scores = _scores(store)
    a, b, c = (doc_id(store, n) for n in ("a.txt", "b.txt", "c.txt"))
    assert scores[(a, b)] >= THRESHOLD and scores[(b, c)] >= THRESHOLD
    assert scores.get((a, c), 0.0) < THRESHOLD


def test_a_chain_exports_both_ends(chain):
    store, tmp_path = chain
    a, b, c = (doc_id(store, n) for n in ("a.txt", "b.txt", "c.txt"))
    plan = plan_export(store, _options(tmp_path, "out"))
    (group,) = plan.groups
    assert group.keeper == a and group.keepers == (a, c)
    assert plan.left_out == [b]
    assert {f.target for f in plan.files} == {"src/a.txt", "src/c.txt"}
    row = plan.row(b)
    # b duplicates both kept ends; the reports name the closer one, with that score
    scores = _scores(store)
    closer = "src/a.txt" if scores[(a, b)] >= scores[(b, c)] else "src/c.txt"
    assert row.role == "duplicate" and row.duplicate_of == closer
    assert row.duplicate_score == pytest.approx(max(scores[(a, b)], scores[(b, c)]))
    assert plan.row(c).role == "keeper" and "kept too" in plan.row(c).note

    result = run_export(store, _options(tmp_path, "out"))
    assert result.ok and result.copied == 2
    with open(tmp_path / "out" / "_ndd_reports" / "left_out.csv", encoding="utf-8") as fh:
        (left,) = list(csv.DictReader(fh))
    assert left["path"] == "src/b.txt" and left["duplicate_of"] == closer
    assert float(left["duplicate_score"]) == pytest.approx(row.duplicate_score, abs=1e-5)


def test_the_keeper_rule_still_decides_who_is_kept_first(chain):
    """Keeping the middle of the chain covers both ends: one document is enough."""
    store, tmp_path = chain
    a, b, c = (doc_id(store, n) for n in ("a.txt", "b.txt", "c.txt"))
    store.review.set_keeper(b, True, reviewer="ann")
    plan = plan_export(store, _options(tmp_path, "out"))
    (group,) = plan.groups
    assert group.keepers == (b,)
    assert sorted(plan.left_out) == sorted([a, c])
    assert plan.row(c).duplicate_of == "src/b.txt"


def test_a_reviewers_duplicate_mark_still_wins(chain):
    """a and c score below the threshold, but a reviewer said they are duplicates: c is
    covered by a and only a is exported."""
    store, tmp_path = chain
    a, b, c = (doc_id(store, n) for n in ("a.txt", "b.txt", "c.txt"))
    store.review.set_verdict(a, c, "duplicate", reviewer="ann")
    plan = plan_export(store, _options(tmp_path, "out"))
    (group,) = plan.groups
    assert group.keepers == (a,)
    assert sorted(plan.left_out) == sorted([b, c])
    assert plan.row(c).duplicate_of == "src/a.txt"
    assert {f.target for f in plan.files} == {"src/a.txt"}


def test_keepers_the_reviewer_chose_are_reported_as_chosen(chain):
    """b is kept because the reviewer chose it, not because nothing kept duplicates it."""
    store, tmp_path = chain
    a, b, c = (doc_id(store, n) for n in ("a.txt", "b.txt", "c.txt"))
    store.review.set_keeper(a, True)
    store.review.set_keeper(b, True)
    plan = plan_export(store, _options(tmp_path, "chosen"))
    (group,) = plan.groups
    assert b in group.keepers and b != group.keeper
    assert plan.row(b).note == "kept too: chosen as a keeper by the reviewer"
    assert plan.left_out == [c]  # b, kept, covers c now
    run_export(store, ExportOptions(dest=str(tmp_path / "chosen"), method="qgram", threshold=THRESHOLD,
                                    reports=("html",)))
    page = (tmp_path / "chosen" / "_ndd_reports" / "report.html").read_text(encoding="utf-8")
    assert "more kept (chosen by the reviewer)" in page and "nothing kept duplicates them" not in page


def _letter_in_report(root, db, params: dict) -> Store:
    """letter.txt (older, 2 sections) quoted whole in report.txt (12 sections): the report
    holds all of the letter, the letter a sixth of the report; scanned with ``params``."""
    s = _sections(12, seed=11)
    write(root / "letter.txt", "".join(s[5:7]))
    write(root / "report.txt", "".join(s))
    os.utime(root / "letter.txt", (1_600_000_000,) * 2)
    os.utime(root / "report.txt", (1_700_000_000,) * 2)
    store = Store.open(str(db))
    ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", params=params, workers=0)).run()
    return store


@pytest.fixture
def quoted(tmp_path):
    """The letter and the report scanned with measure=containment, which pairs them
    through the letter's share."""
    store = _letter_in_report(tmp_path / "src", tmp_path / "q.sqlite", {"measure": "containment"})
    yield store, tmp_path
    store.close()


def test_a_report_is_never_left_out_as_a_duplicate_of_a_letter_it_quotes(quoted):
    """The oldest rule keeps the letter first; the report, of which a sixth is in the letter,
    is no duplicate of it and is kept as well (it was left out, its other five sixths in no
    exported file). The letter, wholly in the report, may be covered by it."""
    store, tmp_path = quoted
    letter, report = doc_id(store, "letter.txt"), doc_id(store, "report.txt")
    pa = store.pairs.arrays("qgram", store.pairs.sets()[0].pairs_key)
    assert len(pa) == 1 and float(pa.score[0]) == 1.0 and float(np.fmin(pa.cont_ab, pa.cont_ba)[0]) < 0.3
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", keeper_rule="oldest"))
    (group,) = plan.groups
    assert group.keeper == letter and group.keepers == (letter, report)
    assert plan.left_out == []
    newest = plan_export(store, ExportOptions(dest=str(tmp_path / "new"), method="qgram", keeper_rule="newest"))
    assert newest.groups[0].keepers == (report,) and newest.left_out == [letter]


def test_a_reviewers_duplicate_on_a_quoted_letter_leaves_out_the_letter_only(chain, tmp_path):
    """Scored by the smaller share (the default), the pair is below the threshold; a
    reviewer's "duplicate" joins it, and the more contained document, the letter, is the
    one that may be left out, whichever the keeper rule prefers."""
    with _letter_in_report(tmp_path / "q", tmp_path / "d.sqlite", {}) as store:
        letter, report = doc_id(store, "letter.txt"), doc_id(store, "report.txt")
        store.review.set_verdict(min(letter, report), max(letter, report), "duplicate", reviewer="ann")
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", keeper_rule="oldest"))
        (group,) = plan.groups
        assert group.keepers == (letter, report) and plan.left_out == []
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "new"), method="qgram", keeper_rule="newest"))
        assert plan.groups[0].keepers == (report,) and plan.left_out == [letter]


def test_a_document_that_lies_wholly_in_another_never_stands_in_for_it(tmp_path):
    """original.txt (older, 6 sections) is quoted whole in reply.txt (one section of its
    own, then the 6): 0.86 of the reply is in the original, so the pair is at the
    threshold both ways; but keeping the original for the reply loses the reply's own
    section, while keeping the reply loses nothing. The oldest rule keeps both; the
    newest keeps the reply alone."""
    s = _sections(7, seed=5)
    root = tmp_path / "src"
    write(root / "original.txt", "".join(s[:6]))
    write(root / "reply.txt", s[6] + "".join(s[:6]))
    os.utime(root / "original.txt", (1_600_000_000,) * 2)
    os.utime(root / "reply.txt", (1_700_000_000,) * 2)
    with Store.open(str(tmp_path / "r.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", workers=0)).run()
        original, reply = doc_id(store, "original.txt"), doc_id(store, "reply.txt")
        (score,) = _scores(store).values()
        assert 0.8 < score < 0.95  # a pair at the default threshold, the reply 6/7 in the original
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "old"), method="qgram", keeper_rule="oldest"))
        assert plan.groups[0].keepers == (original, reply) and plan.left_out == []
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "new"), method="qgram", keeper_rule="newest"))
        assert plan.groups[0].keepers == (reply,) and plan.left_out == [original]


def test_a_containment_pair_with_less_than_half_of_one_in_the_other_covers_one_way(tmp_path):
    """x (4 sections, older) shares 3 of them with y (10 sections): 0.75 of x is in y, 0.3 of
    y in x, both at or above the containment threshold 0.2. y was left out for x, 7 of its
    10 sections in no exported file."""
    s = _sections(11, seed=3)
    root = tmp_path / "src"
    write(root / "x.txt", "".join(s[0:3] + s[10:11]))
    write(root / "y.txt", "".join(s[0:10]))
    os.utime(root / "x.txt", (1_600_000_000,) * 2)
    os.utime(root / "y.txt", (1_700_000_000,) * 2)
    with Store.open(str(tmp_path / "c.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", params={"measure": "containment"},
                                  workers=0)).run()
        x, y = doc_id(store, "x.txt"), doc_id(store, "y.txt")
        pa = store.pairs.arrays("qgram", store.pairs.sets()[0].pairs_key)
        shares = sorted([float(pa.cont_ab[0]), float(pa.cont_ba[0])])
        assert 0.2 < shares[0] < 0.5 < shares[1]
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", keeper_rule="oldest"))
        assert plan.groups[0].keepers == (x, y) and plan.left_out == []
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "new"), method="qgram", keeper_rule="newest"))
        assert plan.groups[0].keepers == (y,) and plan.left_out == [x]


def test_below_half_the_default_score_groups_but_leaves_nothing_out(tmp_path):
    """x and y share 4 of their 10 sections each: 0.4 of each text is in the other. At the
    threshold 0.3 (the best F1 on student answers) they group; the export left one of them
    out, six tenths of it in no exported file. Half of a document must be in a kept one,
    whatever the score (the leaving-out principle of docs/quality.md)."""
    s = _sections(16, seed=5)
    root = tmp_path / "src"
    write(root / "x.txt", "".join(s[0:10]))
    write(root / "y.txt", "".join(s[6:16]))
    os.utime(root / "x.txt", (1_600_000_000,) * 2)
    os.utime(root / "y.txt", (1_700_000_000,) * 2)
    with Store.open(str(tmp_path / "c.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", workers=0)).run()
        x, y = doc_id(store, "x.txt"), doc_id(store, "y.txt")
        pa = store.pairs.arrays("qgram", store.pairs.sets()[0].pairs_key)
        assert 0.3 < float(pa.cont_ab[0]) < 0.5 and 0.3 < float(pa.cont_ba[0]) < 0.5
        for rule in ("oldest", "newest"):
            plan = plan_export(store, ExportOptions(dest=str(tmp_path / rule), method="qgram", threshold=0.3,
                                                    keeper_rule=rule))
            assert sorted(plan.groups[0].members) == sorted([x, y])
            assert sorted(plan.groups[0].keepers) == sorted([x, y]) and plan.left_out == []


def test_the_reports_say_how_much_of_a_left_out_document_is_in_what_it_duplicates(tmp_path):
    """x (10 sections) and y (8 of them and 4 of its own): 0.8 of x is in y, 2/3 of y in x,
    the pair's score 2/3. With y kept, x is left out "duplicate_score 0.67" though 0.8 of it
    is there, and with containment a score of 1 could mean the kept one lies wholly in it:
    left_out.csv now gives the share of the left-out document found in its duplicate."""
    from ndd_desktop.export.report_data import ReportContext

    s = _sections(14, seed=9)
    root = tmp_path / "src"
    write(root / "x.txt", "".join(s[0:10]))
    write(root / "y.txt", "".join(s[0:8] + s[10:14]))
    os.utime(root / "x.txt", (1_600_000_000,) * 2)
    os.utime(root / "y.txt", (1_700_000_000,) * 2)
    with Store.open(str(tmp_path / "c.sqlite")) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method="qgram", workers=0)).run()
        plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="qgram", keeper_rule="newest"))
    (row,) = plan.left_out_rows
    assert row.relpath == "x.txt"
    assert row.duplicate_score == pytest.approx(2 / 3, abs=0.02)
    assert row.found_in_duplicate_of == pytest.approx(0.8, abs=0.02)
    record = ReportContext(plan, {}).left_out_record(row)
    assert record["found_in_duplicate_of"] == pytest.approx(0.8, abs=0.02)
