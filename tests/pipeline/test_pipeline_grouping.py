"""groups_at: edges at a threshold, reviewer constraints, keeper rules."""

from __future__ import annotations

import numpy as np
import pytest

from ndd_desktop.pipeline.grouping import KEEPER_RULES, groups_at, keeper_key
from ndd_desktop.pipeline.pair_graph import PairGraph
from ndd_desktop.store import DocWrite, Root, Store


def _doc(root, rel, *, date, length, xxh):
    return DocWrite(root=root, file_relpath=rel, file_size=1, file_mtime_ns=1, file_xxh128=xxh, relpath=rel,
                    container=None, size=1, mtime_ns=1, date=date, format="txt", xxh128=xxh, sha256="",
                    text_length=length, status="ok", reason="", text="x" * length)


@pytest.fixture
def gstore():
    """Documents a..e; a,b,c similar (c is under the reference root), d~e weakly."""
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/new"), Root("/ref", True)])
    ids = s.scans.write_documents([
        _doc("/new", "a.txt", date=300.0, length=50, xxh="a"),
        _doc("/new", "b.txt", date=100.0, length=80, xxh="b"),
        _doc("/ref", "c.txt", date=200.0, length=60, xxh="c"),
        _doc("/new", "d.txt", date=None, length=10, xxh="d"),
        _doc("/new", "e.txt", date=50.0, length=20, xxh="e"),
    ], "m", "k")
    a, b, c, d, e = ids
    cols = {"a": np.array([a, a, b, d]), "b": np.array([b, c, c, e]), "score": np.array([0.9, 0.8, 0.85, 0.5]),
            "cont_ab": np.array([0.9, 0.8, 0.85, 0.95]), "cont_ba": np.array([0.9, 0.8, 0.85, 0.4])}
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", cols)
    yield s, ids
    s.close()


def test_groups_at_threshold_with_principal_and_reference_keeper(gstore):
    s, (a, b, c, d, e) = gstore
    g = groups_at(s, "m", "pk", 0.7)
    assert len(g.groups) == 1 and g.pair_count == 3 and g.left_out == set()
    (grp,) = g.groups
    assert grp.group_id == 1 and grp.principal == b and grp.members[0] == b  # the longest leads
    assert set(grp.members) == {a, b, c} and grp.scores[b] == 1.0 and grp.scores[a] == 0.9
    assert grp.keeper == c  # under the reference root
    low = groups_at(s, "m", "pk", 0.4)
    assert len(low.groups) == 2 and {d, e} == set(low.groups[1].members)


def test_containment_measure(gstore):
    s, (a, b, c, d, e) = gstore
    g = groups_at(s, "m", "pk", 0.93, measure="containment")
    assert [set(x.members) for x in g.groups] == [{d, e}]
    with pytest.raises(ValueError):
        groups_at(s, "m", "pk", 0.5, measure="nonsense")


def test_keeper_rules(gstore):
    s, (a, b, c, d, e) = gstore
    keeper = {rule: groups_at(s, "m", "pk", 0.7, keeper_rule=rule, folder_priority=("/new",)).groups[0].keeper
              for rule in KEEPER_RULES if rule != "latest"}  # latest: tests/pipeline/test_pipeline_lineage.py
    assert keeper == {"reference-oldest": c, "oldest": b, "newest": a, "longest": b, "folder-priority": b}
    with pytest.raises(ValueError):
        keeper_key("best")


def test_reviewer_keeper_wins(gstore):
    s, (a, b, c, d, e) = gstore
    s.review.set_keeper(a, True, reviewer="ann")
    assert groups_at(s, "m", "pk", 0.7).groups[0].keeper == a


def test_not_duplicate_splits_and_duplicate_joins(gstore):
    s, (a, b, c, d, e) = gstore
    s.review.set_verdict(a, b, "not_duplicate")
    s.review.set_verdict(b, c, "not_duplicate")
    g = groups_at(s, "m", "pk", 0.7)
    for grp in g.groups:
        assert not {a, b} <= set(grp.members) and not {b, c} <= set(grp.members)
    assert {a, c} in [set(x.members) for x in g.groups]
    assert b in g.left_out
    s.review.set_verdict(d, e, "duplicate")  # scored 0.5, below the threshold, joined by the reviewer
    g = groups_at(s, "m", "pk", 0.7)
    assert {d, e} in [set(x.members) for x in g.groups]


def test_a_reviewer_join_without_a_stored_pair_shows_no_score(gstore):
    s, (a, b, c, d, e) = gstore
    s.review.set_verdict(b, d, "duplicate")  # b (the longest: the principal) and d: no stored pair
    g = groups_at(s, "m", "pk", 0.7)
    (grp,) = [x for x in g.groups if d in x.members]
    assert grp.principal == b and grp.linked(d)
    assert grp.scores[d] is None  # not 1.0: nobody measured it
    assert grp.scores[a] == 0.9 and grp.scores[c] == 0.85


def test_no_pairs_no_groups():
    s = Store.open(":memory:")
    g = groups_at(s, "m", "none", 0.5)
    assert (g.groups, g.left_out, g.pair_count) == ([], set(), 0)
    s.close()


