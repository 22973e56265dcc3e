"""Recall of qgram's candidate search against an exact all-pairs reference.

    python benchmarks/recall_qgram_exact.py --n 10000 [--folder DIR]

Reads the first N text files of the bench_scan corpus (generate it with
``python benchmarks/bench_scan.py --n 100000 --keep /tmp/bench100k``), sketches them with the
default qgram parameters and runs ``find_pairs`` at floor 0.3 as a scan does. The reference
is every pair's exact shared q-gram count from a sparse document x q-gram product
(scipy, in the ``bench`` extra): all N^2 pairs, no candidate search. Prints, per threshold,
the pairs the reference has, how many find_pairs returned, and any score that differs.
The reference costs about a minute at 10,000 documents and grows with N^2 (40,000 did not
finish in 15 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import glob
import time

import numpy as np
import scipy.sparse as sp

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.normalize import normalize


def exact_pairs(sketches: list[np.ndarray], floor: float, block: int = 500) -> dict[tuple[int, int], float]:
    """doc_q of every pair >= floor, from the sparse product X X^T in blocks of rows."""
    n = len(sketches)
    lens = np.array([s.shape[0] for s in sketches])
    values = np.concatenate(sketches)
    _, col = np.unique(values, return_inverse=True)
    x = sp.csr_matrix((np.ones(values.shape[0], dtype=np.float32), (np.repeat(np.arange(n), lens), col.ravel())),
                      shape=(n, int(col.max()) + 1))
    out: dict[tuple[int, int], float] = {}
    for s in range(0, n, block):
        c = (x[s : s + block] @ x.T).tocoo()
        i, j, shared = c.row + s, c.col, c.data
        k = i < j
        i, j, shared = i[k], j[k], shared[k]
        score = shared / np.maximum(lens[i], lens[j])
        k = score >= floor
        out.update({(int(a), int(b)): float(v) for a, b, v in zip(i[k], j[k], score[k])})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--folder", default="/tmp/bench100k/docs-100000")
    args = ap.parse_args()
    files = sorted(glob.glob(f"{args.folder}/**/*.txt", recursive=True))[: args.n]
    texts = [normalize(open(f, encoding="utf-8").read()) for f in files]
    m = get_method("qgram")
    p = m.params()
    sketches = m.sketch_many(texts, p)
    start = time.perf_counter()
    got = m.find_pairs(sketches, p, 0.3)
    print(f"{len(texts)} documents: find_pairs {time.perf_counter() - start:.1f} s, {len(got)} pairs")
    ref = exact_pairs(sketches, 0.3)
    have = {(int(a), int(b)): float(s) for a, b, s in zip(got.i, got.j, got.score)}
    for t in (0.3, 0.5, 0.6, 0.7, 0.8):
        want = {k for k, v in ref.items() if v >= t}
        found = {k for k, v in have.items() if v >= t}
        print(f"score >= {t}: exact {len(want)}, found {len(want & found)} "
              f"({len(want & found) / max(len(want), 1):.4f}), not in the reference {len(found - want)}")
    wrong = sum(1 for k, v in have.items() if k in ref and abs(v - ref[k]) > 1e-9)
    print(f"scores differing from the reference: {wrong}")


if __name__ == "__main__":
    main()
