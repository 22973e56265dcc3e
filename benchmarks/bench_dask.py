"""The Dask engine against the local engine, in one run, on the same generated folder.

Generates N documents with bench_scan.py's generator (pseudo-English, about 4 KB each,
10 % planted near-duplicates), then scans the folder into two new collection files: with
the local engine (``workers`` extraction processes) and with the Dask engine on a
LocalCluster of ``workers`` worker processes. Prints each scan's time per stage, checks
that both stored the same pairs (by path, with the same scores), times an unchanged Dask
rescan, and reports the ratio dask / local (the issue's target: at most 1.5). With
--write the result goes to benchmarks/results/bench_dask.json and the "## Dask engine"
section of docs/performance.md.

    python benchmarks/bench_dask.py --n 100000 --write
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

RESULTS = REPO / "benchmarks" / "results" / "bench_dask.json"
PERF_DOC = REPO / "docs" / "performance.md"


def scan(db: Path, folder: Path, method: str, workers: int, engine=None) -> dict:
    """One scan; its seconds, stages (name -> seconds), counts and pairs by path."""
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.pipeline.progress import StageClock
    from ndd_desktop.store import Root, Store

    clock = StageClock()
    t0 = time.monotonic()
    with Store.open(db) as store:
        summary = ScanJob(store, ScanConfig([Root(str(folder))], method, {}, workers=workers), progress=clock,
                          engine=engine).run()
        seconds = time.monotonic() - t0
        sets = [ps for ps in store.pairs.sets() if ps.method == method]
        pairs = sorted(
            (min(r.a.relpath, r.b.relpath), max(r.a.relpath, r.b.relpath), round(r.score, 12))
            for r in store.pairs.rows(method, sets[0].pairs_key, 0.0)
        ) if sets else []
    stages: dict[str, float] = {}
    for name, secs, _ in clock.finish():
        stages[name] = round(stages.get(name, 0.0) + secs, 2)
    return {"seconds": round(seconds, 2), "stages": stages, "documents": summary.documents, "new": summary.new,
            "pairs": len(pairs), "_pairs": pairs}


def main(argv: list[str] | None = None) -> int:
    from bench_scan import generate

    from ndd_desktop.cluster import DaskEngine
    from ndd_desktop.core.methods import DEFAULT_METHOD

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="documents (default %(default)s)")
    ap.add_argument("--workers", type=int, default=2, help="extraction processes / Dask workers (default 2)")
    ap.add_argument("--method", default=DEFAULT_METHOD)
    ap.add_argument("--keep", metavar="DIR", help="generate into (or reuse) this folder and keep it")
    ap.add_argument("--write", action="store_true", help="write the results file and docs/performance.md")
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="ndd-bench-dask-"))
    folder = Path(args.keep) if args.keep else work / "docs"
    try:
        if not folder.is_dir() or not any(folder.iterdir()):
            t = time.monotonic()
            mb = generate(folder, args.n) / 1e6
            print(f"generated {args.n} documents, {mb:.0f} MB in {time.monotonic() - t:.0f} s", flush=True)
        local = scan(work / "local.ndd", folder, args.method, args.workers)
        print(f"local: {local['seconds']} s {local['stages']} pairs {local['pairs']}", flush=True)
        t = time.monotonic()
        with DaskEngine(workers=args.workers) as engine:
            started = round(time.monotonic() - t, 2)
            dask = scan(work / "dask.ndd", folder, args.method, args.workers, engine)
            print(f"dask:  {dask['seconds']} s {dask['stages']} pairs {dask['pairs']} (cluster start {started} s)",
                  flush=True)
            shuffled = dict(engine.grouper.stats)
            again = scan(work / "dask.ndd", folder, args.method, args.workers, engine)
            print(f"dask unchanged rescan: {again['seconds']} s, new {again['new']}", flush=True)
        same = local.pop("_pairs") == dask.pop("_pairs")
        again.pop("_pairs")
        ratio = dask["seconds"] / local["seconds"]
        result = {
            "date": time.strftime("%Y-%m-%d"), "machine": f"{platform.machine()}, Python {platform.python_version()}",
            "n": args.n, "workers": args.workers, "method": args.method, "local": local, "dask": dask,
            "dask_cluster_start_s": started, "dask_rescan": again, "shuffle": shuffled, "same_pairs": same,
            "ratio": round(ratio, 2),
        }
        print(f"same pairs: {same}; dask / local = {ratio:.2f} (target <= 1.5); shuffle {shuffled}")
        if args.write:
            write(result)
        return 0 if same else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write(result: dict) -> None:
    """Append to the results file and replace the "## Dask engine" section of performance.md."""
    runs = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
    runs.append(result)
    RESULTS.write_text(json.dumps(runs, indent=1) + "\n")
    loc, dsk = result["local"], result["dask"]
    stages = list(loc["stages"]) + [s for s in dsk["stages"] if s not in loc["stages"]]
    rows = "\n".join(f"| {s} | {loc['stages'].get(s, 0):.1f} | {dsk['stages'].get(s, 0):.1f} |" for s in stages)
    text = (
        "## Dask engine\n\n"
        f"`benchmarks/bench_dask.py --n {result['n']}` ({result['machine']}, {result['workers']} workers; "
        f"{result['date']}): the same generated folder scanned with the local engine and with `--engine dask` "
        f"on a LocalCluster of {result['workers']} worker processes, method {result['method']}.\n\n"
        f"| stage | local (s) | dask (s) |\n|---|---:|---:|\n{rows}\n"
        f"| **total** | **{loc['seconds']:.1f}** | **{dsk['seconds']:.1f}** |\n\n"
        f"Dask / local = **{result['ratio']:.2f}** (target at most 1.5); the same {loc['pairs']:,} pairs with the same "
        f"scores: {result['same_pairs']}; cluster start {result['dask_cluster_start_s']:.1f} s (not in the total); "
        f"unchanged rescan with dask {result['dask_rescan']['seconds']:.1f} s (nothing read). "
        f"Band rows shuffled: {result['shuffle'].get('rows', 0):,}.\n"
    )
    doc = PERF_DOC.read_text()
    start = doc.find("## Dask engine")
    if start < 0:
        doc = doc.rstrip("\n") + "\n\n" + text
    else:
        end = doc.find("\n## ", start + 1)
        doc = doc[:start] + text + (doc[end + 1:] if end >= 0 else "")
    PERF_DOC.write_text(doc)


if __name__ == "__main__":
    raise SystemExit(main())