def test_components_show_a_chain_member_with_its_stored_score():
    # A chain a~b~c~d above the threshold; b and c are the most linked (b is longer, so it
    # leads); d reaches b only through c, and the pair b-d is stored (above the floor) at 0.35.
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/new")])
    a, b, c, d = s.scans.write_documents([
        _doc("/new", "a.txt", date=1.0, length=90, xxh="a"),
        _doc("/new", "b.txt", date=2.0, length=50, xxh="b"),
        _doc("/new", "c.txt", date=3.0, length=45, xxh="c"),
        _doc("/new", "d.txt", date=4.0, length=40, xxh="d"),
    ], "m", "k")
    cols = {"a": np.array([a, b, c, b]), "b": np.array([b, c, d, d]), "score": np.array([0.7, 0.8, 0.9, 0.35]),
            "cont_ab": np.full(4, np.nan), "cont_ba": np.full(4, np.nan)}
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", cols)
    (grp,) = groups_at(s, "m", "pk", 0.6).groups
    assert grp.principal == b and grp.members == [b, c, a, d]
    assert [grp.linked(m) for m in grp.members] == [True, True, True, False]
    assert grp.scores[d] == pytest.approx(0.35)  # its stored score with b, below the threshold
    # around the longest document instead: a leads {a, b}, then c leads {c, d}
    split = groups_at(s, "m", "pk", 0.6, grouping="principal").groups
    assert [g.members for g in split] == [[a, b], [c, d]]
    with pytest.raises(ValueError):
        groups_at(s, "m", "pk", 0.6, grouping="nonsense")
    s.close()


def test_kept_pair_arrays_group_like_the_store_without_reading_it(gstore, monkeypatch):
    s, (a, b, c, d, e) = gstore
    s.review.set_verdict(d, e, "duplicate")
    arrays = s.pairs.arrays("m", "pk")
    want = groups_at(s, "m", "pk", 0.7)

    def no_read(*args):
        raise AssertionError("the pair set was read again")

    monkeypatch.setattr(s.pairs, "arrays", no_read)
    got = groups_at(s, "m", "pk", 0.7, arrays=arrays)
    assert got == want
    assert [g.scores for g in got.groups] == [g.scores for g in want.groups]
    assert {d, e} in [set(x.members) for x in got.groups]  # the reviewer's join, scored 0.5
    grp = next(g for g in got.groups if d in g.members)
    assert grp.principal == e and grp.scores[d] == 0.5  # its stored score, not 1.0


def test_only_a_verdict_keeps_a_document_apart(gstore):
    """Pairs c~a 0.9 and a~b 0.6. Around the principal at 0.55 b (the longest) takes a, and c,
    linked to a alone, is in no group: by that grouping's rule, not by any verdict, yet the
    window said "1 kept apart by your verdicts" (Grouping.left_out held it)."""
    s, (a, b, c, d, e) = gstore
    cols = {"a": np.array([c, a, d]), "b": np.array([a, b, e]), "score": np.array([0.9, 0.6, 0.5]),
            "cont_ab": np.array([0.9, 0.6, 0.95]), "cont_ba": np.array([0.9, 0.6, 0.4])}
    s.pairs.replace("m", "chain", "k", {}, 0.3, "", cols)
    g = groups_at(s, "m", "chain", 0.55, grouping="principal")
    assert [set(x.members) for x in g.groups] == [{a, b}]
    assert g.left_out == set()
    s.review.set_verdict(a, b, "not_duplicate")  # now b is kept apart, by the verdict
    g = groups_at(s, "m", "chain", 0.55, grouping="principal")
    assert [set(x.members) for x in g.groups] == [{a, c}] and g.left_out == {b}


def test_a_tie_under_the_keeper_rule_goes_to_the_first_by_folder_and_name():
    # Three copies of one text with the same date and length, written in the reverse of
    # their paths' order (a fresh scan numbers documents as its workers finish them): every
    # rule keeps the first by root, then path, whatever the ids.
    s = Store.open(":memory:")
    s.documents.set_roots([Root("/box")])
    z, m, a = s.scans.write_documents([
        _doc("/box", "z/letter.txt", date=5.0, length=40, xxh="1"),
        _doc("/box", "m/letter.txt", date=5.0, length=40, xxh="2"),
        _doc("/box", "a copy/letter.txt", date=5.0, length=40, xxh="3"),
    ], "m", "k")
    assert z < m < a
    cols = {"a": np.array([z, z, m]), "b": np.array([m, a, a]), "score": np.array([1.0, 1.0, 1.0]),
            "cont_ab": np.ones(3), "cont_ba": np.ones(3)}
    s.pairs.replace("m", "pk", "k", {}, 0.3, "", cols)
    for rule in ("reference-oldest", "oldest", "newest", "longest", "folder-priority", "latest"):
        (grp,) = groups_at(s, "m", "pk", 0.5, keeper_rule=rule, folder_priority=("/elsewhere",)).groups
        assert grp.keeper == a, rule
    # the window's way: a graph over the documents as a table (no object made for each)
    arrays = s.pairs.arrays("m", "pk")
    graph = PairGraph(arrays, s.documents.table([z, m, a]))
    for rule in ("reference-oldest", "oldest", "newest", "longest"):
        assert groups_at(s, "m", "pk", 0.5, keeper_rule=rule, graph=graph).groups[0].keeper == a, rule
    s.close()
