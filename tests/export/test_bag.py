"""BagIt export: a valid bag by bagit's own validator, with our metadata and tag files."""

from __future__ import annotations

import os

import bagit

from ndd_desktop.export import ExportOptions, run_export
from ndd_desktop.export.bag import validate_bag


def test_bag_validates_and_carries_the_metadata(scanned, tmp_path):
    store, coll = scanned
    dest = tmp_path / "bag"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True))
    assert result.ok and result.bag_valid is True, result.bag_message
    bag = bagit.Bag(str(dest))
    bag.validate()  # raises on any problem
    assert bag.algorithms == ["sha256"]
    assert sorted(bag.payload_files()) == sorted(
        os.path.join("data", *t.split("/")) for t in (f.target for f in _planned(store, tmp_path)))
    assert bag.info["Source-Folder"] == coll.roots
    assert bag.info["NDD-Method"] == "exact" and bag.info["NDD-Threshold"] == "0.5"
    assert "NDD-Parameters" in bag.info and bag.info["Payload-Oxum"].endswith(".5")
    tags = set(bag.tagfile_entries())
    assert {"_ndd_reports/report.html", "_ndd_reports/documents.csv", "_ndd_reports/documents.json",
            "_ndd_reports/left_out.csv"} <= tags
    assert not any(name.startswith("_ndd_reports") for name in bag.payload_files())


def _planned(store, tmp_path):
    from ndd_desktop.export import plan_export

    return plan_export(store, ExportOptions(dest=str(tmp_path / "unused"), method="exact")).files


def test_sha512_manifest_on_request(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "bag"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True, sha512=True))
    assert result.bag_valid
    assert sorted(bagit.Bag(str(dest)).algorithms) == ["sha256", "sha512"]
    assert (dest / "manifest-sha512.txt").exists() and (dest / "tagmanifest-sha512.txt").exists()


def test_a_tampered_bag_does_not_validate(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "bag"
    run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True))
    victim = dest / "data" / "archive" / "notes" / "c.txt"
    victim.write_text(victim.read_text().replace("a", "e"))
    ok, message = validate_bag(str(dest))
    assert not ok and "c.txt" in message


def test_a_finished_bag_is_left_alone_by_a_rerun(scanned, tmp_path):
    store, _ = scanned
    dest = tmp_path / "bag"
    opts = ExportOptions(dest=str(dest), method="exact", bagit=True)
    run_export(store, opts)
    before = {p: os.stat(os.path.join(dest, p)).st_mtime_ns for p in os.listdir(dest)}
    again = run_export(store, opts)
    assert again.already_complete and again.bag_valid
    assert before == {p: os.stat(os.path.join(dest, p)).st_mtime_ns for p in os.listdir(dest)}


def test_a_bag_of_hard_links_validates(scanned, tmp_path):
    store, coll = scanned
    dest = tmp_path / "bag"
    result = run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True, mode="hardlink"))
    assert result.bag_valid and result.linked == 5
    assert os.stat(dest / "data" / "archive" / "notes" / "c.txt").st_ino == os.stat(coll.root1 / "notes" / "c.txt").st_ino


def test_awkward_file_names_survive_a_bag(tmp_path):
    """A line break, a byte that is not UTF-8 and a literal %0A in names: the bag validates."""
    import hashlib

    from export_support import prose

    root = tmp_path / "src" / "names"
    root.mkdir(parents=True)
    names = [b"line\nbreak.txt", b"bad-\xff-byte.txt", b"pct%0Aname.txt", b"plain.txt"]
    for n, name in enumerate(names):
        with open(os.path.join(os.fsencode(root), name), "wb") as fh:
            fh.write(prose(100 + n).encode())
    payload = _bag_payload(root, tmp_path)
    assert sorted(payload) == sorted(hashlib.sha256(prose(100 + n).encode()).hexdigest() for n in range(4))
    assert "data/names/bad-%FF-byte.txt" in payload.values()
    assert "data/names/pct%250Aname.txt" in payload.values()


def test_two_unicode_spellings_of_one_name_both_survive_a_bag(tmp_path):
    """bagit compares payload names in Unicode NFC: café.txt written as NFC and as NFD
    (two files on Linux) must not become one name in the bag."""
    import hashlib
    import unicodedata

    from export_support import prose

    root = tmp_path / "src" / "letters"
    root.mkdir(parents=True)
    nfc, nfd = unicodedata.normalize("NFC", "café.txt"), unicodedata.normalize("NFD", "café.txt")
    assert nfc != nfd
    (root / nfc).write_text(prose(201))
    (root / nfd).write_text(prose(202))
    payload = _bag_payload(root, tmp_path)
    names = {unicodedata.normalize("NFC", p) for p in payload.values()}
    assert len(names) == 2 and "data/letters/café (2).txt" in names
    assert set(payload) == {hashlib.sha256(prose(n).encode()).hexdigest() for n in (201, 202)}


def _bag_payload(root, tmp_path) -> dict[str, str]:
    """Scan ``root`` (exact), export it as a bag, check the bag; sha256 -> payload path."""
    import hashlib

    from export_support import scan
    from ndd_desktop.store import Store

    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        scan(store, [str(root)], "exact")
        dest = tmp_path / "bag"
        result = run_export(store, ExportOptions(dest=str(dest), method="exact", bagit=True))
    finally:
        store.close()
    assert result.ok and result.bag_valid, (result.failed, result.bag_message)
    payload = {}
    for rel in bagit.Bag(str(dest)).payload_files():
        with open(os.path.join(dest, rel), "rb") as fh:
            payload[hashlib.sha256(fh.read()).hexdigest()] = rel
    return payload


def test_no_bag_is_made_while_a_planned_file_cannot_be_copied(scanned, tmp_path):
    """A bag says it is whole, and a rerun takes a complete bag as it is: made without the
    file, it would have left that document out for good."""
    store, coll = scanned
    c = coll.root1 / "notes" / "c.txt"
    original = c.read_text()
    c.write_text(original.replace("a", "o"))  # changed since the scan: its copy fails
    dest = tmp_path / "bag"
    opts = ExportOptions(dest=str(dest), method="exact", bagit=True)
    first = run_export(store, opts)
    assert [f.target for f in first.failed] == ["archive/notes/c.txt"] and not first.ok
    assert not (dest / "bagit.txt").exists() and first.bag_valid is None
    assert "the bag was not made: 1 planned file could not be copied" in first.bag_message
    # a rerun checks against the old scan, and after a rescan the plan differs (this folder
    # is refused): the advice is a rescan and a new folder, never "run the same export again"
    assert "rescan (ndd scan), then export to a new folder" in first.bag_message
    assert "run the same export again" not in first.bag_message and not first.reports
    c.write_text(original)  # the file is back as it was scanned
    second = run_export(store, opts)
    assert second.ok and not second.already_complete and second.bag_valid is True
    assert second.skipped == len(_planned(store, tmp_path)) - 1 and second.copied == 1
    assert os.path.join("data", "archive", "notes", "c.txt") in set(bagit.Bag(str(dest)).payload_files())
