"""Scale benchmark of the default ``qgram`` method: sketching and find_pairs on N documents.

Reads the first N ``.txt`` files (sorted paths) of a benchmark corpus folder, by default
``/tmp/bench100k/docs-100000`` as written by ``benchmarks/bench_scan.py``; when the folder
is missing, the corpus is generated there with bench_scan's generator. Each size runs in a
child process, so its peak RSS is its own.

    python benchmarks/bench_qgram_scale.py                      # 10k, 20k, 40k, 100k
    python benchmarks/bench_qgram_scale.py --sizes 10000 --recall   # + recall vs exact join

Printed per size: read + normalise time, sketch time, find_pairs time (floor 0.3, as the
scan runs it), pairs found, RSS after sketching and peak RSS. ``--recall`` also runs the
exact count join (``overlap_join(mode="count")``, slow) on the same documents and reports
the share of its pairs found, at >= 0.7 (the default threshold) and in [0.3, 0.7).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_FOLDER = Path("/tmp/bench100k/docs-100000")
FLOOR = 0.3


def _files(folder: Path, n: int) -> list[Path]:
    if not folder.is_dir():
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_scan import generate  # the scan benchmark's corpus generator

        folder.mkdir(parents=True, exist_ok=True)
        generate(folder, max(n, 100_000))
    files = sorted(folder.rglob("*.txt"))
    if len(files) < n:
        raise SystemExit(f"{folder} holds {len(files)} .txt files, fewer than {n}")
    return files[:n]


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def run_one(folder: Path, n: int, recall: bool) -> dict:
    import numpy as np

    from ndd_desktop.core.inverted_index import overlap_join
    from ndd_desktop.core.methods import get_method
    from ndd_desktop.core.normalize import normalize

    method = get_method("qgram")
    params = method.params()
    files = _files(folder, n)
    sketches: list = []
    t_read = t_sketch = 0.0
    batch = 2000
    for s in range(0, n, batch):  # texts are dropped batch by batch, as in a scan
        t0 = time.perf_counter()
        texts = [normalize(f.read_text(encoding="utf-8", errors="replace")) for f in files[s : s + batch]]
        t1 = time.perf_counter()
        sketches.extend(method.sketch_many(texts, params))
        t_sketch += time.perf_counter() - t1
        t_read += t1 - t0
        del texts
    rss_sketched = _rss_mb()
    sketch_mb = sum(x.nbytes for x in sketches) / 2**20
    t0 = time.perf_counter()
    pairs = method.find_pairs(sketches, params, FLOOR)
    t_pairs = time.perf_counter() - t0
    out = {
        "n": n,
        "read_normalise_s": round(t_read, 1),
        "sketch_s": round(t_sketch, 1),
        "find_pairs_s": round(t_pairs, 1),
        "pairs": len(pairs),
        "pairs_ge_0.7": int((pairs.score >= 0.7).sum()),
        "sketch_mb": round(sketch_mb, 1),
        "rss_after_sketch_mb": round(rss_sketched, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
    }
    if recall:
        t0 = time.perf_counter()
        exact = overlap_join(sketches, FLOOR, measure=params.measure, mode="count")
        out["exact_join_s"] = round(time.perf_counter() - t0, 1)
        lens = np.fromiter((x.shape[0] for x in sketches), dtype=np.int64, count=n)
        score = exact.shared / np.maximum(np.maximum(lens[exact.i], lens[exact.j]), 1)
        truth = exact.i * n + exact.j
        found = np.isin(truth, pairs.i * n + pairs.j)
        hi = score >= 0.7
        out["exact_pairs_ge_0.7"] = int(hi.sum())
        out["recall_ge_0.7"] = round(float(found[hi].mean()) if hi.any() else 1.0, 5)
        out["exact_pairs_0.3_0.7"] = int((~hi).sum())
        out["recall_0.3_0.7"] = round(float(found[~hi].mean()) if (~hi).any() else 1.0, 5)
        out["recall_ge_0.3"] = round(float(found.mean()) if found.shape[0] else 1.0, 5)
        # every returned pair must carry its exact score
        common = np.isin(pairs.i * n + pairs.j, truth)
        out["returned_not_in_exact"] = int((~common).sum())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", type=Path, default=DEFAULT_FOLDER)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000, 100_000])
    ap.add_argument("--recall", action="store_true", help="also compare with the exact count join")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(run_one(args.folder, args.sizes[0], args.recall)), flush=True)
        return 0
    _files(args.folder, max(args.sizes))  # generate once, up front, if needed
    for n in args.sizes:
        cmd = [sys.executable, __file__, "--child", "--folder", str(args.folder), "--sizes", str(n)]
        if args.recall:
            cmd.append("--recall")
        res = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        if res.returncode:
            sys.stderr.write(res.stderr)
            return res.returncode
        print(res.stdout.strip().splitlines()[-1], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
