"""The scan job: first scan, incremental rescans, references, floor, errors, validation."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest
from pipehelp import make_corpus, pairs_by_path, scan, text_of, touch, variant

from ndd_desktop.pipeline import Progress, ScanError
from ndd_desktop.store import Root


def test_first_scan_records_documents_sketches_and_pairs(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=12)
    seen: list[Progress] = []
    s = scan(store, [tmp_path / "c"], progress=seen.append)
    assert (s.documents, s.new, s.changed, s.removed, s.errors) == (12, 12, 0, 0, 0)
    assert calls["extract"] == 12 and calls["sketch"]["qgram"] == 12
    pairs = pairs_by_path(store, threshold=0.7)
    # Each planted near-duplicate pairs with its original: doc001~doc002, doc004~doc005, ...
    names = {(os.path.basename(a), os.path.basename(b)) for a, b, _ in pairs}
    assert {("doc001.txt", "doc002.txt"), ("doc004.txt", "doc005.txt"), ("doc010.txt", "doc011.txt")} <= names
    assert s.pairs == len(pairs_by_path(store))
    stages = [p.stage for p in seen]
    assert stages[0] == "walk" and stages[-1] == "done"
    assert {"extract", "sketch", "pairs", "store"} <= set(stages)
    run = store.scans.runs()[0]
    assert (run.status, run.method, run.documents, run.pairs) == ("finished", "qgram", 12, s.pairs)
    assert store.scans.last_method()[0] == "qgram"
    assert store.documents.text(store.documents.all()[0].id).startswith(text_of(0)[:20])


def test_rescan_of_an_unchanged_collection_does_no_work(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=9)
    scan(store, [tmp_path / "c"])
    before = pairs_by_path(store)
    calls["extract"], calls["sketch"] = 0, {}
    s = scan(store, [tmp_path / "c"])
    assert (s.new, s.changed, s.removed, s.unchanged) == (0, 0, 0, 9)
    assert calls["extract"] == 0 and calls["sketch"] == {}
    assert pairs_by_path(store) == before


def test_touched_file_is_confirmed_by_hash_not_extracted(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"])
    touch(tmp_path / "c" / "doc000.txt")
    calls["extract"] = 0
    s = scan(store, [tmp_path / "c"])
    assert calls["extract"] == 0 and s.changed == 0
    calls["extract"] = 0
    scan(store, [tmp_path / "c"])  # the new time was recorded: still nothing to do
    assert calls["extract"] == 0


def test_added_changed_and_removed_files(tmp_path, store, calls):
    files = make_corpus(tmp_path / "c", n=9)
    scan(store, [tmp_path / "c"])
    ids = {d.relpath: d.id for d in store.documents.all()}
    (tmp_path / "c" / "new.txt").write_text(variant(files["doc006.txt"], 99), encoding="utf-8")
    (tmp_path / "c" / "doc003.txt").write_text(text_of(4242), encoding="utf-8")  # a different text now
    (tmp_path / "c" / "doc000.txt").unlink()
    calls["extract"], calls["sketch"] = 0, {}
    s = scan(store, [tmp_path / "c"])
    assert (s.new, s.changed, s.removed, s.documents) == (1, 1, 1, 9)
    # the two new texts are sketched once as they are read; qgram stores no sketch bytes
    # (sketch_from_text), so the pair stage sketches the other seven again from their texts
    assert calls["extract"] == 2 and calls["sketch"] == {"qgram": 2 + 7}
    after = {d.relpath: d.id for d in store.documents.all()}
    assert "doc000.txt" not in after and after["doc003.txt"] == ids["doc003.txt"]
    names = {(os.path.basename(a), os.path.basename(b)) for a, b, _ in pairs_by_path(store, threshold=0.7)}
    assert ("doc006.txt", "new.txt") in names
    assert not any("doc000.txt" in pair for pair in names)


def test_moved_file_keeps_its_id_sketch_and_decisions(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"])
    docs = {d.relpath: d.id for d in store.documents.all()}
    store.review.set_verdict(docs["doc001.txt"], docs["doc002.txt"], "not_duplicate", reviewer="ann")
    (tmp_path / "c" / "sub").mkdir()
    shutil.move(tmp_path / "c" / "doc002.txt", tmp_path / "c" / "sub" / "renamed.txt")
    s = scan(store, [tmp_path / "c"])
    assert (s.moved, s.new, s.removed) == (1, 0, 0)
    moved = store.documents.get(docs["doc002.txt"])
    assert moved.relpath == "sub/renamed.txt"
    assert store.review.verdicts() == {(docs["doc001.txt"], docs["doc002.txt"]): "not_duplicate"}


def test_parameter_change_resketches_only_that_method(tmp_path, store, calls):
    make_corpus(tmp_path / "c", n=6)
    scan(store, [tmp_path / "c"], method="exact")
    scan(store, [tmp_path / "c"], method="qgram")
    calls["extract"], calls["sketch"] = 0, {}
    scan(store, [tmp_path / "c"], method="qgram", params={"q": 3})
    assert calls["extract"] == 0 and calls["sketch"] == {"qgram": 6}
    calls["sketch"] = {}
    scan(store, [tmp_path / "c"], method="qgram", params={"q": 3, "measure": "containment"})
    # measure does not change the sketch: no new sketch key; qgram's sketches are made from
    # the stored texts (sketch_from_text), so a new pair set sketches them again
    assert calls["sketch"] == {"qgram": 6}
    assert sketch_keys(store, "qgram") == 2
    calls["sketch"] = {}
    scan(store, [tmp_path / "c"], method="exact")
    assert calls["sketch"] == {}
    assert {ps.method for ps in store.pairs.sets()} == {"exact", "qgram"}
    assert len([ps for ps in store.pairs.sets() if ps.method == "qgram"]) == 3


def sketch_keys(store, method: str) -> int:
    """How many sketch keys the store holds sketches of for the method."""
    con = sqlite3.connect(store.path)
    try:
        return con.execute("SELECT COUNT(DISTINCT sketch_key) FROM sketches WHERE method = ?", (method,)).fetchone()[0]
    finally:
        con.close()


def test_reference_documents_are_not_compared_with_each_other(tmp_path, store):
    ref, new = tmp_path / "ref", tmp_path / "new"
    ref.mkdir()
    new.mkdir()
    t = text_of(7)
    (ref / "a.txt").write_text(t)
    (ref / "b.txt").write_text(t)
    (new / "c.txt").write_text(t)
    scan(store, [new, Root(str(ref), True)], method="exact")
    pairs = pairs_by_path(store, method="exact")
    names = sorted(tuple(sorted((os.path.basename(a), os.path.basename(b)))) for a, b, _ in pairs)
    assert names == [("a.txt", "c.txt"), ("b.txt", "c.txt")]
    assert {d.relpath: d.reference for d in store.documents.all()} == {"a.txt": True, "b.txt": True, "c.txt": False}


def test_floor_decides_what_is_stored(tmp_path, store):
    make_corpus(tmp_path / "c", n=12)
    scan(store, [tmp_path / "c"], floor=0.9)
    high = pairs_by_path(store)
    assert high and all(score >= 0.9 for _, _, score in high)
    scan(store, [tmp_path / "c"], floor=0.0)  # another floor: the set is recomputed
    assert len(pairs_by_path(store)) > len(high)
    assert store.pairs.sets()[0].floor == 0.0


def test_failed_files_are_recorded_and_reported(tmp_path, store, monkeypatch):
    import ndd_desktop.ingest.pool as pool

    make_corpus(tmp_path / "c", n=3)
    real = pool.extract_many

    def failing(entries, limits, **kw):
        for batch in real(entries, limits, **kw):
            for d in batch:
                if d.relpath == "doc001.txt":
                    d.status, d.reason, d.text = "error", "unreadable: test", None
            yield batch

    monkeypatch.setattr(pool, "extract_many", failing)
    reported = []
    s = scan(store, [tmp_path / "c"], on_error=reported.append)
    assert [(d.relpath, d.status, d.reason) for d in reported] == [("doc001.txt", "error", "unreadable: test")]
    assert s.errors == 1 and s.documents == 2
    assert [d.relpath for d in store.documents.errors()] == ["doc001.txt"]


def test_a_failure_of_the_moment_is_retried_and_a_corrupt_file_is_not(tmp_path, store, monkeypatch):
    import ndd_desktop.ingest.pool as pool

    make_corpus(tmp_path / "c", n=5)
    real = pool.extract_many
    failures = {"doc001.txt": "timed out after 60 s", "doc002.txt": "unreadable: Permission denied",
                "doc003.txt": "corrupt or truncated PDF: bad xref",
                "doc004.txt": "vanished during the scan (file not found)"}  # e.g. a Dask worker's view
    read: list[list[str]] = []

    def flaky(entries, limits, **kw):
        entries = list(entries)
        read.append(sorted(e.relpath for e in entries))
        for batch in real(entries, limits, **kw):
            for d in batch:
                if d.relpath in failures:
                    d.status, d.reason, d.text = "error", failures[d.relpath], None
            yield batch

    monkeypatch.setattr(pool, "extract_many", flaky)
    first = scan(store, [tmp_path / "c"])
    assert first.errors == 4 and first.documents == 1
    failures.clear()  # the machine is quiet now and the permission is fixed; no file changed
    second = scan(store, [tmp_path / "c"])
    # the timeout, the permission and the vanished file are tried again; the corrupt file
    # (and the good one) not
    assert read[1] == ["doc001.txt", "doc002.txt", "doc004.txt"]
    assert second.documents == 4 and [d.relpath for d in store.documents.errors()] == ["doc003.txt"]
    third = scan(store, [tmp_path / "c"])
    assert read[2:] in ([], [[]]) and third.documents == 4  # nothing left to retry


def test_bad_configuration_changes_nothing(tmp_path, store):
    make_corpus(tmp_path / "c", n=2)
    with pytest.raises(ScanError, match="not a folder"):
        scan(store, [tmp_path / "missing"])
    with pytest.raises(ScanError, match="unknown method"):
        scan(store, [tmp_path / "c"], method="nope")
    with pytest.raises(ScanError, match="q"):
        scan(store, [tmp_path / "c"], params={"q": 99})
    with pytest.raises(ScanError, match="inside"):
        scan(store, [tmp_path, tmp_path / "c"])
    with pytest.raises(ScanError, match="floor"):
        scan(store, [tmp_path / "c"], floor=1.5)
    with pytest.raises(ScanError, match="both as a folder to scan and as a reference"):
        scan(store, [tmp_path / "c", Root(str(tmp_path / "c"), reference=True)])
    assert store.documents.roots() == [] and store.scans.runs() == []


def test_decisions_follow_their_documents_back_when_a_folder_returns(store, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    base = text_of(1)
    (a / "one.txt").write_text(base)
    (b / "copy.txt").write_text(variant(base, 2))
    (b / "other.txt").write_text(text_of(3))
    scan(store, [a, b])

    def ids():
        return {d.relpath: d.id for d in store.documents.all(status=None)}

    before = ids()
    store.review.set_verdict(before["one.txt"], before["copy.txt"], "duplicate")
    store.review.set_keeper(before["copy.txt"], True)
    scan(store, [a])  # folder b leaves the collection (and its documents get new ids later)
    assert "copy.txt" not in ids()
    summary = scan(store, [a, b])
    after = ids()
    assert after["copy.txt"] != before["copy.txt"]
    assert summary.reattached == 2
    live = set(after.values())  # the log keeps the rows about the old ids; they match nothing
    assert {p: v for p, v in store.review.verdicts().items() if set(p) <= live} == {
        (min(after["one.txt"], after["copy.txt"]), max(after["one.txt"], after["copy.txt"])): "duplicate"
    }
    assert store.review.keepers() & live == {after["copy.txt"]}
    assert scan(store, [a, b]).reattached == 0  # nothing left to carry over


def test_a_decision_holds_only_while_its_documents_hold_the_judged_content(store, tmp_path):
    from ndd_desktop.pipeline.grouping import groups_at

    folder = tmp_path / "f"
    folder.mkdir()
    base = text_of(11)
    (folder / "one.txt").write_text(base)
    (folder / "two.txt").write_text(variant(base, 1))
    (folder / "three.txt").write_text(text_of(12))
    scan(store, [folder])
    doc = {d.relpath: d.id for d in store.documents.all(status=None)}
    pair = (min(doc["one.txt"], doc["two.txt"]), max(doc["one.txt"], doc["two.txt"]))
    store.review.set_verdict(*pair, "duplicate")
    store.review.set_keeper(doc["two.txt"], True)
    assert store.review.verdicts() == {pair: "duplicate"} and store.review.keepers() == {doc["two.txt"]}

    # two.txt is overwritten with an unrelated text: same path, same id, other content
    (folder / "two.txt").write_text(text_of(13))
    touch(folder / "two.txt")
    assert scan(store, [folder]).changed == 1
    assert {d.relpath: d.id for d in store.documents.all(status=None)} == doc
    assert store.review.verdicts() == {} and store.review.keepers() == set()
    (ps,) = [p for p in store.pairs.sets() if p.method == "qgram"]
    grouping = groups_at(store, "qgram", ps.pairs_key, 0.7)
    assert not any(doc["two.txt"] in g.members for g in grouping.groups)  # not left out of an export

    # the judged text comes back: the decisions apply again
    (folder / "two.txt").write_text(variant(base, 1))
    touch(folder / "two.txt", 10_000_000_000)
    scan(store, [folder])
    assert store.review.verdicts() == {pair: "duplicate"} and store.review.keepers() == {doc["two.txt"]}

    # the two names swapped: the verdict is about the same two texts, so it stands
    one, two = (folder / "one.txt").read_text(), (folder / "two.txt").read_text()
    (folder / "one.txt").write_text(two)
    (folder / "two.txt").write_text(one)
    touch(folder / "one.txt", 20_000_000_000)
    touch(folder / "two.txt", 20_000_000_000)
    scan(store, [folder])
    assert store.review.verdicts() == {pair: "duplicate"}
    # the keeper choice was about two.txt's old text, now in one.txt: it follows the text
    assert store.review.keepers() == {doc["one.txt"]}


def test_texts_cut_at_the_size_limit_are_grouped_only_with_the_same_bytes(store, tmp_path):
    from ndd_desktop.ingest import Limits
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.pipeline.grouping import groups_at

    folder = tmp_path / "logs"
    folder.mkdir()
    head = text_of(21, 400)
    (folder / "a.log").write_text(head + " " + text_of(22, 400))
    (folder / "b.log").write_text(head + " " + text_of(23, 400))  # same beginning, other rest
    (folder / "a-copy.log").write_text(head + " " + text_of(22, 400))  # the very same bytes as a
    limits = Limits(max_text_chars=len(head))  # only the common beginning is compared
    config = ScanConfig(roots=[Root(str(folder))], method="exact", params={}, floor=0.3, workers=0, limits=limits)
    ScanJob(store, config).run()
    doc = {d.relpath: d for d in store.documents.all(status=None)}
    assert all("text truncated to" in doc[n].reason for n in doc)
    (ps,) = store.pairs.sets()
    assert len(store.pairs.arrays("exact", ps.pairs_key)) == 3  # on their prefixes all three are "exact"
    grouping = groups_at(store, "exact", ps.pairs_key, 0.9)
    assert [sorted(doc_id for doc_id in g.members) for g in grouping.groups] == [
        sorted((doc["a.log"].id, doc["a-copy.log"].id))]
    assert grouping.partial == {doc["b.log"].id}  # never left out of an export on a prefix
    assert not grouping.left_out
    from ndd_desktop.export import ExportOptions, plan_export

    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact", threshold=0.9))
    row = next(r for r in plan.rows if r.path.endswith("b.log"))
    assert row.role == "unique" and "compared on its beginning only" in row.note
    assert any(f.target.endswith("b.log") for f in plan.files)


def test_a_mailbox_over_the_message_limit_is_noted_on_itself_not_on_a_phantom_file(store, tmp_path):
    from ndd_desktop.ingest import Limits
    from ndd_desktop.pipeline import ScanConfig, ScanJob

    folder = tmp_path / "mail"
    folder.mkdir()
    box = b"".join(
        b"From ada@example.org Tue Feb  1 10:00:00 2005\nFrom: ada@example.org\nSubject: note %d\n\n"
        b"body of message %d\n\n" % (i, i) for i in (1, 2, 3))
    (folder / "big.mbox").write_bytes(box)
    config = ScanConfig(roots=[Root(str(folder))], method="qgram", params={}, floor=0.3, workers=0,
                        limits=Limits(max_members=2))
    ScanJob(store, config).run()
    docs = {d.relpath: d for d in store.documents.all(status=None)}
    assert set(docs) == {"big.mbox", "big.mbox!message-1", "big.mbox!message-2"}  # no "big (2).mbox"
    note = docs["big.mbox"]
    assert note.status == "skipped" and note.container is None and "more than 2 messages" in note.reason


def test_a_decision_is_not_reattached_when_its_content_is_ambiguous(store, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "one.txt").write_text(text_of(4))
    (b / "x.txt").write_text(text_of(5))
    scan(store, [a, b])
    doc = {d.relpath: d.id for d in store.documents.all(status=None)}
    store.review.set_keeper(doc["x.txt"], True)
    scan(store, [a])
    (b / "x-copy.txt").write_text(text_of(5))  # two documents now hold x.txt's text
    assert scan(store, [a, b]).reattached == 0
    live = {d.id for d in store.documents.all(status=None)}
    assert store.review.keepers() & live == set()


def test_a_member_gone_from_a_changed_archive_leaves_the_collection(store, tmp_path):
    """A file recorded before holds documents the rescan did not produce (a member no
    longer in the archive): they go; the other members keep their ids."""
    import zipfile

    folder = tmp_path / "docs"
    folder.mkdir()

    def write_zip(members):
        with zipfile.ZipFile(folder / "box.zip", "w") as z:
            for name in members:
                z.writestr(name, text_of(sum(map(ord, name))))

    write_zip(["a.txt", "b.txt", "c.txt"])
    (folder / "loose.txt").write_text(text_of(99), encoding="utf-8")
    scan(store, [folder])
    before = {d.relpath: d.id for d in store.documents.all()}
    assert set(before) == {"box.zip!a.txt", "box.zip!b.txt", "box.zip!c.txt", "loose.txt"}
    write_zip(["a.txt", "c.txt"])
    summary = scan(store, [folder])
    after = {d.relpath: d.id for d in store.documents.all()}
    assert set(after) == {"box.zip!a.txt", "box.zip!c.txt", "loose.txt"}
    assert all(after[k] == before[k] for k in after)
    assert summary.documents == 3 and summary.removed == 1  # the summary counts it


def test_short_messages_of_one_sender_on_one_day_are_not_duplicates(store, tmp_path):
    """Their header lines (Subject, From, Date) were most of their text; the bodies differ."""
    folder = tmp_path / "mail"
    folder.mkdir()
    head = "From: Ada Archivist <ada@example.org>\nTo: Bo <bo@example.org>\nDate: Mon, 03 Jan 2022 10:00:00 +0000\n"
    bodies = {"a.eml": "Thanks, received.", "b.eml": "The meeting is moved to Thursday.",
              "c.eml": "Please order twenty more acid free boxes."}
    for name, body in bodies.items():
        (folder / name).write_text(head + "Subject: Re: boxes for the harbour minutes\n\n" + body + "\n")
    (folder / "d.eml").write_text(head.replace("10:00", "11:00") + "Subject: Fwd: boxes\n\n"
                                  "Please order twenty more acid free boxes.\n")
    scan(store, [folder])
    assert [(os.path.basename(a), os.path.basename(b), s) for a, b, s in pairs_by_path(store, threshold=0.5)] == [
        ("c.eml", "d.eml", 1.0)]  # the same body sent twice, and nothing else


def test_a_verdict_comes_back_to_its_documents_when_a_copy_of_one_is_elsewhere(store, tmp_path):
    """The reviewer judged x and y "not duplicates"; folder a leaves and returns, and b holds
    a copy of x: the verdict was dropped (two documents held x's content), and an export
    left y out again. A verdict judges contents: it comes back to both pairs."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    x = text_of(21)
    (a / "x.txt").write_text(x)
    (a / "y.txt").write_text(variant(x, 3, changes=2))
    (b / "x_copy.txt").write_text(x)
    scan(store, [a, b])
    doc = {d.relpath: d.id for d in store.documents.all(status=None)}
    store.review.set_verdict(doc["x.txt"], doc["y.txt"], "not_duplicate")
    scan(store, [b])  # folder a leaves the collection
    summary = scan(store, [a, b])
    assert summary.reattached == 1
    now = {d.relpath: d.id for d in store.documents.all(status=None)}
    live = set(now.values())
    standing = {p: v for p, v in store.review.verdicts().items() if set(p) <= live}
    assert standing == {tuple(sorted((now["x.txt"], now["y.txt"]))): "not_duplicate",
                        tuple(sorted((now["x_copy.txt"], now["y.txt"]))): "not_duplicate"}
