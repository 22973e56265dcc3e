"""The group view on a large group: the first screen and the members computed behind it.

    python benchmarks/bench_group_view.py [--members 500] [--kb 100]

Builds a collection file directly (no scan): one group of ``--members`` versions of a text of
``--kb`` KB, each a copy of one base text with a few edits of its own (a changed word, a
dropped and an added paragraph), and a pair set linking every member to the first. Then it
times what the window does when the group view opens (``pipeline.group_view``: the
member list with stored scores, the reference's words, the first member's differences:
the target is at most 1 s) and what the worker does behind it (every other member), with
the same objects the window uses, no Qt.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road church mill "
         "farm court clerk deed lease survey map plan rent wage fund loan grant ledger quay cargo ferry "
         "tariff manifest warden parish vestry tithe glebe beadle sexton curate").split()


def versions(n: int, kb: int, seed: int = 1) -> list[str]:
    """n versions of one text of about kb KB, each with a few edits of its own."""
    rng = random.Random(seed)
    paras = []
    size = 0
    while size < kb * 1024:
        p = " ".join(rng.choice(WORDS) + str(rng.randrange(100)) for _ in range(rng.randint(40, 90))) + "."
        paras.append(p)
        size += len(p) + 2
    out = []
    for k in range(n):
        v = list(paras)
        if k:
            for _ in range(3):
                i = rng.randrange(len(v))
                words = v[i].split()
                words[rng.randrange(len(words))] = f"edit{k}"
                v[i] = " ".join(words)
            del v[rng.randrange(len(v))]
            v.insert(rng.randrange(len(v)), f"A paragraph only version {k} has, about the new quay {k}.")
        out.append("\n\n".join(v))
    return out


def build(path: str, texts: list[str]) -> list[int]:
    """A collection file holding ``texts`` as one group (every member paired with the first)."""
    from ndd_desktop.store import DocWrite, Root, Store

    store = Store.open(path, create=True)
    root = "/bench/group"
    store.documents.set_roots([Root(root)])
    writes = [DocWrite(root=root, file_relpath=f"v{k:04d}.txt", file_size=len(t), file_mtime_ns=0,
                       file_xxh128=f"{k:032x}", relpath=f"v{k:04d}.txt", container=None, size=len(t),
                       mtime_ns=0, date=None, format="txt", xxh128=f"{k:032x}", sha256="",
                       text_length=len(t), status="ok", reason="", text=t)
              for k, t in enumerate(texts)]
    ids: list[int] = []
    for start in range(0, len(writes), 100):
        ids.extend(store.scans.write_documents(writes[start:start + 100], "qgram", "bench"))
    a = np.full(len(ids) - 1, ids[0], dtype=np.int64)
    b = np.array(ids[1:], dtype=np.int64)
    score = np.full(b.size, 0.97)
    nan = np.full(b.size, np.nan)
    store.pairs.replace("qgram", "bench", "bench", {}, 0.3, "bench",
                        {"a": a, "b": b, "score": score, "cont_ab": nan, "cont_ba": nan, "hamming": nan})
    store.close()
    return ids


def main(argv=None) -> int:
    """Build the group, time the first screen and the whole background computation."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--members", type=int, default=500)
    ap.add_argument("--kb", type=int, default=100)
    args = ap.parse_args(argv)
    from ndd_desktop.pipeline.group_view import GroupView
    from ndd_desktop.pipeline.grouping import groups_at
    from ndd_desktop.pipeline.pair_lookup import PairLookup
    from ndd_desktop.store import Store

    texts = versions(args.members, args.kb)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "group.ndd")
        t0 = time.perf_counter()
        build(path, texts)
        print(f"built {args.members} members of {sum(map(len, texts)) / len(texts) / 1024:.0f} KB "
              f"in {time.perf_counter() - t0:.1f} s")
        store = Store.open(path)
        arrays = store.pairs.arrays("qgram", "bench")
        group = groups_at(store, "qgram", "bench", 0.5, arrays=arrays).groups[0]
        t0 = time.perf_counter()
        lookup = PairLookup(arrays.a, arrays.b, arrays.score)
        view = GroupView.of_group(store.documents, group, score=lambda a, b: lookup.get((a, b)))
        rows = [(view.docs[m].relpath, view.score(m), view.docs[m].size) for m in view.others()]
        store.documents.text(view.reference)  # what the window shows at once
        gui_thread = time.perf_counter() - t0
        view.reference_words()
        first = view.diff(view.others()[0])
        first_screen = time.perf_counter() - t0
        t1 = time.perf_counter()
        changes = sum(len(d.changes) for d in view.diffs())
        rest = time.perf_counter() - t1
        partial = sum(1 for m in view.others() if not view.computed(m).complete)
        store.close()
    print(f"GUI thread (member list of {len(rows)} with scores, the reference's text): {gui_thread:.3f} s")
    print(f"first screen (that, and the first member's differences, {len(first.changes)} changes): "
          f"{first_screen:.3f} s (target <= 1 s)")
    print(f"every other member in the background: {rest:.1f} s, {rest / max(len(rows), 1) * 1000:.0f} ms a member, "
          f"{changes} changes, {partial} partial")
    return 0 if first_screen <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
