"""Helpers for the window's tests: generated folders and waiting for scans."""

from __future__ import annotations

import random
from pathlib import Path

def _vocabulary(n: int = 3000, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    syllables = [c + v for c in "bcdfghjklmnprstvwz" for v in "aeiou"]
    return sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(n)})


WORDS = _vocabulary()


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _variant(rng: random.Random, text: str, edits: int) -> str:
    words = text.split()
    for _ in range(edits):
        words[rng.randrange(len(words))] = rng.choice(WORDS).upper()
    return " ".join(words)


def make_collection(folder: Path, *, families: int = 4, copies: int = 3, singles: int = 4,
                    words: int = 300, seed: int = 7, broken: bool = True) -> Path:
    """Write families of near-duplicate text files, unrelated singles and one broken file."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(families):
        base = _text(rng, words)
        (folder / f"family{f}-original.txt").write_text(base, encoding="utf-8")
        for c in range(copies - 1):
            (folder / f"family{f}-copy{c}.txt").write_text(_variant(rng, base, 3 + c), encoding="utf-8")
    for s in range(singles):
        (folder / f"single{s}.txt").write_text(_text(rng, words), encoding="utf-8")
    if broken:
        (folder / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
        (folder / "broken.docx").write_bytes(b"PK\x03\x04 not a zip at all")
    return folder


def wait_idle(qtbot, w, timeout: int = 60000) -> None:
    """Wait until no scan, read or regrouping runs and the groups are shown."""
    qtbot.waitUntil(lambda: not w.scan.running() and w.collection is not None
                    and w.collection.data is not None and not w.collection.busy()
                    and w.collection.grouping is not None, timeout=timeout)


def scan(qtbot, w, timeout: int = 60000) -> None:
    """Start a scan and wait for it and for the pairs and groups it produces."""
    with qtbot.waitSignal(w.scan.done, timeout=timeout):
        assert w.start_scan()
    assert w.scan.outcome == "finished"
    wait_idle(qtbot, w, timeout)
