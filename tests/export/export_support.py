"""Helpers and fixtures of the export tests: a small collection on disk, scanned for real."""

from __future__ import annotations

import builtins
import hashlib
import os
import random
import shutil
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # for fakes.py

from ndd_desktop.pipeline import ScanConfig, ScanJob  # noqa: E402
from ndd_desktop.store import Root, Store  # noqa: E402

WORDS = ("archive letter folder record minute council harbour ledger parish survey river "
         "estate charter deed invoice memo garden railway school market bridge mill "
         "account report meeting committee treasurer secretary member annual").split()

#: A name no markup may survive (no slash: it is one path component).
HOSTILE = '<img src=x onerror=alert(1)> & "q".txt'


def prose(seed: int, n: int = 400) -> str:
    """Deterministic text of ``n`` words."""
    rng = random.Random(seed)
    lines, line = [], []
    for _ in range(n):
        line.append(rng.choice(WORDS))
        if len(line) == 12:
            lines.append(" ".join(line) + ".")
            line = []
    return "\n".join(lines + [" ".join(line)]) + "\n"


def write(path, text: str) -> None:
    """Write a text file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class Collection:
    """Two source roots with the same base name ("archive") and known duplicates.

    Root 1: letters/a.txt, letters/a-copy.txt (same bytes), letters/a-edit.txt (a few
    words changed), notes/b.txt, notes/<hostile>.txt (a copy of b), notes/c.txt.
    Root 2: a-again.txt (same bytes as a.txt), e.txt.
    """

    def __init__(self, base):
        self.base = base
        self.root1 = base / "one" / "archive"
        self.root2 = base / "two" / "archive"
        a = prose(1)
        words = a.split(" ")
        words[10:14] = ["CHANGED", "WORDS", "HERE", "NOW"]
        b = prose(2) + "<script>alert('x')</script> & more\n"
        write(self.root1 / "letters" / "a.txt", a)
        write(self.root1 / "letters" / "a-copy.txt", a)
        write(self.root1 / "letters" / "a-edit.txt", " ".join(words))
        write(self.root1 / "notes" / "b.txt", b)
        write(self.root1 / "notes" / HOSTILE, b)
        write(self.root1 / "notes" / "c.txt", prose(3))
        write(self.root2 / "a-again.txt", a)
        write(self.root2 / "e.txt", prose(5))

    @property
    def roots(self) -> list[str]:
        """The root folders as strings."""
        return [str(self.root1), str(self.root2)]


@pytest.fixture
def collection(tmp_path) -> Collection:
    """The files of the collection, not yet scanned."""
    return Collection(tmp_path / "src")


def scan(store: Store, roots: list[str], method: str, params: dict | None = None) -> None:
    """Run a real scan of ``roots`` into ``store``."""
    ScanJob(store, ScanConfig(roots=[Root(r) for r in roots], method=method, params=params or {},
                              workers=1)).run()


@pytest.fixture
def scanned(tmp_path, collection):
    """(store, collection) after an ``exact`` and a ``qgram`` scan."""
    store = Store.open(str(tmp_path / "collection.sqlite"))
    scan(store, collection.roots, "exact")
    scan(store, collection.roots, "qgram")
    yield store, collection
    store.close()


def doc_id(store, name: str) -> int:
    """The id of the document whose relpath ends with ``name``."""
    (found,) = [d.id for d in store.documents.all(status=None) if d.relpath.endswith(name)]
    return found


def tree_state(roots: list[str]) -> dict:
    """Every file and folder under ``roots`` with its bytes' SHA-256 and its mtime."""
    state = {}
    for root in roots:
        for dirpath, dirs, files in os.walk(root):
            st = os.stat(dirpath)
            state[dirpath] = ("dir", st.st_mtime_ns, tuple(sorted(dirs + files)))
            for name in files:
                path = os.path.join(dirpath, name)
                with open(path, "rb") as fh:
                    digest = hashlib.sha256(fh.read()).hexdigest()
                st = os.stat(path)
                state[path] = (digest, st.st_size, st.st_mtime_ns, st.st_mode)
    return state


@pytest.fixture
def forbid_source_writes(monkeypatch):
    """Returns ``arm(roots)``: after it, any write, move or removal under roots raises."""

    def arm(roots):
        real_roots = [os.path.realpath(r) for r in roots]

        def under(path) -> bool:
            if isinstance(path, int):
                return False
            p = os.path.realpath(os.fsdecode(path))
            return any(p == r or p.startswith(r + os.sep) for r in real_roots)

        def refuse(name, original):
            def wrapper(*args, **kwargs):
                paths = [a for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))]
                if any(under(p) for p in paths):
                    raise AssertionError(f"{name} called on a source path: {args!r}")
                return original(*args, **kwargs)
            return wrapper

        real_open = builtins.open

        def guarded_open(file, mode="r", *args, **kwargs):
            if any(c in mode for c in "wax+") and under(file):
                raise AssertionError(f"open({file!r}, {mode!r}) on a source path")
            return real_open(file, mode, *args, **kwargs)

        monkeypatch.setattr(builtins, "open", guarded_open)
        for name in ("remove", "unlink", "rename", "replace", "chmod", "utime", "truncate", "rmdir"):
            monkeypatch.setattr(os, name, refuse(f"os.{name}", getattr(os, name)))
        for name in ("move", "rmtree"):
            monkeypatch.setattr(shutil, name, refuse(f"shutil.{name}", getattr(shutil, name)))

    return arm
