"""``store.review.lapsed``: the decisions that stopped applying because a document they are
about holds other content now; and a review whose decisions hold unknown values is refused
by ``store.review.import_dict`` before anything is written."""

from __future__ import annotations

import pytest
from storehelp import add_root, doc

from ndd_desktop.store import Root


def rewrite(store, doc_id: int, relpath: str, xxh: str) -> None:
    changed = doc("/r", relpath, xxh, doc_id=doc_id)
    changed.content_changed = True
    store.scans.write_documents([changed], "m", "k")


def test_decisions_on_changed_documents_lapse_with_the_documents_named(store):
    add_root(store, Root("/r"))
    a, b, c = store.scans.write_documents([doc("/r", "a.txt", "ha"), doc("/r", "b.txt", "hb"),
                                           doc("/r", "c.txt", "hc")], "m", "k")
    store.review.set_keeper(b, True)
    store.review.set_verdict(a, b, "duplicate")
    store.review.set_verdict(a, c, "not_duplicate")
    store.review.set_verdict(b, c, "duplicate")
    store.review.set_verdict(b, c, None)  # cleared: nothing applies, nothing can lapse
    before = store.review.standing()
    assert store.review.lapsed(before) == []
    rewrite(store, b, "b.txt", "hb2")
    lapsed = store.review.lapsed(before)
    assert sorted((d.kind, d.value, changed) for d, changed in lapsed) == [
        ("keeper", "keep", [b]), ("verdict", "duplicate", [b])]


def test_decisions_that_follow_their_content_or_whose_documents_left_do_not_lapse(store):
    add_root(store, Root("/r"))
    a, b = store.scans.write_documents([doc("/r", "a.txt", "ha"), doc("/r", "b.txt", "hb")], "m", "k")
    store.review.set_keeper(b, True)
    store.review.set_verdict(a, b, "not_duplicate")
    before = store.review.standing()
    # the two files swapped names: each now holds the other's content
    rewrite(store, a, "a.txt", "hb")
    rewrite(store, b, "b.txt", "ha")
    assert store.review.reattach() == 1  # the keeper (the verdict stands: same two contents)
    assert store.review.lapsed(before) == []
    # a document gone (its folder not mounted): not "changed"; it comes back with the file
    before = store.review.standing()
    assert store.scans.remove_files([store.scans.known_files()["/r", "a.txt"].file_id]) == 1
    assert store.review.lapsed(before) == []


@pytest.mark.parametrize("value", ["Duplicate", "not duplicate", "yes", 1])
def test_a_review_with_an_unknown_value_writes_nothing(store, value):
    add_root(store, Root("/r"))
    store.scans.write_documents([doc("/r", "a.txt", "ha"), doc("/r", "b.txt", "hb")], "m", "k")
    side = {"root": "/r", "xxh128": None}
    review = {"format": "ndd-desktop review", "version": 1, "settings": {}, "decisions": [
        {"kind": "keeper", "a": {**side, "path": "a.txt"}, "b": None, "value": "keep", "time": 1.0},
        {"kind": "verdict", "a": {**side, "path": "a.txt"}, "b": {**side, "path": "b.txt"}, "value": value,
         "time": 1.0}]}
    with pytest.raises(ValueError, match=f"decision 2: verdict value {value!r}"):
        store.review.import_dict(review)
    assert store.review.history() == []
