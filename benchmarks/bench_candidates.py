"""Candidate search of every method at growing collection sizes (the doubling curve).

Usage: python benchmarks/bench_candidates.py [--sizes 10000 20000 40000] [--methods ...]
       [--repeat 3] [--check]

The corpus is the one of bench_setmethods.py (Zipf vocabulary, 2-4 KB documents, 11 %
planted copies and near-duplicates), generated once at the largest size; each size takes
its first n documents, so every doubling adds documents to the same collection. For each
method and size: the best CPU time of ``--repeat`` calls of ``find_pairs`` (candidates
and their exact scores) at the floor 0.3, plus bottomk at its default threshold 0.7 and
fingerprint at Hamming radius 18 (the source's rule; the floor 0.3 is capped at the
default search radius 24), the number of pairs and the time ratio for each doubling.
``--check`` also compares fingerprint with the blocked brute force (must be equal) and,
at the smallest size, bottomk with the exact prefix-filter join (recall of the pairs above
the floor and above the default threshold; slow).
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
    """(best CPU time of this process, last result) of ``repeat`` calls; CPU time, because
    other load on the shared machine then distorts the ratios less (the work is one thread)."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out


#: (label, floor) cases per method; the floor 0.3 is the scan's default floor.
CASES = {
    "exact": [("floor 0.3", 0.3)],
    "qgram": [("floor 0.3", 0.3)],
    "bottomk": [("floor 0.3", 0.3), ("floor 0.7", 0.7)],
    "fingerprint": [("radius 18", 1.0 - 18 / 128), ("radius 24", 0.3)],
    "hybrid": [("floor 0.3", 0.3)],
    "minhash": [("floor 0.3", 0.3)],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000])
    parser.add_argument("--methods", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    corpus = [normalize(t) for t in make_corpus(sizes[-1], seed=sizes[-1])]
    print(f"corpus: {sizes[-1]} documents, {sum(len(t) for t in corpus) / 1e6:.1f} M characters", flush=True)
    for name in args.methods:
        method = get_method(name)
        params = method.params()
        t0 = time.perf_counter()
        sketches = method.sketch_many(corpus, params)
        print(f"{name}: sketched in {time.perf_counter() - t0:.1f} s", flush=True)
        prev: dict[str, float] = {}
        for n in sizes:
            sub = sketches[:n]
            for label, floor in CASES[name]:
                secs, res = best(lambda: method.find_pairs(sub, params, floor), args.repeat)
                ratio = f"{secs / prev[label]:4.2f}x" if label in prev else "  -  "
                prev[label] = secs
                print(f"{name:11s} {label:10s} n={n:6d} {secs:8.3f} s ({ratio})  pairs {len(res)}", flush=True)
            if args.check and name == "fingerprint":
                matrix = np.stack(sub)
                brute, _ = radius_pairs(matrix, 24, "brute")
                got, _ = radius_pairs(matrix, 24)
                same = {tuple(p) for p in brute.tolist()} == {tuple(p) for p in got.tolist()}
                print(f"fingerprint n={n}: {covering_plan(matrix, 24)[0]} parts, equals brute force: {same}", flush=True)
            if args.check and name == "bottomk" and n == sizes[0]:
                exact = overlap_join(sub, 0.3, mode="prefix", max_df=1.0)
                got = method.find_pairs(sub, params, 0.3)
                found = set(zip(got.i.tolist(), got.j.tolist()))
                want = list(zip(exact.i.tolist(), exact.j.tolist()))
                hi = [p for p, s in zip(want, exact.shared.tolist()) if s >= method.default_threshold * params.k]
                print(
                    f"bottomk n={n}: recall >= floor {sum(p in found for p in want)}/{len(want)}, "
                    f">= threshold {sum(p in found for p in hi)}/{len(hi)}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
