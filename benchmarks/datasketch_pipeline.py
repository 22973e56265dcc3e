"""datasketch's bare near-duplicate pipeline over a folder: the reference of bench_scan.py.

What a datasketch user writes to find near-duplicate text files, and nothing more: read
every file, lower-case it, split it into words, hash the word 3-shingles with
``MinHash.bulk`` (128 permutations), index them in a ``MinHashLSH`` at the threshold given
(the scan's floor, 0.3, by default) and query every document for its candidates. No
verification, no store, one process. Prints one JSON line: seconds per step, documents,
candidate pairs.

    python benchmarks/datasketch_pipeline.py FOLDER [--threshold 0.3]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def run(folder: str, threshold: float = 0.3, perm: int = 128) -> dict:
    """The pipeline over every file under ``folder``; its timings and counts."""
    from datasketch import MinHash, MinHashLSH

    t0 = time.monotonic()
    paths = sorted(os.path.join(d, f) for d, _, files in os.walk(folder) for f in files)
    shingles = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as fh:
            words = fh.read().lower().split()
        shingles.append([" ".join(words[i : i + 3]).encode("utf-8") for i in range(max(len(words) - 2, 1))])
    t1 = time.monotonic()
    hashes = MinHash.bulk(shingles, num_perm=perm)
    t2 = time.monotonic()
    lsh = MinHashLSH(threshold=threshold, num_perm=perm)
    with lsh.insertion_session() as session:
        for k, m in enumerate(hashes):
            session.insert(k, m)
    pairs = sum(1 for k, m in enumerate(hashes) for j in lsh.query(m) if j > k)
    t3 = time.monotonic()
    return {"documents": len(paths), "read_shingle_s": round(t1 - t0, 2), "minhash_s": round(t2 - t1, 2),
            "lsh_s": round(t3 - t2, 2), "seconds": round(t3 - t0, 2), "candidates": pairs}


def main(argv: list[str] | None = None) -> int:
    """Run the pipeline on the folder of the command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--threshold", type=float, default=0.3, help="MinHashLSH threshold (default 0.3, the scan's floor)")
    args = ap.parse_args(argv)
    print(json.dumps(run(args.folder, args.threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
