"""Helpers of the pipeline tests: a deterministic corpus and a one-call scan."""

from __future__ import annotations

import os
import random
from pathlib import Path

from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.store import Root, Store

WORDS = (
    "archive letter record council minutes river harbour school church parish budget meeting "
    "report survey census treaty estate garden railway station museum library charter deed "
    "merchant voyage cargo weather harvest market bridge tower street village county office "
    "budget clerk mayor governor bishop soldier teacher farmer widow orphan court trial verdict"
).split()


def text_of(seed: int, n_words: int = 120) -> str:
    """Deterministic pseudo-English of about n_words words."""
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) for _ in range(n_words)) + "."


def variant(text: str, seed: int, changes: int = 3) -> str:
    """A near-duplicate: a few words replaced."""
    rng = random.Random(seed)
    words = text.split()
    for _ in range(changes):
        words[rng.randrange(len(words))] = rng.choice(WORDS).upper()
    return " ".join(words)


def make_corpus(folder: Path, n: int = 12, dup_every: int = 3, seed: int = 0, kept: bool = False) -> dict[str, str]:
    """Write n text files; every ``dup_every``-th is a near-duplicate of the one before.

    ``kept``: each file starts with a byte order mark, so its text is not its bytes and the
    store keeps it compressed (a plain UTF-8 file's text is read from the file:
    ``store.originals``)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    prev = ""
    for k in range(n):
        text = variant(prev, seed + k) if k % dup_every == dup_every - 1 and prev else text_of(seed * 1000 + k)
        name = f"doc{k:03d}.txt"
        (folder / name).write_text(text, encoding="utf-8-sig" if kept else "utf-8")
        files[name] = text
        prev = text
    return files


def scan(store: Store, roots, method: str = "qgram", params: dict | None = None, floor: float = 0.3, **kw):
    """Run a scan of ``roots`` (paths, or Root for references) and return its summary."""
    roots = [r if isinstance(r, Root) else Root(str(r)) for r in roots]
    # workers=0: extraction (and the sketching that goes with it) runs in this process, so
    # the tests can count it; the process pool is exercised by the crash and CLI tests.
    config = ScanConfig(roots=roots, method=method, params=dict(params or {}), floor=floor, workers=0)
    return ScanJob(store, config, **kw).run()


def pairs_by_path(store: Store, method: str = "qgram", threshold: float = 0.0) -> list[tuple]:
    """The stored pairs of the method's newest pair set as sorted (a path, b path, score)."""
    sets = [ps for ps in store.pairs.sets() if ps.method == method]
    if not sets:
        return []
    rows = store.pairs.rows(method, sets[0].pairs_key, threshold)
    out = []
    for r in rows:
        a = os.path.join(r.a.root, r.a.relpath)
        b = os.path.join(r.b.root, r.b.relpath)
        out.append((min(a, b), max(a, b), round(r.score, 9)))
    return sorted(out)


def touch(path: Path, delta_ns: int = 5_000_000_000) -> None:
    """Move a file's modification time forward without changing its content."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + delta_ns))


def _exit_at_once(code: int) -> None:
    os._exit(code)


class DiesOnArrival:
    """Stands for a scan's extractor whose worker processes cannot start: unpickling it
    exits the process before any file is read."""

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __reduce__(self):
        return _exit_at_once, (5,)
