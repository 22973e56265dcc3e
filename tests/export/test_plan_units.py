"""Plan details a scan cannot easily produce, on a fake store: containers, decisions."""

from __future__ import annotations

import os

import pytest

from fakes import FakeStore
from ndd_desktop.export import ExportError, ExportOptions, plan_export, run_export
from ndd_desktop.export.decisions import DecisionIndex
from ndd_desktop.export.report_html import side_by_side

TEXT = "alpha beta gamma delta epsilon zeta eta theta iota kappa " * 30


@pytest.fixture
def fake(tmp_path):
    root = tmp_path / "src"
    (root / "mail").mkdir(parents=True)
    (root / "mail" / "m1.eml").write_text("body one " + TEXT)
    (root / "mail" / "m2.eml").write_text("body two " + TEXT)
    (root / "zips").mkdir()
    (root / "zips" / "pack.zip").write_bytes(b"PK fake zip bytes")
    (root / "keep.txt").write_text(TEXT)
    r = str(root)
    store = FakeStore.from_files([r], members={
        (r, "mail/m1.eml"): ["own", ("att.txt", TEXT.encode())],  # the mail has a document of its own
        (r, "mail/m2.eml"): ["own", ("att.txt", TEXT.encode())],
        (r, "zips/pack.zip"): [None, ("x.txt", TEXT.encode()), ("y.txt", b"something else entirely")],
    })
    return store, root


def ids(store, *relpaths):
    return [store.doc_id(r) for r in relpaths]


def test_a_container_goes_out_when_any_member_is_kept(fake, tmp_path):
    store, root = fake
    keep, att1, att2, zx = ids(store, "keep.txt", "mail/m1.eml!att.txt", "mail/m2.eml!att.txt", "zips/pack.zip!x.txt")
    for a, b in [(keep, att1), (keep, att2), (keep, zx), (att1, att2), (att1, zx), (att2, zx)]:
        store.add_pair(a, b, 1.0, 1.0, 1.0)
    store.decide("keeper", keep, None, "keep", "ann", 10.0)
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.9))
    targets = {f.target for f in plan.files}
    # both mails have their own body documents, which are unique: they go out with their
    # attachments; the zip's kept member y.txt takes the zip along with its duplicate x.txt
    assert targets == {"src/keep.txt", "src/mail/m1.eml", "src/mail/m2.eml", "src/zips/pack.zip"}
    rows = {r.relpath: r for r in plan.rows}
    assert rows["zips/pack.zip!x.txt"].role == "duplicate"
    assert rows["zips/pack.zip!x.txt"].note.startswith("left out, but exported inside")
    zipfile = next(f for f in plan.files if f.target == "src/zips/pack.zip")
    assert zipfile.expected_sha256 is None  # no document of the zip itself
    mail = next(f for f in plan.files if f.target == "src/mail/m1.eml")
    assert mail.expected_sha256 == rows["mail/m1.eml"].sha256


def test_a_container_whose_documents_are_all_left_out_stays_out(fake, tmp_path):
    store, root = fake
    keep, zx, zy = ids(store, "keep.txt", "zips/pack.zip!x.txt", "zips/pack.zip!y.txt")
    store.add_pair(keep, zx, 1.0)
    store.add_pair(keep, zy, 0.95)
    store.decide("keeper", keep, None, "keep", "ann", 10.0)
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.9))
    assert "src/zips/pack.zip" not in {f.target for f in plan.files}
    assert {r.relpath for r in plan.left_out_rows} == {"zips/pack.zip!x.txt", "zips/pack.zip!y.txt"}


def test_a_changed_container_without_own_hash_is_a_per_file_error(fake, tmp_path):
    store, root = fake
    st = os.stat(root / "zips" / "pack.zip")
    os.utime(root / "zips" / "pack.zip", ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.9, reports=()))
    assert [f.target for f in result.failed] == ["src/zips/pack.zip"]
    assert "changed since the scan" in result.failed[0].reason
    assert (tmp_path / "out" / "src" / "keep.txt").read_text() == TEXT
    assert not (tmp_path / "out" / "src" / "zips" / "pack.zip").exists()


def test_unsafe_relpaths_are_reported_not_exported(fake, tmp_path):
    store, root = fake
    d = store.docs[0]
    store.docs[0] = type(d)(**{**d.__dict__, "relpath": "../escape.txt"})
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.9))
    assert [i.path for i in plan.issues] == ["src/../escape.txt"]
    assert all(".." not in f.target for f in plan.files)


def test_threshold_under_the_floor_is_refused(fake, tmp_path):
    store, _ = fake
    with pytest.raises(ExportError, match="below the stored floor"):
        plan_export(store, ExportOptions(dest=str(tmp_path / "out"), threshold=0.1))


def test_bad_options_are_refused():
    with pytest.raises(ExportError):
        ExportOptions(dest="x", mode="move")
    with pytest.raises(ExportError):
        ExportOptions(dest="x", reports="csv,pdf")
    with pytest.raises(ExportError):
        ExportOptions(dest="x", threshold=1.5)
    assert ExportOptions(dest="x", reports="html, csv").reports == ("html", "csv")


def test_decision_shown_is_the_newest_standing_one(fake):
    store, _ = fake
    store.decide("verdict", 1, 2, "duplicate", "ann", 10.0)
    store.decide("verdict", 1, 2, "not_duplicate", "bob", 20.0)
    store.decide("keeper", 3, None, "keep", "cy", 15.0)
    store.decide("keeper", 3, None, "", "dee", 30.0)  # cleared
    index = DecisionIndex(store.review.history())
    shown = index.for_member(2, principal=1, keeper=1)
    assert (shown.verdict, shown.reviewer) == ("not_duplicate", "bob")
    assert shown.time_iso == "1970-01-01T00:00:20+00:00"
    assert index.for_member(3, principal=1, keeper=1).verdict == ""
    assert index.for_unique(1).reviewer == "bob"


def test_side_by_side_marks_only_the_differences_and_escapes():
    left, right = side_by_side("one two <three> four", "one two <THREE> four")
    assert '<mark class="del">&lt;three&gt; </mark>' in left
    assert '<mark class="ins">&lt;THREE&gt; </mark>' in right
    assert left.startswith("one two ") and "<three>" not in left
    left, right = side_by_side(None, "x")
    assert "no text" in left
