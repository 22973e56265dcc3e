"""Throughput of the set-based methods (exact, qgram, bottomk) on a synthetic corpus.

Usage: python benchmarks/bench_setmethods.py [--sizes 10000 20000 40000] [--floor 0.3]

The corpus: words drawn from a Zipf-distributed vocabulary of 50,000 pseudo-words
(lengths 2-12, exponent 1.05, roughly English-like word frequencies), documents of
2-4 KB; 1 % are exact copies and 10 % near-duplicates of an earlier one (1-10 % of the words
replaced, a sentence dropped or added). Prints sketch throughput (MB of normalised text
per second, one process) and find_pairs time at the given floor for each size, and the
time ratio for each doubling.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ndd_desktop.core.methods import get_method
from ndd_desktop.core.normalize import normalize

LETTERS = np.array(list("abcdefghijklmnopqrstuvwxyz"))


def make_corpus(n_docs: int, seed: int = 0, dup_rate: float = 0.1) -> list[str]:
    """n_docs synthetic documents of 2-4 KB, ``dup_rate`` of them planted near-duplicates."""
    rng = np.random.default_rng(seed)
    n_vocab = 50_000
    lengths = rng.integers(2, 13, n_vocab)
    vocab = np.array(["".join(rng.choice(LETTERS, k)) for k in lengths])
    weights = 1.0 / np.arange(1, n_vocab + 1) ** 1.05
    cdf = np.cumsum(weights / weights.sum())

    def draw(k: int) -> np.ndarray:
        return vocab[np.minimum(np.searchsorted(cdf, rng.random(k)), n_vocab - 1)]

    docs: list[list[str]] = []
    for d in range(n_docs):
        if d > 10 and rng.random() < 0.01:  # exact copies
            docs.append(docs[int(rng.integers(d))])
        elif d > 10 and rng.random() < dup_rate:
            words = list(docs[int(rng.integers(d))])
            n_edit = int(len(words) * rng.uniform(0.01, 0.10))
            pos = rng.integers(0, len(words), n_edit)
            new = draw(n_edit)
            for p, w in zip(pos, new):
                words[p] = w
            if rng.random() < 0.5:
                cut = int(rng.integers(0, max(1, len(words) - 20)))
                del words[cut : cut + 15]
            docs.append(words)
        else:
            target = int(rng.integers(2000, 4000))
            docs.append(list(draw(max(1, target // 8))))
    return [" ".join(w) for w in docs]


def bench(sizes: list[int], floor: float) -> None:
    """Print sketch MB/s and find_pairs time per method and size."""
    # One collection; each size is its first n documents, so a doubling adds documents.
    corpus = [normalize(t) for t in make_corpus(max(sizes), seed=max(sizes))]
    corpora = {n: corpus[:n] for n in sorted(sizes)}
    for name in ("exact", "qgram", "bottomk"):
        method = get_method(name)
        params = method.params()
        prev = None
        for n in sorted(sizes):
            texts = corpora[n]
            mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
            t0 = time.perf_counter()
            sketches = method.sketch_many(texts, params)
            t_sketch = time.perf_counter() - t0
            t0 = time.perf_counter()
            pairs = method.find_pairs(sketches, params, floor)
            t_pairs = time.perf_counter() - t0
            n_above = int((pairs.score >= method.default_threshold).sum())
            ratio = f"{t_pairs / prev:4.2f}x" if prev else "  -  "
            prev = t_pairs
            print(
                f"{name:8s} n={n:6d} text={mb:6.1f} MB  sketch {mb / t_sketch:6.1f} MB/s ({t_sketch:5.1f} s)"
                f"  find_pairs {t_pairs:6.2f} s ({ratio})  pairs>=floor {len(pairs):7d}"
                f"  >=threshold {n_above:6d}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000])
    parser.add_argument("--floor", type=float, default=0.3)
    args = parser.parse_args()
    bench(args.sizes, args.floor)


if __name__ == "__main__":
    main()
