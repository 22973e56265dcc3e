"""Sketching speed of the detection core.

    python benchmarks/bench_sketch.py [--docs 2000] [--write] [--minhash-only]

1. minhash sketching against datasketch ``MinHash.bulk`` (128 permutations) on the same
   synthetic documents in the same run, text in and signature out: for datasketch the
   shingle byte strings are built in Python, as a datasketch user would. Word 3-shingles
   and character 5-grams. Times are CPU seconds of this process (``time.process_time``,
   best of several runs), so other load on the machine distorts the ratio less.
2. Sketching MB/s of every registered method (methods that fail to load are listed).

Candidate search at growing collection sizes is benchmarks/bench_candidates.py.

Results are printed; with --write they replace the section "## Detection core" of
docs/performance.md (other sections untouched).

The corpus is deterministic pseudo-English: pronounceable words from syllables, drawn with
a Zipf distribution, documents of 50-600 words.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ndd_desktop.core.methods import get_method, method_names  # noqa: E402
from ndd_desktop.core.normalize import normalize  # noqa: E402

SECTION = "## Detection core"


# -- corpus ----------------------------------------------------------------------------------------


def vocabulary(size: int = 20000, seed: int = 0) -> list[str]:
    """Distinct pronounceable pseudo-words, shortest (most frequent) first."""
    rng = np.random.default_rng(seed)
    onsets = ["", "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st", "th", "ch", "pr"]
    vowels = ["a", "e", "i", "o", "u", "ea", "ou", "io"]
    codas = ["", "", "n", "r", "s", "t", "l", "nd", "st"]
    words: set[str] = set()
    out: list[str] = []
    while len(out) < size:
        syl = 1 + min(int(rng.geometric(0.55)) - 1, 3)
        w = "".join(rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas) for _ in range(syl))
        if w not in words:
            words.add(w)
            out.append(w)
    return sorted(out, key=len)


def corpus(n: int, seed: int = 1, vocab: list[str] | None = None) -> list[str]:
    """n normalised pseudo-English documents (Zipf word frequencies, 50-600 words)."""
    vocab = vocab or vocabulary()
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    p /= p.sum()
    words = np.array(vocab)
    lengths = np.clip(rng.lognormal(5.3, 0.5, n).astype(int), 50, 600)
    stream = words[rng.choice(len(vocab), int(lengths.sum()), p=p)]
    docs, pos = [], 0
    for ln in lengths:
        sentence = stream[pos : pos + ln]
        pos += ln
        docs.append(normalize(" ".join(sentence)))
    return docs


# -- timing ------------------------------------------------------------------------------------------


def cpu_best(fn, repeat: int = 3) -> float:
    """Best CPU time (seconds) of ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def bench_vs_datasketch(docs: list[str]) -> list[dict]:
    """Our minhash sketching against datasketch MinHash.bulk, same documents, same run."""
    from datasketch import MinHash

    method = get_method("minhash")
    rows = []

    def ds_words():
        sets = []
        for d in docs:
            w = d.split()
            sets.append([" ".join(w[i : i + 3]).encode("utf-8") for i in range(len(w) - 2)])
        MinHash.bulk(sets, num_perm=128)

    def ds_chars():
        MinHash.bulk([[d[i : i + 5].encode("utf-8") for i in range(len(d) - 4)] for d in docs], num_perm=128)

    from ndd_desktop.core import minhash_kernel, native

    words, chars = method.params({"unit": "words", "w": 3}), method.params({"unit": "chars", "q": 5})
    c_loops = native.LOOPS
    # numpy's path first (the C loops set aside, numba's not loaded yet), then the
    # compiled loop a scan's workers run: in C where it is built, and numba's
    cases = [
        ("word 3-shingles, numpy", words, ds_words, None),
        ("character 5-grams", chars, ds_chars, None),
    ]
    if c_loops is not None:
        cases.append(("word 3-shingles, C (a scan's workers)", words, ds_words, c_loops))
    cases.append(("word 3-shingles, numba (without the C loops)", words, ds_words, "numba"))
    for label, params, ds, loops in cases:
        native.LOOPS = None if loops in (None, "numba") else loops
        if loops == "numba":
            minhash_kernel.load()
        method.sketch_many(docs[:50], params)  # warm-up: tables, imports
        ours = cpu_best(lambda: method.sketch_many(docs, params), 3)
        theirs = cpu_best(ds, 2)
        rows.append(
            {
                "case": label,
                "ours_docs_s": len(docs) / ours,
                "ds_docs_s": len(docs) / theirs,
                "ratio": theirs / ours,
            }
        )
    native.LOOPS = c_loops
    return rows


