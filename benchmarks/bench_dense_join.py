"""The exact join of heavily overlapping collections: dense mode against count mode.

    python benchmarks/bench_dense_join.py [--docs 600] [--eval ../shared/eval/site_policy]

Collections whose documents are revisions of each other share most of their q-grams, so
count mode (every posting list emits its pairs) pays sum(df^2)/2 pair increments and
prefix filtering emits nearly every pair. Dense mode (core/dense_join.py) counts the
common q-grams of all pairs with one BLAS matrix product. This script joins the same
qgram sketches with both modes in one run (CPU seconds, best of --repeat), checks that
they return the same pairs and shared counts, and reports the speed ratio; it also shows
how many of those pairs the banded search (LSH mode, designed for the default threshold)
would have returned. Collections: synthetic revisions of one text (each revision edits
1-6 % of the words of an earlier one), and a folder of real documents when --eval names
one (its ``docs`` subfolder is read as plain text).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ndd_desktop.core.inverted_index import overlap_join  # noqa: E402
from ndd_desktop.core.methods import get_method  # noqa: E402
from ndd_desktop.core.normalize import normalize  # noqa: E402

FLOOR = 0.3


def revisions(n_docs: int, words: int = 2500, seed: int = 0) -> list[str]:
    """n_docs revisions of one pseudo-English text; each edits 1-6 % of an earlier one's words."""
    rng = np.random.default_rng(seed)
    vocab = ["".join(rng.choice(list("etaoinshrdlucmfwypvbgk"), int(k))) for k in rng.integers(2, 10, 20_000)]
    weights = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    weights /= weights.sum()
    docs = [list(rng.choice(vocab, words, p=weights))]
    for _ in range(n_docs - 1):
        base = list(docs[int(rng.integers(len(docs)))])
        for pos in rng.choice(len(base), int(len(base) * rng.uniform(0.01, 0.06)), replace=False):
            base[pos] = vocab[int(rng.integers(len(vocab)))]
        docs.append(base)
    return [normalize(" ".join(d)) for d in docs]


def folder_texts(folder: Path) -> list[str]:
    """Normalised text of every file under folder/docs (read as UTF-8, errors replaced)."""
    files = sorted(p for p in (folder / "docs").rglob("*") if p.is_file())
    return [normalize(p.read_text(encoding="utf-8", errors="replace")) for p in files]


def cpu_best(fn, repeat: int):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def triples(res) -> set[tuple[int, int, int]]:
    return set(zip(res.i.tolist(), res.j.tolist(), res.shared.tolist()))


def bench(name: str, texts: list[str], repeat: int) -> str:
    method = get_method("qgram")
    params = method.Params()
    sketches = method.sketch_many(texts, params)
    dense_s, dense = cpu_best(lambda: overlap_join(sketches, FLOOR, mode="dense"), repeat)
    count_s, count = cpu_best(lambda: overlap_join(sketches, FLOOR, mode="count"), 1)
    lsh = overlap_join(sketches, FLOOR, mode="lsh", recall_score=method.default_threshold)
    auto = overlap_join(sketches, FLOOR)
    same = triples(dense) == triples(count)
    found = len({(i, j) for i, j, _ in triples(lsh)} & {(i, j) for i, j, _ in triples(count)})
    return (
        f"| {name} | {len(texts):,} | {len(count.i):,} | {count_s:.2f} | {dense_s:.2f} | "
        f"{count_s / dense_s:.0f}x | {'yes' if same else 'NO'} | {found:,} | {auto.mode} |"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=600, help="synthetic revisions")
    ap.add_argument("--eval", type=Path, default=None, help="a labelled collection folder (with docs/)")
    ap.add_argument("--repeat", type=int, default=3, help="dense-mode runs, best CPU time kept")
    args = ap.parse_args(argv)
    if args.eval is not None and not (args.eval / "docs").is_dir():
        ap.error(f"--eval {args.eval}: no docs/ folder there (the labelled collections are not part of "
                 "the repository; see benchmarks/README.md)")
    print(f"qgram (q=4) sketches, floor {FLOOR}; CPU seconds; count mode is the reference (one run).")
    print()
    print("| collection | documents | pairs >= floor | count mode s | dense mode s | dense speed-up | same pairs and counts | of them found by LSH mode | auto picks |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---|")
    print(bench("synthetic revisions", revisions(args.docs), args.repeat))
    if args.eval is not None:
        print(bench(args.eval.name, folder_texts(args.eval), args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
