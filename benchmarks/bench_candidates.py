"""Candidate generation of bottomk and fingerprint at growing collection sizes.

Usage: python benchmarks/bench_candidates.py [--sizes 10000 20000 40000] [--check]

The corpus is the one of bench_setmethods.py (Zipf vocabulary, 2-4 KB documents, 11 %
planted copies and near-duplicates), generated once at the largest size; each size takes
its first n documents, so every doubling adds documents to the same collection. Times
(best of 3) of bottomk's find_pairs at floors 0.3 and 0.7 and of fingerprint's
candidate_pairs at Hamming radius 18 (the source's rule) and at the floor 0.3 (capped at
the default search radius 24), with the ratio for each doubling. ``--check`` also
compares fingerprint with the blocked brute force (must be equal) and, at the smallest
size, bottomk with the exact prefix-filter join (recall of the pairs above the floor and
above the default threshold; slow).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_setmethods import make_corpus

from ndd_desktop.core.hamming_index import covering_plan, radius_pairs
from ndd_desktop.core.inverted_index import overlap_join
from ndd_desktop.core.methods import get_method
from ndd_desktop.core.normalize import normalize


def best(fn, repeat: int = 3) -> tuple[float, object]:
    """(best wall time, last result) of ``repeat`` calls."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    bk, fp = get_method("bottomk"), get_method("fingerprint")
    bkp, fpp = bk.params(), fp.params()
    prev: dict[str, float] = {}
    corpus = [normalize(t) for t in make_corpus(max(args.sizes), seed=max(args.sizes))]
    for n in sorted(args.sizes):
        texts = corpus[:n]
        bks, fps = bk.sketch_many(texts, bkp), fp.sketch_many(texts, fpp)
        rows = []
        for floor in (0.3, 0.7):
            secs, res = best(lambda: bk.find_pairs(bks, bkp, floor))
            rows.append((f"bottomk floor {floor}", secs, len(res)))
        # radius 18: the source's near-duplicate rule; 24: the default search radius
        secs, _ = best(lambda: fp.candidate_pairs(fps, fpp, 1.0 - 18 / 128))
        rows.append(("fingerprint r=18", secs, len(_)))
        secs, pairs = best(lambda: fp.candidate_pairs(fps, fpp, 0.3))
        rows.append(("fingerprint r=24", secs, len(pairs)))
        for name, secs, count in rows:
            ratio = f"{secs / prev[name]:4.2f}x" if name in prev else "  -  "
            prev[name] = secs
            print(f"n={n:6d}  {name:20s} {secs:7.3f} s ({ratio})  pairs {count}", flush=True)
        matrix = np.stack(fps)
        print(f"n={n:6d}  fingerprint plan: {covering_plan(matrix, 24)[0]} parts", flush=True)
        if args.check:
            brute, _ = radius_pairs(matrix, 24, "brute")
            same = {tuple(p) for p in brute.tolist()} == {tuple(p) for p in pairs.tolist()}
            print(f"n={n:6d}  fingerprint equals brute force: {same}", flush=True)
            if n == min(args.sizes):
                exact = overlap_join(bks, 0.3, mode="prefix", max_df=1.0)
                got = bk.find_pairs(bks, bkp, 0.3)
                found = set(zip(got.i.tolist(), got.j.tolist()))
                want = list(zip(exact.i.tolist(), exact.j.tolist()))
                hi = [p for p, s in zip(want, exact.shared.tolist()) if s >= bk.default_threshold * bkp.k]
                print(
                    f"n={n:6d}  bottomk recall: >= floor {sum(p in found for p in want)}/{len(want)}, "
                    f">= threshold {sum(p in found for p in hi)}/{len(hi)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
