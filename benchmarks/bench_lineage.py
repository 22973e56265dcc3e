"""Version order against the true order of document histories, through the real scan.

    python benchmarks/bench_lineage.py ../shared/eval/site_policy [--write]

The collection's documents (``<document>__vNNN.md``, NNN the true order; ``labels.csv``
maps each to its lineage) are copied to a temporary folder under random names with one
and the same modification time, so neither names nor file dates carry the answer. The copy
is scanned with the application's default method (``ScanJob``), grouped as the application
groups (``pipeline.grouping.groups_at`` at the method's default threshold), and every group
is ordered by ``pipeline.lineage.group_orders``.

How a lineage is scored: the application may split a lineage over several groups (a
rewrite no textual method links) or put two lineages in one group. Each true lineage of at
least two documents is scored in the group that holds most of its members: Kendall's tau
between the true order and the found order of those members (their relative places in
the group's order), and whether its true latest version is the last of them (a lineage
whose latest version sits in another group counts as missed). Lineages with fewer than two
members in that group get no tau; their count and the share of members scored are
printed. For comparison, each whole true lineage is also ordered on its own (no grouping).

With ``--write`` the figures replace the "## Version order" section at the end of
docs/quality.md (appended when there is none).
"""

from __future__ import annotations

import argparse
import collections
import csv
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np

from ndd_desktop.core.lineage import decide_order, version_chain
from ndd_desktop.core.methods import DEFAULT_METHOD, get_method
from ndd_desktop.core.seriation import kendall_tau
from ndd_desktop.core.shared_edits import order_groups
from ndd_desktop.pipeline import ScanConfig, ScanJob
from ndd_desktop.pipeline.grouping import groups_at
from ndd_desktop.pipeline.lineage import group_orders
from ndd_desktop.store import Root, Store

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "quality.md"
HEADING = "## Version order"


def load_truth(folder: Path) -> dict[str, tuple[str, int]]:
    """doc id -> (lineage, place in it)."""
    with open(folder / "labels.csv", newline="", encoding="utf-8") as f:
        return {r["doc_id"]: (r["cluster_id"], int(r["seq_in_lineage"])) for r in csv.DictReader(f)}


def disguise(folder: Path, dest: Path, seed: int) -> dict[str, str]:
    """Copy every document under a random name with one shared mtime; new name -> doc id."""
    import random

    rng = random.Random(seed)
    names = {}
    for src in sorted((folder / "docs").iterdir()):
        name = uuid.UUID(int=rng.getrandbits(128)).hex + src.suffix
        shutil.copyfile(src, dest / name)
        os.utime(dest / name, (1_500_000_000, 1_500_000_000))
        names[name] = src.stem
    return names


def tau(true_places: list[int]) -> float:
    """Kendall's tau between found positions (0..n-1) and the true places."""
    return kendall_tau(np.arange(len(true_places), dtype=float), np.array(true_places, dtype=float))


def score_grouped(truth, names, store, groups, orders) -> dict:
    """Per true lineage in the group holding most of its members (see the module docstring)."""
    id_of = {d.id: names[d.relpath] for d in store.documents.all()}
    lineages = collections.defaultdict(list)
    for doc, (lin, place) in truth.items():
        lineages[lin].append(place)
    where = collections.defaultdict(collections.Counter)
    for g in groups:
        for m in g.members:
            where[truth[id_of[m]][0]][g.group_id] += 1
    taus, latest, scored_members, total_members, unscored, n = [], 0, 0, 0, 0, 0
    for lin, places in lineages.items():
        if len(places) < 2:
            continue
        n += 1
        total_members += len(places)
        if not where[lin]:
            unscored += 1
            continue
        gid, _ = where[lin].most_common(1)[0]
        found = [truth[id_of[m]][1] for m in orders[gid].order if truth[id_of[m]][0] == lin]
        if len(found) < 2:
            unscored += 1
            continue
        scored_members += len(found)
        taus.append(tau(found))
        latest += found[-1] == max(places)
    return {"lineages": n, "scored": len(taus), "unscored": unscored, "mean_tau": float(np.mean(taus)),
            "median_tau": float(np.median(taus)), "latest": latest / n, "member_share": scored_members / total_members}


