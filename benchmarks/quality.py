"""Detection quality of every method on labelled collections, through the real scan job.

    python benchmarks/quality.py ../shared/eval/clough_stevenson ../shared/eval/site_policy
    python benchmarks/quality.py --noise ../shared/eval/site_policy   # typo robustness too

Each collection is scanned into a temporary store with every method at its defaults plus a
small grid (the same ScanJob a user runs; extraction happens once per collection, later
methods reuse it), then scored as ../shared/eval/README.md says: pairwise on the stored
pairs, group-wise on the groups the application forms (pipeline.grouping.groups_at), at
the method's default threshold and at the best threshold. The results are printed; with
--write they replace the block between the RESULTS markers of docs/quality.md, and plots
of F1 against the threshold go to docs/quality/.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_protocol import LabelledCollection, load_collection, score_groups, score_pairs  # noqa: E402

from ndd_desktop.core.methods import get_method  # noqa: E402
from ndd_desktop.pipeline import ScanConfig, ScanJob  # noqa: E402
from ndd_desktop.pipeline.grouping import groups_at  # noqa: E402
from ndd_desktop.store import Root, Store  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "quality.md"
PLOTS = REPO / "docs" / "quality"
#: None: every configuration is scanned at the floor a user gets (pipeline.config.default_floor);
#: the grid below starts at the lowest floor any configuration uses.
FLOOR = None
THRESHOLDS = np.round(np.arange(0.2, 1.0001, 0.05), 2)

#: (label, method, parameter overrides): each method's defaults first, then the grid.
CONFIGS: list[tuple[str, str, dict]] = [
    ("exact", "exact", {}),
    ("qgram", "qgram", {}),
    ("qgram containment", "qgram", {"measure": "containment"}),
    ("bottomk", "bottomk", {}),
    ("bottomk containment", "bottomk", {"measure": "containment"}),
    ("fingerprint", "fingerprint", {}),
    ("hybrid", "hybrid", {}),
    ("hybrid containment", "hybrid", {"measure": "containment"}),
    ("minhash", "minhash", {}),
    ("minhash containment", "minhash", {"measure": "containment"}),
]


@dataclass
class Result:
    """Scores of one configuration on one collection."""

    collection: str
    label: str
    default_threshold: float
    pairwise_default: float
    pairwise_best: tuple[float, float]  # (F1, threshold)
    groups_default: float
    groups_best: tuple[float, float]
    groups_principal: float  # group-wise F1 at the default threshold, groups around the longest document
    recall_default: float
    precision_default: float
    groups_precision: float
    groups_recall: float
    seconds: float
    curve_pairs: list[float]
    curve_groups: list[float]


def doc_id(relpath: str) -> str:
    """The labelled id of a document: its file name without the extension."""
    return Path(relpath).stem


def evaluate(collection: LabelledCollection, store: Store, label: str, method: str,
             overrides: dict, seconds: float) -> Result:
    """Score the pair set a scan of (method, overrides) stored."""
    m = get_method(method)
    params = m.params(overrides)
    key = m.pairs_key(params)
    names = {d.id: doc_id(d.relpath) for d in store.documents.all()}
    pa = store.pairs.arrays(method, key)
    a = [names.get(int(x)) for x in pa.a]
    b = [names.get(int(x)) for x in pa.b]
    curve_pairs, curve_groups = [], []
    default = m.threshold_for(params)
    for th in list(THRESHOLDS) + [default]:
        keep = np.flatnonzero(pa.score >= th - 1e-12)
        pw = score_pairs(collection, ((a[k], b[k]) for k in keep))
        grouping = groups_at(store, method, key, float(th))
        gw = score_groups(collection, [[names[x] for x in g.members] for g in grouping.groups])
        curve_pairs.append(pw)
        curve_groups.append(gw)
    pw_default, gw_default = curve_pairs.pop(), curve_groups.pop()
    around_longest = groups_at(store, method, key, float(default), grouping="principal")
    gp = score_groups(collection, [[names[x] for x in g.members] for g in around_longest.groups])
    best_p = max(zip((s.f1 for s in curve_pairs), THRESHOLDS))
    best_g = max(zip((s.f1 for s in curve_groups), THRESHOLDS))
    return Result(collection.name, label, default, pw_default.f1, (best_p[0], float(best_p[1])),
                  gw_default.f1, (best_g[0], float(best_g[1])), gp.f1, pw_default.recall,
                  pw_default.precision, gw_default.precision, gw_default.recall, seconds,
                  [s.f1 for s in curve_pairs], [s.f1 for s in curve_groups])


def run_collection(folder: Path, configs: list[tuple[str, str, dict]], name: str | None = None) -> list[Result]:
    """Scan one collection with every configuration and score each."""
    collection = load_collection(folder)
    if name:
        collection.name = name
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "quality.sqlite")
        try:
            for label, method, overrides in configs:
                config = ScanConfig(roots=[Root(str(collection.docs_dir))], method=method,
                                    params=overrides, floor=FLOOR)
                start = time.perf_counter()
                ScanJob(store, config).run()
                seconds = time.perf_counter() - start
                res = evaluate(collection, store, label, method, overrides, seconds)
                print(f"{collection.name:22s} {label:22s} pairs F1 {res.pairwise_default:.3f} "
                      f"(best {res.pairwise_best[0]:.3f} @ {res.pairwise_best[1]:.2f})  groups F1 "
                      f"{res.groups_default:.3f} (best {res.groups_best[0]:.3f} @ {res.groups_best[1]:.2f})  "
                      f"{seconds:.1f} s", flush=True)
                results.append(res)
        finally:
            store.close()
    return results


# -- typo and OCR noise ----------------------------------------------------------------------
def add_typos(text: str, rate: float, rng: random.Random) -> str:
    """Drop, swap or double one letter in a share ``rate`` of the words of ``text``."""
    def damage(match: re.Match) -> str:
        word = match.group(0)
        if len(word) < 3 or rng.random() >= rate:
            return word
        k = rng.randrange(len(word) - 1)
        kind = rng.randrange(3)
        if kind == 0:
            return word[:k] + word[k + 1:]
        if kind == 1:
            return word[:k] + word[k + 1] + word[k] + word[k + 2:]
        return word[:k] + word[k] + word[k:]

    return re.sub(r"[A-Za-z]+", damage, text)


def noisy_copy(folder: Path, dest: Path, rate: float, seed: int = 7) -> Path:
    """A copy of a labelled collection whose every document has typos at ``rate``."""
    rng = random.Random(seed)
    shutil.copytree(folder, dest, ignore=shutil.ignore_patterns("docs"))
    (dest / "docs").mkdir()
    for path in sorted((folder / "docs").iterdir()):
        text = path.read_text(encoding="utf-8")
        (dest / "docs" / path.name).write_text(add_typos(text, rate, rng), encoding="utf-8")
    return dest


NOISE_CONFIGS = [
    ("hybrid", "hybrid", {}),
    ("word shingles, no correction", "hybrid", {"jaro_threshold": 1.0}),
    ("minhash", "minhash", {}),
    ("qgram", "qgram", {}),
]


# -- reporting ----------------------------------------------------------------------------
def table(results: list[Result]) -> str:
    """A markdown table of the results."""
    lines = [
        "| collection | method | default threshold | pairwise F1 (default) | pairwise P / R (default) "
        "| pairwise F1 (best @ t) | group-wise F1 (default) | group-wise P / R (default) "
        "| group-wise F1 (best @ t) | group-wise F1, groups around the longest (default) | seconds |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.collection} | {r.label} | {r.default_threshold:.2f} | {r.pairwise_default:.3f} | "
            f"{r.precision_default:.3f} / {r.recall_default:.3f} | "
            f"{r.pairwise_best[0]:.3f} @ {r.pairwise_best[1]:.2f} | {r.groups_default:.3f} | "
            f"{r.groups_precision:.3f} / {r.groups_recall:.3f} | "
            f"{r.groups_best[0]:.3f} @ {r.groups_best[1]:.2f} | {r.groups_principal:.3f} | {r.seconds:.1f} |"
        )
    return "\n".join(lines)


def plot(results: list[Result], collection: str) -> Path:
    """F1 against the threshold, one line per configuration, pairwise and group-wise."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    PLOTS.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for r in (r for r in results if r.collection == collection):
        axes[0].plot(THRESHOLDS, r.curve_pairs, label=r.label)
        axes[1].plot(THRESHOLDS, r.curve_groups, label=r.label)
    for ax, title in zip(axes, ("pairwise", "group-wise")):
        ax.set_title(f"{collection}: {title} F1")
        ax.set_xlabel("threshold")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("F1")
    axes[1].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    out = PLOTS / f"f1_{collection}.png"
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def write_doc(block: str) -> None:
    """Replace the generated block of docs/quality.md."""
    begin, end = "<!-- BEGIN RESULTS (benchmarks/quality.py) -->", "<!-- END RESULTS -->"
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else f"# Detection quality\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    DOC.write_text(f"{head}{begin}\n{block}\n{end}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; with --write, put its tables and plots into docs/quality.md."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collections", nargs="+", type=Path)
    parser.add_argument("--noise", action="store_true", help="also measure typo robustness")
    parser.add_argument("--methods", help="comma-separated labels to run (default: all)")
    parser.add_argument("--write", action="store_true",
                        help="write the results into docs/quality.md and its plots (default: print only)")
    args = parser.parse_args(argv)
    missing = [str(f) for f in args.collections if not (f / "labels.csv").is_file()]
    if missing:
        parser.error("no labelled collection (a folder with labels.csv and docs/) at: " + ", ".join(missing)
                     + "; the labelled collections are not part of the repository (see benchmarks/README.md)")
    configs = CONFIGS
    if args.methods:
        wanted = set(args.methods.split(","))
        configs = [c for c in CONFIGS if c[0] in wanted]
    results: list[Result] = []
    for folder in args.collections:
        results += run_collection(folder, configs)
    blocks = [table(results)]
    for name in dict.fromkeys(r.collection for r in results):
        if args.write:  # the plots belong to docs/quality.md: written with it or not at all
            out = plot(results, name)
            blocks.append(f"\n![F1 against threshold on {name}](quality/{out.name})")
    if args.noise:
        noise_results: list[Result] = []
        with tempfile.TemporaryDirectory() as tmp:
            for folder in args.collections:
                for rate in (0.02, 0.05, 0.10):
                    dest = noisy_copy(folder, Path(tmp) / f"{folder.name}-{rate}", rate)
                    noise_results += run_collection(dest, NOISE_CONFIGS, f"{folder.name} +{rate:.0%} typos")
        blocks.append("\n### With generated typos (letters dropped, swapped or doubled)\n")
        blocks.append(table(noise_results))
    block = "\n".join(blocks)
    print(block)
    if args.write:
        write_doc(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
