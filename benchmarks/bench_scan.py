"""Scan throughput benchmark: first scan and unchanged rescan with the default method.

Generates N deterministic pseudo-English text documents (the 30,000 most frequent
English words drawn by their frequency, about 4 KB each, with planted near-duplicates) into a temporary folder, then runs the
scan job twice, each in its own process so peak memory is measured per scan, and
reports MB/s, documents/s, the rescan speed-up and peak RSS (scan process plus the
largest extraction worker). Results go to stdout and, with --write, into the "## Scan"
section of docs/performance.md (other sections are left alone).

    python benchmarks/bench_scan.py --n 10000
    python benchmarks/bench_scan.py --n 100000 --write
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
PERF_DOC = REPO / "docs" / "performance.md"
RESULTS = REPO / "benchmarks" / "results" / "bench_scan.json"  # every run written with --write
def vocabulary(size: int = 30_000) -> tuple[np.ndarray, np.ndarray]:
    """The ``size`` most frequent English words (wordfreq) and their probabilities."""
    from wordfreq import top_n_list, word_frequency

    words = top_n_list("en", size)
    probs = np.array([word_frequency(w, "en") for w in words], dtype=np.float64)
    return np.array(words), probs / probs.sum()


def generate(folder: Path, n: int, words_per_doc: int = 720, dup_share: float = 0.1, seed: int = 1) -> int:
    """Write n documents (1,000 per sub-folder) of English words drawn by frequency.

    A share ``dup_share`` of the documents are near-duplicates of a recent one (1 to 8
    percent of the words replaced). Returns the bytes written.
    """
    rng = np.random.default_rng(seed)
    vocab, probs = vocabulary()
    cdf = np.cumsum(probs)
    total = 0
    previous: list[np.ndarray] = []
    for k in range(n):
        if previous and rng.random() < dup_share:
            base = previous[int(rng.integers(len(previous)))].copy()
            m = max(1, int(base.shape[0] * rng.uniform(0.01, 0.08)))
            base[rng.integers(0, base.shape[0], size=m)] = np.minimum(np.searchsorted(cdf, rng.random(m)), vocab.shape[0] - 1)
            idx = base
        else:
            length = int(rng.integers(words_per_doc // 2, words_per_doc * 3 // 2))
            idx = np.minimum(np.searchsorted(cdf, rng.random(length)), vocab.shape[0] - 1)
        previous.append(idx)
        if len(previous) > 200:
            previous.pop(0)
        text = " ".join(vocab[idx].tolist())
        data = (text[:1].upper() + text[1:] + ".\n").encode("utf-8")
        sub = folder / f"box{k // 1000:04d}"
        if k % 1000 == 0:
            sub.mkdir(parents=True, exist_ok=True)
        (sub / f"doc{k:07d}.txt").write_bytes(data)
        total += len(data)
    return total


def run_scan_child(db: str, folder: str, workers: int | None, method: str | None = None,
                   mem_cap_gb: float | None = None) -> dict:
    """In a child process: one scan, its timing and peak memory.

    Each stage change is also printed to stderr (``STAGE name seconds``) so the parent
    can say where a scan that timed out or failed had got to.
    """
    sys.path.insert(0, str(REPO))
    if mem_cap_gb:
        cap = int(mem_cap_gb * 1e9)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))  # MemoryError, not the OOM killer
    from ndd_desktop.core.methods import DEFAULT_METHOD

    method = method or DEFAULT_METHOD
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    from ndd_desktop.store import Root, Store

    stage_times: dict[str, float] = {}
    state = {"stage": None, "t": time.monotonic()}

    def progress(p):
        if p.stage != state["stage"]:
            now = time.monotonic()
            if state["stage"] is not None:
                stage_times[state["stage"]] = stage_times.get(state["stage"], 0.0) + now - state["t"]
            state["stage"], state["t"] = p.stage, now
            print(f"STAGE {p.stage} {now - t0:.1f}", file=sys.stderr, flush=True)

    t0 = time.monotonic()
    with Store.open(db) as store:
        summary = ScanJob(store, ScanConfig([Root(folder)], method, {}, workers=workers), progress=progress).run()
    seconds = time.monotonic() - t0
    return {
        "seconds": seconds,
        "documents": summary.documents,
        "new": summary.new,
        "pairs": summary.pairs,
        "stages": {k: round(v, 2) for k, v in stage_times.items()},
        "rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "method": method,
    }


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and all its descendants (Linux /proc), in MB."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, pp in parents.items():
            if pp == parent and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(p, 0) for p in tree) / 1e6


def scan_in_child(db: Path, folder: Path, args: argparse.Namespace) -> dict:
    """Run one scan in a fresh interpreter; its report plus the peak RSS of its process tree.

    A scan that exceeds ``args.timeout`` seconds is killed; a failed or killed scan gives
    ``{"failed": "...", "stage": ..., "at_s": ...}`` instead of timings.
    """
    cmd = [sys.executable, __file__, "--child", str(db), str(folder)]
    for flag in ("workers", "method", "mem_cap_gb"):
        if getattr(args, flag):
            cmd += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    peak = {"mb": 0.0}
    stage = {"name": None, "at": 0.0, "tail": []}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak["mb"] = max(peak["mb"], _tree_rss_mb(proc.pid))
            done.wait(0.25)

    def read_stderr() -> None:
        for line in proc.stderr:
            if line.startswith("STAGE "):
                name, at = line[len("STAGE "):].rsplit(None, 1)  # a stage name may hold spaces
                stage["name"], stage["at"] = name, float(at)
            else:
                stage["tail"] = (stage["tail"] + [line.rstrip()])[-3:]

    threads = [threading.Thread(target=sample, daemon=True), threading.Thread(target=read_stderr, daemon=True)]
    for t in threads:
        t.start()
    try:
        out, _ = proc.communicate(timeout=args.timeout)
        failure = None if proc.returncode == 0 else (stage["tail"][-1] if stage["tail"] else f"status {proc.returncode}")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        out, failure = "", f"timed out after {args.timeout:.0f} s"
    done.set()
    for t in threads:
        t.join(5)
    if failure:
        return {"failed": failure, "stage": stage["name"], "at_s": stage["at"], "rss_tree_mb": peak["mb"]}
    report = json.loads(out.strip().splitlines()[-1])
    report["rss_tree_mb"] = peak["mb"]
    return report


def write_section(text: str) -> None:
    """Replace (or append) the "## Scan" section of docs/performance.md."""
    doc = PERF_DOC.read_text(encoding="utf-8") if PERF_DOC.exists() else "# Performance\n"
    pattern = re.compile(r"^## Scan\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(doc):
        doc = pattern.sub(lambda _: text, doc)
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    PERF_DOC.write_text(doc, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Generate, scan, rescan, report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="number of documents (default 100000)")
    ap.add_argument("--method", default=None, help="method (default: the default method)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds before a scan is stopped (default 3600)")
    ap.add_argument("--mem-cap-gb", type=float, default=16, help="address-space cap of the scan process (default 16)")
    ap.add_argument("--workers", type=int, default=None, help="extraction processes (default: CPUs)")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it (reused if present)")
    ap.add_argument("--write", action="store_true", help="write the '## Scan' section of docs/performance.md")
    ap.add_argument("--child", nargs=2, metavar=("DB", "FOLDER"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    sys.path.insert(0, str(REPO))
    if args.child:
        print(json.dumps(run_scan_child(args.child[0], args.child[1], args.workers, args.method, args.mem_cap_gb)))
        return 0

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ndd-bench-"))
    folder = base / f"docs-{args.n}"
    try:
        if not folder.exists():
            t = time.monotonic()
            size = generate(folder, args.n)
            print(f"generated {args.n} documents, {size / 1e6:.0f} MB in {time.monotonic() - t:.0f} s", flush=True)
        else:
            size = sum(p.stat().st_size for p in folder.rglob("*.txt"))
        db = base / f"bench-{args.n}-{args.method or 'default'}.ndd"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        first = scan_in_child(db, folder, args)
        print("first scan:", json.dumps(first), flush=True)
        again = scan_in_child(db, folder, args) if "failed" not in first else None
        print("rescan:", json.dumps(again), flush=True)
        db_mb = db.stat().st_size / 1e6
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    mb = size / 1e6
    from ndd_desktop.core.methods import DEFAULT_METHOD  # noqa: E402 - after the children ran

    if again is None:
        result = {"n": args.n, "mb": round(mb, 1), "method": args.method or DEFAULT_METHOD, "failed": first["failed"],
                  "stage": first["stage"], "at_s": first["at_s"], "tree_rss_mb": round(first["rss_tree_mb"])}
    else:
        result = _summary(args.n, mb, first, again, db_mb)
    print(json.dumps(result))
    if args.write:
        results = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
        results = [r for r in results if (r["method"], r["n"]) != (result["method"], result["n"])] + [result]
        results.sort(key=lambda r: (r["method"], r["n"]))
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        write_section(render(results))
    return 0


def _summary(n: int, mb: float, first: dict, again: dict, db_mb: float) -> dict:
    """The figures of a first scan and a rescan."""
    return {
        "n": n, "mb": round(mb, 1), "first_s": round(first["seconds"], 1),
        "mb_s": round(mb / first["seconds"], 2), "docs_s": round(n / first["seconds"], 0),
        "rescan_s": round(again["seconds"], 2), "ratio": round(first["seconds"] / again["seconds"], 1),
        "pairs": first["pairs"], "rss_mb": round(first["rss_self_mb"]), "tree_rss_mb": round(first["rss_tree_mb"]),
        "rescan_rss_mb": round(again["rss_self_mb"]), "db_mb": round(db_mb), "stages": first["stages"],
        "method": first["method"],
    }


def render(results: list[dict]) -> str:
    """The "## Scan" section for docs/performance.md."""
    cpu = f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}"
    lines = [
        "## Scan",
        "",
        f"`benchmarks/bench_scan.py` ({cpu}); default parameters of each method; "
        "pseudo-English text files of about 4 KB, 10 % planted near-duplicates; each scan in its own process.",
        "",
        "| method | documents | MB | first scan | MB/s | docs/s | rescan (unchanged) | speed-up | pairs | peak RSS scan / with workers | rescan RSS | store |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        if "failed" in r:
            lines.append(
                f"| {r['method']} | {r['n']:,} | {r['mb']:.0f} | did not finish: {r['failed']} "
                f"(in stage {r['stage']}, {r['at_s']:.0f} s in) | | | | | | {r['tree_rss_mb']} MB (tree) | | |"
            )
            continue
        lines.append(
            f"| {r['method']} | {r['n']:,} | {r['mb']:.0f} | {r['first_s']:.0f} s | {r['mb_s']:.2f} | {r['docs_s']:.0f} | "
            f"{r['rescan_s']:.1f} s | {r['ratio']:.0f}x | {r['pairs']:,} | {r['rss_mb']} / {r['tree_rss_mb']} MB | {r['rescan_rss_mb']} MB | {r['db_mb']} MB |"
        )
    lines += ["", "Seconds per stage of each first scan:", ""]
    for r in results:
        if "failed" in r:
            continue
        stages = ", ".join(f"{k} {v}" for k, v in r["stages"].items())
        lines.append(f"- {r['method']}, {r['n']:,} documents: {stages}")
    lines += [
        "",
        "Targets (issue): 100,000 documents with the default method in <= 5 minutes on 2 cores; an unchanged "
        "rescan >= 10x faster than the first scan; peak memory bounded, not growing with the text size beyond "
        "the sketches.",
        "",
        "Where the memory goes: the scan process keeps the walk's list of files and the store's file index "
        "(a few hundred bytes per file) and one batch of extracted text (at most 500 documents or 32 million "
        "characters); texts are written to the store batch by batch and never held all at once. The pairs "
        "stage loads every sketch of the method (decoded row by row) and then needs whatever the method's "
        "candidate search needs: that stage sets the peak. `rescan RSS` is the floor of the first kind.",
        "",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
