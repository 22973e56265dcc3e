"""Property: any sequence of file changes, rescanned step by step, ends where a fresh scan does."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipehelp import pairs_by_path, scan, text_of, touch, variant

from ndd_desktop.store import Store

OPS = st.lists(
    st.tuples(st.sampled_from(["add", "add_copy", "change", "remove", "move", "touch"]), st.integers(0, 10**6)),
    min_size=1,
    max_size=6,
)


def _apply(folder: Path, op: str, seed: int) -> None:
    files = sorted(p for p in folder.rglob("*.txt"))
    if op == "add" or not files:
        (folder / f"new{seed}.txt").write_text(text_of(seed))
        return
    target = files[seed % len(files)]
    if op == "add_copy":
        (folder / f"copy{seed}.txt").write_text(variant(target.read_text(), seed, changes=2))
    elif op == "change":
        target.write_text(variant(target.read_text(), seed, changes=30) + " more")
    elif op == "remove":
        target.unlink()
    elif op == "move":
        sub = folder / f"moved{seed % 3}"
        sub.mkdir(exist_ok=True)
        shutil.move(target, sub / f"m{seed}.txt")
    elif op == "touch":
        touch(target)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rounds=st.lists(OPS, min_size=1, max_size=2), params=st.sampled_from([{}, {"q": 3}]))
def test_incremental_rescans_equal_a_fresh_scan(rounds, params):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = tmp / "c"
        folder.mkdir()
        for k in range(6):
            text = text_of(k) if k % 2 == 0 else variant(text_of(k - 1), k)
            (folder / f"d{k}.txt").write_text(text)
        with Store.open(tmp / "inc.ndd") as inc:
            scan(inc, [folder])
            for ops in rounds:
                for op, seed in ops:
                    _apply(folder, op, seed)
                scan(inc, [folder], params=params)
            got = pairs_by_path(inc)
            docs = sorted(d.relpath for d in inc.documents.all())
            assert inc.integrity_check() == "ok"
        with Store.open(tmp / "fresh.ndd") as fresh:
            scan(fresh, [folder], params=params)
            assert pairs_by_path(fresh) == got
            assert sorted(d.relpath for d in fresh.documents.all()) == docs
