"""Packaging: resources are found, the demo is complete, both commands answer --version,
the layering contracts hold, and the packaging metadata agrees with itself.

Two slower checks carry the ``optin`` marker and are deselected by default (run them with
``pytest -m optin``): one builds the wheel and looks inside it (about 20 s, needs PyPI for the
build back end), one runs packaging/smoke.sh (a PyInstaller build: minutes).
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import ndd_desktop
from ndd_desktop import resources

REPO = Path(__file__).resolve().parent.parent
APP_ID = "org.ndd_desktop.NddDesktop"
BIN = Path(sys.executable).parent


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (no imaging library needed)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def _demo_manifest() -> list[tuple[str, str]]:
    """(group, relpath) rows of the table in resources/demo/README.md."""
    rows = []
    for line in (resources.demo_folder() / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| ([\w-]+) \| `([^`]+)` \|", line)
        if m:
            rows.append((m.group(1), m.group(2)))
    return rows


def _command(name: str) -> list[str] | None:
    """How to run an installed console script: beside this Python, or on PATH."""
    for candidate in (BIN / name, BIN / f"{name}.exe"):
        if candidate.is_file():
            return [str(candidate)]
    found = shutil.which(name)
    return [found] if found else None


# ---------------------------------------------------------------- resources


def test_resources_dir_holds_icons_and_demo():
    folder = resources.resources_dir()
    assert (folder / "icons").is_dir()
    assert resources.demo_folder().is_dir()
    assert resources.demo_folder().parent == folder


def test_icons_at_the_usual_sizes():
    for size in resources.ICON_SIZES:
        path = resources.icon_path(size)
        assert path.is_file(), path
        assert _png_size(path) == (size, size)
    svg = ET.parse(resources.icon_path())
    assert svg.getroot().tag.endswith("svg")
    for extra in ("ico", "icns"):  # Windows and macOS bundles
        assert (resources.resources_dir() / "icons" / f"{resources.ICON_NAME}.{extra}").is_file()


def test_icon_path_picks_the_nearest_size_not_smaller():
    assert resources.icon_path(48).name.endswith("-48.png")
    assert resources.icon_path(40).name.endswith("-48.png")
    assert resources.icon_path(1024).name.endswith("-512.png")
    assert resources.icon_path(1).name.endswith("-16.png")


def test_environment_variable_overrides_location(tmp_path, monkeypatch):
    (tmp_path / "icons").mkdir()
    (tmp_path / "icons" / f"{resources.ICON_NAME}.svg").write_text("<svg/>")
    monkeypatch.setenv(resources.ENV_VAR, str(tmp_path))
    resources.resources_dir.cache_clear()
    try:
        assert resources.resources_dir() == tmp_path.resolve()
    finally:
        monkeypatch.delenv(resources.ENV_VAR)
        resources.resources_dir.cache_clear()


def test_missing_resources_say_where_they_were_looked_for(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "_candidates", lambda: [tmp_path / "nowhere"])
    resources.resources_dir.cache_clear()
    try:
        with pytest.raises(resources.ResourcesNotFound, match="nowhere"):
            resources.resources_dir()
    finally:
        resources.resources_dir.cache_clear()


# ---------------------------------------------------------------- demo collection


def test_demo_manifest_matches_the_files():
    demo = resources.demo_folder()
    listed = {rel for _, rel in _demo_manifest()}
    on_disk = {p.relative_to(demo).as_posix() for p in demo.rglob("*") if p.is_file()}
    assert listed == on_disk - {"README.md"}


def test_demo_is_small_varied_and_has_planted_groups():
    demo = resources.demo_folder()
    rows = _demo_manifest()
    assert 15 <= len(rows) <= 30
    formats = {Path(rel).suffix for _, rel in rows}
    assert {".txt", ".md", ".html", ".pdf", ".docx", ".odt", ".rtf", ".eml", ".zip"} <= formats
    groups: dict[str, list[str]] = {}
    for group, rel in rows:
        groups.setdefault(group, []).append(rel)
    planted = {g: members for g, members in groups.items() if g != "-"}
    assert {"mill", "minutes", "flood", "letter"} <= set(planted)
    assert all(len(m) >= 2 for g, m in planted.items() if g != "mill-extract")
    assert len(groups["-"]) >= 5, "unrelated documents are part of the demo"
    total = sum(p.stat().st_size for p in demo.rglob("*") if p.is_file())
    assert total < 300_000


def test_demo_roots_are_incoming_and_reference_holdings():
    (incoming, inc_ref), (holdings, hold_ref) = resources.demo_roots()
    assert incoming.is_dir() and holdings.is_dir()
    assert (inc_ref, hold_ref) == (False, True)
    assert any(rel.startswith("holdings/") for _, rel in _demo_manifest())


def test_demo_files_are_what_their_names_say():
    demo = resources.demo_folder()
    magic = {".pdf": b"%PDF-", ".docx": b"PK\x03\x04", ".odt": b"PK\x03\x04",
             ".zip": b"PK\x03\x04", ".rtf": b"{\\rtf1"}
    for _, rel in _demo_manifest():
        path = demo / rel
        if path.suffix in magic:
            assert path.read_bytes().startswith(magic[path.suffix]), rel
    with zipfile.ZipFile(next(demo.rglob("*.odt"))) as odt:
        assert odt.read("mimetype") == b"application/vnd.oasis.opendocument.text"
    letter = (demo / "holdings" / "letter-to-editor-1952.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        letter.decode("utf-8")  # planted on purpose: Windows-1252


def test_demo_scan_finds_the_planted_groups(tmp_path):
    """The groups that resources/demo/README.md promises, at the default method and threshold."""
    (incoming, _), (holdings, _) = resources.demo_roots()
    db = str(tmp_path / "demo.ndd.sqlite")
    cli = [sys.executable, "-m", "ndd_desktop.cli"]
    scan = subprocess.run([*cli, "scan", str(incoming), "--reference", str(holdings), "--db", db,
                           "--quiet"], capture_output=True, text=True, timeout=240)
    assert scan.returncode == 0, scan.stderr
    out = subprocess.run([*cli, "clusters", "--db", db], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    found: dict[str, str] = {}  # demo-relative path of the file on disk -> group found
    for row in csv.DictReader(io.StringIO(out.stdout)):
        folder = Path(row["root"]).name
        found[f"{folder}/{row['path'].split('!')[0]}"] = row["group"]
    planted: dict[str, set[str]] = {}
    for group, rel in _demo_manifest():
        planted.setdefault(group, set()).add(rel)
    seen_groups = set()
    for group, members in planted.items():
        if group in ("-", "mill-extract"):
            assert not members & set(found), f"{sorted(members & set(found))} should be in no group"
            continue
        ids = {found.get(rel) for rel in members}
        assert len(ids) == 1 and None not in ids, f"group {group}: {sorted(members)} -> {ids}"
        assert not ids & seen_groups, f"group {group} merged with another"
        seen_groups |= ids


def test_demo_scan_with_containment_finds_what_the_readme_says(tmp_path, capsys):
    """resources/demo/README.md, "Only with the containment measure": mill-extract joins the
    mill group, and the two reading-room reports form a group of their own."""
    from ndd_desktop.cli import main

    (incoming, _), (holdings, _) = resources.demo_roots()
    db = str(tmp_path / "demo.ndd.sqlite")
    assert main(["scan", str(incoming), "--reference", str(holdings), "--db", db, "--quiet",
                 "--set", "measure=containment"]) == 0
    capsys.readouterr()
    assert main(["clusters", "--db", db]) == 0
    groups: dict[str, set[str]] = {}
    for row in csv.DictReader(io.StringIO(capsys.readouterr().out)):
        groups.setdefault(row["group"], set()).add(f"{Path(row['root']).name}/{row['path'].split('!')[0]}")
    manifest = _demo_manifest()
    mill = {rel for group, rel in manifest if group == "mill"}
    (extract,) = [rel for group, rel in manifest if group == "mill-extract"]
    assert any(mill | {extract} <= members for members in groups.values())
    reading = {rel for _, rel in manifest if "reading-room-annual" in rel}
    assert len(reading) == 2 and reading in groups.values()


# ---------------------------------------------------------------- commands


def test_ndd_version():
    result = subprocess.run([sys.executable, "-m", "ndd_desktop.cli", "--version"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert ndd_desktop.__version__ in result.stdout


@pytest.mark.parametrize("name", ["ndd", "ndd-desktop"])
def test_installed_command_version(name):
    command = _command(name)
    if command is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]' provides it")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([*command, "--version"], capture_output=True, text=True,
                            timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert ndd_desktop.__version__ in result.stdout + result.stderr


def test_import_contracts_hold():
    command = _command("lint-imports")
    if command is None:
        pytest.fail("lint-imports not found: install the test extra (pip install -e '.[test]')")
    result = subprocess.run([*command, "--no-cache"], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- metadata


def test_versions_agree():
    version = ndd_desktop.__version__
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\]", changelog, re.M), "CHANGELOG lacks the version"
    meta = ET.parse(REPO / "packaging" / f"{APP_ID}.metainfo.xml").getroot()
    assert meta.find("id").text == APP_ID
    assert version in {r.get("version") for r in meta.iter("release")}


def test_desktop_entry_names_the_command_and_icon():
    entry = (REPO / "packaging" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    fields = dict(line.split("=", 1) for line in entry.splitlines() if "=" in line)
    assert entry.startswith("[Desktop Entry]")
    assert fields["Type"] == "Application"
    assert fields["Exec"].split()[0] == "ndd-desktop"
    assert fields["Icon"] == APP_ID


def test_pyproject_declares_both_commands():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["ndd"] == "ndd_desktop.cli:run"
    assert project["gui-scripts"]["ndd-desktop"] == "ndd_desktop.gui.app:main"


def test_ci_runs_the_readme_test_command():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    command = "bash packaging/test.sh"
    assert command in readme.split("\n## ", 1)[0], "the test command belongs at the top"
    # then the lowest-versions run, which the Development section describes
    lowest = "bash packaging/test-lowest.sh"
    assert [line for line in ci.splitlines() if line.startswith("bash ")] == [command, lowest + " -q"]
    assert lowest in readme.split("\n## Development", 1)[1]


def test_apt_line_is_the_same_everywhere():
    script = (REPO / "packaging" / "setup.sh").read_text(encoding="utf-8")
    block = re.search(r"^QT_APT_PACKAGES=\((.*?)^\)", script, re.M | re.S)
    assert block, "QT_APT_PACKAGES not found in packaging/setup.sh"
    packages = block.group(1).split()
    for doc in ("README.md", "docs/install.md"):
        text = (REPO / doc).read_text(encoding="utf-8")
        line = re.search(r"^sudo apt-get install (lib.*)$", text, re.M)
        assert line and line.group(1).split() == packages, f"{doc} lists other packages"


# ---------------------------------------------------------------- opt-in, slow


@pytest.mark.optin
def test_wheel_carries_the_resources(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path),
                    str(REPO)], check=True, timeout=600)
    (wheel,) = tmp_path.glob("ndd_desktop-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    prefix = "ndd_desktop/_resources/"
    for _, rel in _demo_manifest():
        assert f"{prefix}demo/{rel}" in names
    assert f"{prefix}icons/{resources.ICON_NAME}.svg" in names
    assert "ndd_desktop/store/migrations/script.py.mako" in names
    for template in os.listdir(REPO / "ndd_desktop" / "export" / "templates"):
        assert f"ndd_desktop/export/templates/{template}" in names
    # the scan's C loops, built wherever a compiler is found (as on every test machine)
    assert [n for n in names if n.startswith("ndd_desktop/core/_native.") and n.endswith((".so", ".pyd"))]


@pytest.mark.optin
@pytest.mark.timeout(3600)
def test_bundle_smoke():
    subprocess.run(["bash", str(REPO / "packaging" / "smoke.sh")], check=True, timeout=3600)
