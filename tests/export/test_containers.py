"""Container members go out as their container file, through a real scan of a ZIP."""

from __future__ import annotations

import hashlib
import os
import zipfile

import pytest

from export_support import doc_id, prose, scan
from ndd_desktop.export import ExportOptions, plan_export, run_export
from ndd_desktop.store import Store


@pytest.fixture
def zipped(tmp_path):
    """A root with a.txt, b.txt and pack.zip holding copies of both (x.txt = a, y.txt = b)."""
    root = tmp_path / "src" / "box"
    root.mkdir(parents=True)
    a, b = prose(11), prose(12)
    (root / "a.txt").write_text(a)
    (root / "b.txt").write_text(b)
    with zipfile.ZipFile(root / "pack.zip", "w") as z:
        z.writestr("dir/x.txt", a)
        z.writestr("y.txt", b)
    store = Store.open(str(tmp_path / "db.sqlite"))
    scan(store, [str(root)], "exact")
    yield store, root
    store.close()


def test_members_are_documents_and_the_zip_has_no_hash_of_its_own(zipped, tmp_path):
    store, root = zipped
    members = [d for d in store.documents.all(status=None) if d.container == "pack.zip"]
    assert sorted(d.relpath for d in members) == ["pack.zip!dir/x.txt", "pack.zip!y.txt"]
    store.review.set_keeper(members[0].id, True)
    plan = plan_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
    (zipped_file,) = [f for f in plan.files if f.target == "box/pack.zip"]
    assert zipped_file.expected_sha256 is None  # verified against the bytes read at export time
    assert set(zipped_file.doc_ids) == {d.id for d in members}


def test_a_kept_member_takes_its_container_along(zipped, tmp_path):
    store, root = zipped
    store.review.set_keeper(doc_id(store, "pack.zip!dir/x.txt"), True, reviewer="ann")
    store.review.set_keeper(doc_id(store, "b.txt"), True, reviewer="ann")
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert result.ok
    assert sorted(os.listdir(dest / "box")) == ["b.txt", "pack.zip"]
    with open(dest / "box" / "pack.zip", "rb") as fh, open(root / "pack.zip", "rb") as src:
        assert hashlib.sha256(fh.read()).digest() == hashlib.sha256(src.read()).digest()
    rows = {r.relpath: r for r in plan_export(store, ExportOptions(dest=str(tmp_path / "o2"), method="exact")).rows}
    y = rows["pack.zip!y.txt"]
    assert y.role == "duplicate" and y.target == "box/pack.zip"
    assert y.note == "left out, but exported inside its container"


def test_a_container_of_left_out_members_stays_out(zipped, tmp_path):
    store, root = zipped
    store.review.set_keeper(doc_id(store, "a.txt"), True, reviewer="ann")
    store.review.set_keeper(doc_id(store, "b.txt"), True, reviewer="ann")
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True))
    assert result.ok and result.bag_valid
    assert sorted(os.listdir(dest / "data" / "box")) == ["a.txt", "b.txt"]
    left = (dest / "_ndd_reports" / "left_out.csv").read_text(encoding="utf-8")
    assert "box/pack.zip!dir/x.txt" in left and "box/pack.zip!y.txt" in left


def test_a_container_touched_since_the_scan_is_refused(zipped, tmp_path):
    store, root = zipped
    store.review.set_keeper(doc_id(store, "pack.zip!dir/x.txt"), True)
    st = os.stat(root / "pack.zip")
    os.utime(root / "pack.zip", ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    result = run_export(store, ExportOptions(dest=str(tmp_path / "out"), method="exact"))
    assert [f.target for f in result.failed] == ["box/pack.zip"]
    assert "changed since the scan" in result.failed[0].reason


def test_a_container_of_left_out_members_touched_since_the_scan_fails(zipped, tmp_path):
    """A left-out member is checked through its container file (the store holds the
    member's size, not the file's: the time tells)."""
    store, root = zipped
    store.review.set_keeper(doc_id(store, "a.txt"), True, reviewer="ann")
    store.review.set_keeper(doc_id(store, "b.txt"), True, reviewer="ann")
    st = os.stat(root / "pack.zip")
    os.utime(root / "pack.zip", ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    dest = tmp_path / "out"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact"))
    assert not result.ok and result.left_out_changed == 1
    (failure,) = result.failed
    assert failure.target == "box/pack.zip" and failure.source == str(root / "pack.zip")
    assert "modification time differs" in failure.reason and "rescan first" in failure.reason
    left = (dest / "_ndd_reports" / "left_out.csv").read_text(encoding="utf-8")
    assert left.count("left out as a duplicate, but changed since the scan") == 2  # both members
