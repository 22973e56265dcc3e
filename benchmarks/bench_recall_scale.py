"""Recall at the default threshold on a collection large enough for the banded searches.

The labelled collections of ../shared/eval are small (a few thousand documents at most),
so every method joins them exactly. Beyond a few thousand documents the set methods
(qgram, bottomk, hybrid) switch to a banded search designed on their own scale, while the
stored score is the share of text verified on the two texts (docs/quality.md). This
benchmark plants pairs whose verified share lies just above the default threshold 0.5
among unrelated documents and counts how many of them each method's scan stores:

* ``halves``: A = C + X and B = C + Y, the common part C about 55 % of each (two
  revisions that each kept half and rewrote the rest);
* ``inside``: B = A followed by as much new text again (A is half of B);
* ``passages``: five common passages, each followed by different text in A and B.

The background documents are the English words of ``bench_scan.py``, drawn by frequency.

    python benchmarks/bench_recall_scale.py --n 20000 --methods qgram,minhash
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
KINDS = ("halves", "inside", "passages")


def generate(folder: Path, n: int, planted: int, seed: int = 7) -> list[tuple[str, str, str]]:
    """Write ``n`` unrelated documents and ``planted`` pairs; the pairs (a, b, kind)."""
    from bench_scan import vocabulary

    rng = np.random.default_rng(seed)
    vocab, probs = vocabulary()
    cdf = np.cumsum(probs)

    def words(k: int) -> list[str]:
        return vocab[np.minimum(np.searchsorted(cdf, rng.random(k)), vocab.shape[0] - 1)].tolist()

    for k in range(n):
        sub = folder / f"u{k // 1000:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"d{k:06d}.txt").write_text(" ".join(words(int(rng.integers(360, 1080)))) + ".\n")
    pairs = []
    (folder / "planted").mkdir(parents=True, exist_ok=True)
    for k in range(planted):
        kind = KINDS[k % 3]
        c = words(int(rng.integers(300, 700)))
        if kind == "halves":
            x, y = words(int(len(c) * 0.8)), words(int(len(c) * 0.8))
            a, b = c[: len(c) // 2] + x + c[len(c) // 2 :], y + c
        elif kind == "inside":
            a, b = c, c + words(int(len(c) * 0.9))
        else:
            a, b = [], []
            for piece in np.array_split(np.array(c, dtype=object), 5):
                a += list(piece) + words(int(len(piece) * 0.6))
                b += list(piece) + words(int(len(piece) * 0.6))
        names = (f"planted/a{k:04d}.txt", f"planted/b{k:04d}.txt")
        (folder / names[0]).write_text(" ".join(a) + ".\n")
        (folder / names[1]).write_text(" ".join(b) + ".\n")
        pairs.append((*names, kind))
    return pairs


def ndd(*args: str) -> str:
    """Run ``ndd`` in a child process; its standard output."""
    done = subprocess.run([sys.executable, "-m", "ndd_desktop.cli", *args], capture_output=True, text=True, check=True)
    return done.stdout


def measure(folder: Path, db: Path, method: str, pairs: list[tuple[str, str, str]]) -> dict:
    """Scan with ``method`` and count the planted pairs ``ndd pairs`` lists at the default threshold."""
    t0 = time.monotonic()
    ndd("scan", str(folder), "--db", str(db), "--method", method)
    seconds = time.monotonic() - t0
    rows = list(csv.DictReader(io.StringIO(ndd("pairs", "--db", str(db), "--method", method, "--format", "csv"))))
    listed = {frozenset((r["a"], r["b"])) for r in rows}
    out = {"method": method, "seconds": round(seconds, 1), "pairs": len(rows)}
    for kind in KINDS:
        mine = [frozenset(p[:2]) for p in pairs if p[2] == kind]
        out[kind] = f"{sum(p in listed for p in mine)}/{len(mine)}"
    found = sum(frozenset(p[:2]) in listed for p in pairs)
    out["recall"] = round(found / len(pairs), 4)
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate, scan with each method, print one JSON line per method."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="unrelated documents (default 20000)")
    ap.add_argument("--planted", type=int, default=300, help="planted pairs (default 300, a third of each kind)")
    ap.add_argument("--methods", default="qgram,bottomk,hybrid,minhash", help="comma-separated methods")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it (reused if present)")
    args = ap.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ndd-recall-"))
    folder = base / f"recall-{args.n}"
    truth = base / f"recall-{args.n}.json"
    if not truth.exists():
        truth.write_text(json.dumps(generate(folder, args.n, args.planted)))
    pairs = [tuple(p) for p in json.loads(truth.read_text())]
    for method in args.methods.split(","):
        db = base / f"recall-{args.n}-{method}.ndd"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        print(json.dumps(measure(folder, db, method, pairs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
