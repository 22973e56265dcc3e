"""``ndd lineage``: the order in which the versions of each group were written.

One entry per group (JSON) or one row per document (CSV): the members oldest first, the
latest version and how sure the order is. The groups are the ones ``ndd clusters`` lists at
the same threshold and grouping. See docs/cli.md and docs/lineage.md.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import EXIT_OK, UsageError

LINEAGE_COLUMNS = ["group", "place", "path", "root", "latest", "confidence", "level", "id"]


def add_parser(sub, add_db, add_selection) -> None:
    """Register ``lineage`` on the subcommand parsers ``sub``."""
    p = sub.add_parser(
        "lineage", help="order the versions of each group, oldest first",
        description="For every group, the order in which its members were written (from the texts: the chain of "
                    "smallest edits, dates and version numbers inside them; file dates and names count when they "
                    "agree), the latest version and how sure the order is. The groups are those of 'ndd clusters'.")
    add_db(p)
    add_selection(p)
    p.add_argument("--grouping", choices=("components", "principal"), default=None,
                   help="how groups are formed, as for 'ndd clusters' (default: the one saved with the collection, "
                        "else components)")
    p.add_argument("--group", type=int, action="append", default=[], metavar="N",
                   help="only this group (its number in 'ndd clusters'; repeatable)")
    p.add_argument("--format", choices=("csv", "json"), default="json")


def cmd_lineage(args: argparse.Namespace) -> int:
    """``ndd lineage``: the version order of each group (or of the groups named by --group)."""
    from ..app.analyses import version_orders
    from ..pipeline.group_rules import KEEPER_RULES
    from .opening import open_store
    from .selection import grouping_options, open_session
    from .output import ProgressBar, clean

    args.keeper_rule = None  # the keeper plays no part in the order
    with open_store(args.db) as store:
        _, grouping_mode, _ = grouping_options(store, args)
        session = open_session(store, args, grouping=False)
        session.use_grouping(KEEPER_RULES[0], grouping_mode)
        threshold = session.threshold
        grouping = session.groups()
        groups = grouping.groups
        if args.group:
            known = {g.group_id for g in groups}
            unknown = [n for n in args.group if n not in known]
            if unknown:
                span = f"groups are numbered 1 to {len(groups)}" if groups else "there are no groups"
                raise UsageError(f"no group {unknown[0]} at threshold {threshold:g} ({span})")
            groups = [g for g in groups if g.group_id in set(args.group)]
        bar = ProgressBar() if sys.stderr.isatty() else None
        try:
            orders = version_orders(store, grouping, progress=bar)  # every group, see there
        finally:
            if bar:
                bar.close()
        docs = {d.id: d for d in store.documents.all([m for g in groups for m in g.members], status=None)}
    entries = []
    for g in groups:
        o = orders[g.group_id]
        entries.append({
            "group": g.group_id,
            "order": [docs[m].relpath for m in o.order],
            "latest": docs[o.latest].relpath,
            "confidence": round(o.confidence, 3),
            "level": o.level,
            "members": [{"place": k, "path": docs[m].relpath, "root": docs[m].root, "id": m}
                        for k, m in enumerate(o.order, start=1)],
            "evidence": {k: round(v, 3) for k, v in sorted(o.votes.items())},
        })
    if args.format == "json":
        json.dump(_clean(entries, clean), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    from .output import write_rows

    rows = [{"group": e["group"], "place": m["place"], "path": m["path"], "root": m["root"],
             "latest": "yes" if m["place"] == len(e["order"]) else "", "confidence": e["confidence"],
             "level": e["level"], "id": m["id"]}
            for e in entries for m in e["members"]]
    write_rows(rows, "csv", sys.stdout, LINEAGE_COLUMNS)
    return EXIT_OK


def _clean(value, clean):
    if isinstance(value, dict):
        return {k: _clean(v, clean) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, clean) for v in value]
    return clean(value)
