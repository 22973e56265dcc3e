"""The listing subcommands of ``ndd`` (pairs, clusters, errors, methods) and the dispatch to
every subcommand; each takes the parsed arguments and returns an exit status."""

from __future__ import annotations

import argparse
import sys

from ..core.methods import DEFAULT_METHOD, get_method, method_names
from ..core.params import describe_params
from ..ingest.reasons import PARTIAL
from . import EXIT_OK
from .export_cmd import cmd_export
from .opening import open_store
from .output import clean, iso_utc, write_rows, write_table
from .scan_cmd import cmd_scan
from .selection import _check_keeper_rule, note_unsure_latest, open_session
from .tally import write_groups

PAIR_COLUMNS = ["a", "b", "score", "containment_ab", "containment_ba", "estimate", "hamming", "verdict",
                "a_root", "b_root", "a_id", "b_id", "pair_id"]
CLUSTER_COLUMNS = ["group", "path", "root", "role", "keeper", "score", "score_to_keeper", "duplicate_of",
                   "duplicate_score", "id", "size", "date"]
#: The columns of ``--format table``: what a reader needs, so they fit a terminal.
TABLE_PAIR_COLUMNS = ["a", "b", "score", "containment_ab", "containment_ba", "verdict"]
TABLE_CLUSTER_COLUMNS = ["group", "path", "role", "keeper", "score", "duplicate_of", "size", "date"]
PAGE = 20_000  # pairs fetched at a time by `ndd pairs` (one query, streamed)
ERROR_COLUMNS = ["path", "root", "status", "reason", "format", "size", "id"]


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    if args.command in ("check", "repair", "decisions"):
        from . import maintenance

        return getattr(maintenance, f"cmd_{args.command}")(args)
    return COMMANDS[args.command](args)


# -- pairs, clusters, errors ----------------------------------------------------------------
def cmd_pairs(args: argparse.Namespace) -> int:
    """``ndd pairs``: one row per pair at or above the threshold, best first."""
    with open_store(args.db) as store:
        session = open_session(store, args, grouping=False)
        rows = _pair_rows(session)
        if args.format == "table":
            write_table(rows, sys.stdout, TABLE_PAIR_COLUMNS, numeric=("score", "containment_ab", "containment_ba"),
                        title=f"pairs at {session.threshold:g} or more [{session.method}]")
        else:
            write_rows(rows, args.format, sys.stdout, PAIR_COLUMNS)
    return EXIT_OK


def _pair_rows(session):
    """Pairs as output rows, streamed from the store so memory stays flat."""
    for p in session.iter_pairs(batch=PAGE):
        yield {
            "a": p.a.relpath, "b": p.b.relpath, "score": round(p.score, 6),
            "containment_ab": _rounded(p.cont_ab), "containment_ba": _rounded(p.cont_ba),
            "estimate": None if p.estimate != p.estimate else round(p.estimate, 6),
            "hamming": None if p.hamming is None or p.hamming != p.hamming else int(p.hamming),
            "verdict": p.verdict, "a_root": p.a.root, "b_root": p.b.root,
            "a_id": p.a.id, "b_id": p.b.id, "pair_id": p.pair_id,
        }