def bench_methods(docs: list[str]) -> list[dict]:
    """Sketching MB/s (UTF-8 bytes of normalised text per CPU second) of every method."""
    mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
    rows = []
    for name in method_names():
        try:
            method = get_method(name)
            params = method.params()
            method.sketch_many(docs[:20], params)
            secs = cpu_best(lambda: method.sketch_many(docs, params), 2)
            rows.append({"method": name, "mb_s": mb / secs, "note": ""})
        except Exception as exc:  # other methods may be unfinished
            rows.append({"method": name, "mb_s": float("nan"), "note": f"not measured: {type(exc).__name__}: {exc}"[:90]})
    return rows


# -- report --------------------------------------------------------------------------------------------


def report(vs: list[dict], methods: list[dict], ndocs: int) -> str:
    """The markdown of the "Detection core" section."""
    lines = [
        SECTION,
        "",
        f"Written by `benchmarks/bench_sketch.py` on {time.strftime('%Y-%m-%d')} "
        f"({platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}). "
        "CPU seconds of the benchmark process, best of 2-3 runs; synthetic pseudo-English "
        "(Zipf words, 50-600 words per document).",
        "",
        f"### MinHash sketching against datasketch (128 permutations, {ndocs} documents, text in, signature out)",
        "",
        "| shingles | ndd docs/s | datasketch docs/s | ratio | target |",
        "|---|---:|---:|---:|---:|",
    ]
    targets = {"word 3-shingles, numpy": "15x", "character 5-grams": "40x"}
    for r in vs:
        lines.append(
            f"| {r['case']} | {r['ours_docs_s']:,.0f} | {r['ds_docs_s']:,.0f} | {r['ratio']:.1f}x | {targets.get(r['case'], '')} |"
        )
    lines += [
        "",
        "Where minhash sketching time goes (CPU per document of ~225 words / ~930 characters, "
        "same corpus, each stage timed alone): word 3-shingles: tokenising and hashing from the "
        "text bytes ~4-5 us, the distinct-shingle count (row-wise sorts of documents of similar "
        "size) ~2 us, the 128 permutations ~7 us (~220 values x 128 multiply-and-minimum steps at "
        "~0.19 ns each, plus ~15 ns per document and permutation in `np.minimum.reduceat`); "
        "character 5-grams: ~3 us hashing, ~5 us counting, ~21 us permutations (~925 values x 128). "
        "The permutations run at numpy's memory speed over a cache-resident buffer (one in-place "
        "multiply and one segmented minimum per permutation); datasketch spends most of its time "
        "in Python per shingle.",
    ]
    lines += [
        "",
        "Candidate search at growing collection sizes: `benchmarks/bench_candidates.py` "
        "(section \"Candidate generation\" below).",
        "",
        "### Sketching throughput per method (MB of normalised UTF-8 text per CPU second)",
        "",
        "| method | MB/s | note |",
        "|---|---:|---|",
    ]
    for r in methods:
        mbs = "" if np.isnan(r["mb_s"]) else f"{r['mb_s']:.1f}"
        lines.append(f"| {r['method']} | {mbs} | {r['note']} |")
    return "\n".join(lines) + "\n"


def write_section(path: Path, text: str) -> None:
    """Replace (or append) the "## Detection core" section of docs/performance.md."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Performance\n"
    lines = old.splitlines(keepends=True)
    start = next((k for k, ln in enumerate(lines) if ln.rstrip() == SECTION), None)
    if start is None:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
        new = "".join(lines[:start]) + text + ("\n" if end < len(lines) else "") + "".join(lines[end:])
    path.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run the two benchmarks, print the section and write it to docs/performance.md."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=2000, help="documents for the datasketch comparison")
    ap.add_argument("--write", action="store_true",
                    help="replace the '## Detection core' section of docs/performance.md (default: print only)")
    ap.add_argument("--minhash-only", action="store_true", help="only the datasketch comparison; print, write nothing")
    args = ap.parse_args(argv)
    docs = corpus(args.docs)
    vs = bench_vs_datasketch(docs)
    if args.minhash_only:
        for r in vs:
            print(f"{r['case']}: ndd {r['ours_docs_s']:,.0f} docs/s, datasketch {r['ds_docs_s']:,.0f} docs/s, ratio {r['ratio']:.1f}x")
        return 0
    methods = bench_methods(docs[: max(200, args.docs // 2)])
    text = report(vs, methods, len(docs))
    print(text)
    if args.write:
        write_section(ROOT / "docs" / "performance.md", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
