"""pipeline.group_view without Qt: differences per member, a partial view, bulk review and undo."""

from __future__ import annotations

from ndd_desktop.core.passages import words_of
from ndd_desktop.pipeline.group_view import bulk_review, member_diff, undo_bulk
from ndd_desktop.store import DocWrite, Root, Store


def _paragraphs(n: int, tag: str) -> list[str]:
    return [" ".join(f"{tag}{k}w{j}" for j in range(12)) + "." for k in range(n)]


def test_member_diff_places_each_change():
    ref = _paragraphs(6, "p")
    mem = list(ref)
    mem[1] = mem[1].replace("p1w5", "CHANGED")
    del mem[3]
    d = member_diff(words_of("\n\n".join(ref)), words_of("\n\n".join(mem)), "txt", "txt")
    assert d.complete and not d.identical
    assert [(c.kind, c.ref_place, c.member_place) for c in d.changes] == [
        ("changed", "¶ 2", "¶ 2"), ("removed", "¶ 4", "after ¶ 3")]
    assert d.changes[0].ref_text == "p1w5" and d.changes[0].member_text == "CHANGED"


def test_a_diff_past_the_time_limit_is_partial_and_claims_no_tail():
    ref = "\n\n".join(_paragraphs(400, "q"))
    d = member_diff(words_of(ref), words_of(ref + "\n\nextra words at the end"), "txt", "txt", budget=0.0)
    assert not d.complete and not d.identical
    assert all(c.kind != "added" for c in d.changes)  # the unknown tail is not called a difference
    full = member_diff(words_of(ref), words_of(ref + "\n\nextra words at the end"), "txt", "txt")
    assert full.complete and [c.kind for c in full.changes] == ["added"]


def test_bulk_review_and_undo_in_the_store(tmp_path):
    store = Store.open(str(tmp_path / "c.ndd"), create=True)
    store.documents.set_roots([Root("/r")])
    ids = store.scans.write_documents([DocWrite(root="/r", file_relpath=f"d{k}.txt", file_size=1, file_mtime_ns=0,
                                          file_xxh128=f"{k:032x}", relpath=f"d{k}.txt", container=None, size=1,
                                          mtime_ns=0, date=None, format="txt", xxh128=f"{k:032x}", sha256="",
                                          text_length=1, status="ok", reason="", text=f"text {k}")
                                 for k in range(3)], "qgram", "k")
    a, b, c = ids
    store.review.set_verdict(a, c, "not_duplicate")
    store.review.set_keeper(b, True)
    change = bulk_review(store.review, ids, a, "duplicates")
    assert store.review.keepers() == {a}
    assert store.review.verdicts() == {(a, b): "duplicate", (a, c): "duplicate"}
    undo_bulk(store.review, change)
    assert store.review.keepers() == {b}
    assert store.review.verdicts() == {(a, c): "not_duplicate"}
    change = bulk_review(store.review, ids, a, "keep-all")
    assert store.review.keepers() == {a, b, c}
    undo_bulk(store.review, change)
    assert store.review.keepers() == {b}
    store.close()