def score_whole(folder: Path, truth) -> dict:
    """Each whole true lineage ordered on its own, from its texts only (shuffled input)."""
    import random

    lineages = collections.defaultdict(list)
    for doc, (lin, place) in truth.items():
        lineages[lin].append((place, doc))
    chains, items = [], []
    for lin, members in sorted(lineages.items()):
        if len(members) < 2:
            continue
        random.Random(lin).shuffle(members)
        texts = [(folder / "docs" / f"{doc}.md").read_text(encoding="utf-8") for _, doc in members]
        chains.append(version_chain(texts, keep_edits=True))
        items.append(members)
    out = {"lineages": len(items)}
    # the same without the votes of edits shared across groups: what a collection of
    # unrelated histories (nothing edited together) can expect from each group's own clues
    for label, orders in (("", order_groups(chains)), ("own_", [decide_order(c) for c in chains])):
        taus = [tau([members[k][0] for k in o.order]) for members, o in zip(items, orders)]
        latest = [members[o.latest][0] == max(p for p, _ in members) for members, o in zip(items, orders)]
        out[label + "mean_tau"], out[label + "latest"] = float(np.mean(taus)), float(np.mean(latest))
    return out


def report(name: str, grouped: dict, whole: dict, groups: int, seconds: float, levels: dict) -> str:
    lines = [
        HEADING, "",
        f"Measured by `benchmarks/bench_lineage.py` on {name}: every file renamed to a random name, every "
        "modification time the same, scanned with the default method and grouped at its default threshold "
        "(the groups `ndd clusters` lists), then ordered by `ndd lineage`'s code. How the order is found: "
        "[lineage.md](lineage.md).", "",
        "| measure | value |", "|---|---|",
        f"| lineages (of 2 or more versions) | {grouped['lineages']} |",
        f"| scored in their main group | {grouped['scored']} ({grouped['member_share']:.1%} of their versions) |",
        f"| mean Kendall tau, found vs true order | **{grouped['mean_tau']:.3f}** (median {grouped['median_tau']:.3f}) |",
        f"| latest version found | **{grouped['latest']:.1%}** of lineages |",
        f"| each whole lineage ordered on its own: mean tau / latest | {whole['mean_tau']:.3f} / {whole['latest']:.1%} |",
        f"| the same without edits shared across groups (own clues only) | {whole['own_mean_tau']:.3f} / "
        f"{whole['own_latest']:.1%} |",
        f"| groups ordered, seconds | {groups} groups, {seconds:.1f} s |",
        f"| confidence levels (groups) | {', '.join(f'{k} {v}' for k, v in sorted(levels.items()))} |",
        "",
        "A lineage is scored in the group that holds most of its versions, on those versions; its latest "
        "version counts as found only when it is the last of them there (a latest version split off into "
        "another group counts as missed).", "",
        "Most revisions of site_policy carry no date and many lose text (a metadata block removed from every "
        "policy at once), so each group's own clues (length above all) often point the wrong way; the edits "
        "the policies share with the dated ones (Terms of Service, privacy statements) set the direction. "
        "A collection of unrelated histories has no such help: expect the own-clues figure where the texts "
        "carry no dates or version numbers, and better where they do.",
    ]
    return "\n".join(lines) + "\n"


def write_doc(section: str) -> None:
    """Replace the last "## Version order" section of docs/quality.md, or append one."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else "# Detection quality\n"
    at = text.rfind("\n" + HEADING + "\n")
    if at >= 0 and "\n## " not in text[at + len(HEADING) + 2:]:
        text = text[: at + 1]
    DOC.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(REPO.parent / "shared" / "eval" / "site_policy"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--write", action="store_true", help="write the figures into docs/quality.md")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "labels.csv").exists():
        print(f"bench_lineage: no labelled collection at {folder}", file=sys.stderr)
        return 2
    truth = load_truth(folder)
    method = get_method(DEFAULT_METHOD)
    params = method.params({})
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        names = disguise(folder, docs, args.seed)
        store = Store.open(Path(tmp) / "lineage.sqlite")
        try:
            start = time.perf_counter()
            ScanJob(store, ScanConfig(roots=[Root(str(docs))], method=method.name)).run()
            scan_s = time.perf_counter() - start
            threshold = method.threshold_for(params)
            groups = groups_at(store, method.name, method.pairs_key(params), threshold).groups
            start = time.perf_counter()
            orders = group_orders(store, groups)
            seconds = time.perf_counter() - start
            grouped = score_grouped(truth, names, store, groups, orders)
        finally:
            store.close()
    whole = score_whole(folder, truth)
    levels = collections.Counter(o.level for o in orders.values())
    print(f"scan {scan_s:.1f} s; {len(groups)} groups at {method.name} {threshold:g}; lineage {seconds:.2f} s")
    print(f"grouped: {grouped}")
    print(f"whole lineages: {whole}")
    print(f"levels: {dict(levels)}")
    section = report(folder.name, grouped, whole, len(groups), seconds, levels)
    print(section)
    if args.write:
        write_doc(section)
        print(f"written to {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