def cmd_clusters(args: argparse.Namespace) -> int:
    """``ndd clusters``: one row per document of each group, keeper marked."""
    _check_keeper_rule(args)
    with open_store(args.db) as store:
        session = open_session(store, args)
        grouping = session.groups()
        method, threshold = session.method, session.threshold
        docs = {d.id: d for d in store.documents.all([m for g in grouping.groups for m in g.members])}
        note_unsure_latest(store, session)
    if args.format == "json":
        out = [
            {
                "group": g.group_id, "principal": docs[g.principal].relpath, "keeper": docs[g.keeper].relpath,
                "keepers": [docs[k].relpath for k in g.keepers],
                "members": [
                    {"path": docs[m].relpath, "root": docs[m].root, "id": m, "score": _rounded(g.scores[m]),
                     "direct": g.linked(m), "keeper": m in g.keepers, "size": docs[m].size,
                     "score_to_keeper": _rounded(g.to_keeper.get(m)),
                     "duplicate_of": docs[g.covered_by[m][0]].relpath if m in g.covered_by else None,
                     "duplicate_score": _rounded(g.covered_by[m][1]) if m in g.covered_by else None,
                     "date": iso_utc(docs[m].date)}
                    for m in g.members
                ],
            }
            for g in grouping.groups
        ]
        import json

        json.dump(_clean_tree(out), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    rows = []
    for g in grouping.groups:
        for m in g.members:
            d = docs[m]
            rows.append({
                "group": g.group_id, "path": d.relpath, "root": d.root,
                "role": _role(g, m), "keeper": _keeper_mark(g, m),
                "score": _rounded(g.scores[m]), "score_to_keeper": _rounded(g.to_keeper.get(m)),
                "duplicate_of": docs[g.covered_by[m][0]].relpath if m in g.covered_by else "",
                "duplicate_score": _rounded(g.covered_by[m][1]) if m in g.covered_by else None, "id": m, "size": d.size, "date": iso_utc(d.date),
            })
    if args.format == "table":
        write_table(rows, sys.stdout, TABLE_CLUSTER_COLUMNS, numeric=("group", "score", "size"),
                    title=f"{len(grouping.groups)} groups at {threshold:g} or more [{method}]")
    else:
        write_rows(rows, "csv", sys.stdout, CLUSTER_COLUMNS)
    return EXIT_OK


def _keeper_mark(group, member: int) -> str:
    """yes: the group's keeper; extra: kept too, because nothing kept duplicates it."""
    if member == group.keeper:
        return "yes"
    return "extra" if member in group.keepers else ""


def _role(group, member: int) -> str:
    """principal, member (similar to the principal) or chained (linked through other members)."""
    if member == group.principal:
        return "principal"
    return "member" if group.linked(member) else "chained"


def _rounded(score: float | None) -> float | None:
    return None if score is None else round(score, 6)


def _clean_tree(value):
    if isinstance(value, dict):
        return {k: _clean_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_tree(v) for v in value]
    return clean(value)


def cmd_errors(args: argparse.Namespace) -> int:
    """``ndd errors``: the files skipped or failed, counted by reason; with ``--all`` or
    ``--format`` every file with its reason."""
    if not args.all and args.format is None:
        with open_store(args.db) as store:
            docs = store.documents.errors(in_part=True)
        total = write_groups(((d.status, d.reason, d.relpath) for d in docs), sys.stdout)
        partial = sum(1 for d in docs if d.status == PARTIAL)
        failed = total - partial
        line = f"{failed:,} file{'' if failed == 1 else 's'} skipped or failed"
        if partial:
            line += f", {partial:,} read only in part (the rest of their content was not compared)"
        sys.stdout.write(line + (" (every file: --all)\n" if total else "\n"))
        return EXIT_OK
    with open_store(args.db) as store:
        rows = [
            {"path": d.relpath, "root": d.root, "status": d.status, "reason": d.reason, "format": d.format,
             "size": d.size, "id": d.id}
            for d in store.documents.errors(in_part=True)
        ]
    write_rows(rows, args.format or "csv", sys.stdout, ERROR_COLUMNS)
    return EXIT_OK


# -- methods, export ------------------------------------------------------------------------
def cmd_methods(args: argparse.Namespace) -> int:
    """``ndd methods``: each method, its description and parameters with defaults and ranges."""
    from ..core.text_share import DEFAULT_CONTAINED_SHARE

    methods = []
    for name in method_names():
        try:
            methods.append(get_method(name))
        except ImportError as exc:  # a method whose dependencies are missing is listed as such
            sys.stderr.write(f"ndd: note: method {name} is unavailable ({exc})\n")
    if args.format == "json":
        import json

        out = [
            {
                "name": m.name, "description": m.description, "default": m.name == DEFAULT_METHOD,
                "default_threshold": m.threshold_for(m.params()),
                "default_containment_threshold": DEFAULT_CONTAINED_SHARE,
                "search_designed_for": m.default_threshold,
                "parameters": [
                    {"name": i.name, "type": i.type.__name__, "default": i.default, "minimum": i.minimum,
                     "maximum": i.maximum, "choices": list(i.choices) if i.choices else None,
                     "multiple": i.multiple, "help": i.help, "affects_sketch": i.affects_sketch}
                    for i in describe_params(m.Params)
                ],
            }
            for m in methods
        ]
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return EXIT_OK
    for m in methods:
        mark = " (default)" if m.name == DEFAULT_METHOD else ""
        sys.stdout.write(f"{m.name}{mark}: {m.description}\n  default threshold {m.threshold_for(m.params()):g} "
                         "(share of text in common)")
        if any(i.name == "measure" for i in describe_params(m.Params)):
            sys.stdout.write(f" (with measure=containment: {DEFAULT_CONTAINED_SHARE:g})")
        sys.stdout.write("\n")
        for i in describe_params(m.Params):
            if i.choices and i.multiple:
                rng = "any of " + ", ".join(str(c) for c in i.choices) + ", comma-separated"
            elif i.choices:
                rng = "one of " + ", ".join(str(c) for c in i.choices)
            elif i.minimum is not None or i.maximum is not None:
                rng = f"{'' if i.minimum is None else i.minimum}..{'' if i.maximum is None else i.maximum}"
            else:
                rng = i.type.__name__
            sys.stdout.write(f"  --set {i.name}={i.default}  [{rng}]  {i.help}\n")
        sys.stdout.write("\n")
    return EXIT_OK



COMMANDS = {
    "scan": cmd_scan,
    "pairs": cmd_pairs,
    "clusters": cmd_clusters,
    "errors": cmd_errors,
    "methods": cmd_methods,
    "export": cmd_export,
}
