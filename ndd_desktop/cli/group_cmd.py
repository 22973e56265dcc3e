"""``ndd group``: one group against its reference document, as JSON or a page of HTML.

The same view as the window's group view: the reference (the group's keeper, or the
member named by --reference) and, for every other member, its path, size, date, stored
score to the reference, the share of each found in the other and only the passages where
it differs (removed, added, changed) with their places. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import html
import json
import sys

from . import EXIT_OK, UsageError


def add_parser(sub, add_db, add_selection) -> None:
    """Register ``group`` on the subcommand parsers ``sub``."""
    p = sub.add_parser(
        "group", help="one group: each member's differences to the reference document",
        description="The group numbered N in 'ndd clusters' (same threshold and grouping): the reference document "
                    "(the group's keeper unless --reference names another member) and, for every other member, "
                    "the passages where it differs from the reference, with their places.")
    add_db(p)
    add_selection(p)
    p.add_argument("--id", type=int, required=True, metavar="N", help="the group's number in 'ndd clusters'")
    p.add_argument("--reference", metavar="PATH", help="compare with this member instead of the keeper")
    p.add_argument("--grouping", choices=("components", "principal"), default=None,
                   help="how groups are formed, as for 'ndd clusters'")
    p.add_argument("--keeper-rule", default=None, metavar="RULE", help="as for 'ndd clusters'")
    p.add_argument("--priority", action="append", default=[], metavar="FOLDER", help="as for 'ndd clusters'")
    p.add_argument("--format", choices=("json", "html"), default="json")
    p.set_defaults(run=cmd_group)


def cmd_group(args: argparse.Namespace) -> int:
    """``ndd group``: write the group view of group ``--id``."""
    from ..app.group_review import group_view
    from ..pipeline.passages import NotInCollection, find_document
    from .opening import open_store
    from .selection import open_session

    with open_store(args.db) as store:
        session = open_session(store, args)
        method, threshold = session.selection.method, session.threshold
        session.pair_arrays()  # read once: for the groups and the members' scores
        grouping = session.groups()
        group = next((g for g in grouping.groups if g.group_id == args.id), None)
        if group is None:
            n = len(grouping.groups)
            span = f"groups are numbered 1 to {n}" if n else "there are no groups"
            raise UsageError(f"no group {args.id} at threshold {threshold:g} ({span})")
        reference = group.keeper
        if args.reference:
            try:
                doc = find_document(store.documents, args.reference)
            except NotInCollection as exc:
                raise UsageError(str(exc)) from None
            if doc.id not in group.members:
                raise UsageError(f"{args.reference} is not a member of group {args.id}")
            reference = doc.id
        data = group_view(session, group, reference).to_dict()
    from .compare_cmd import printable
    from .output import iso_utc

    for d in [data["reference"], *data["members"]]:  # dates as 'ndd clusters' writes them
        d["date"], d["modified"] = iso_utc(d["date"]), iso_utc(d["modified"])
        if d["text_missing"]:
            sys.stderr.write(f"ndd: note: {d['path']} has no text: {d['text_missing']}; "
                             "its shares and changes are not its own\n")
    data = printable(data)
    data["threshold"] = threshold
    data["method"] = method.name
    if args.format == "json":
        json.dump(data, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_html(data))
    return EXIT_OK


_STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:70em}
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;vertical-align:top}
.removed{background:#fbd5d2}.added{background:#cdeed3}.changed{background:#fff2c2}
.member{border-top:1px solid #ccc;margin-top:1em;padding-top:.5em}.muted{color:#666}"""


def render_html(data: dict) -> str:
    """The group view as one self-contained HTML page."""
    e = html.escape
    ref = data["reference"]
    parts = [f"<!doctype html><meta charset='utf-8'><title>Group {data['group']}</title><style>{_STYLE}</style>",
             f"<h1>Group {data['group']}</h1>",
             f"<p>Reference: <b>{e(ref['path'])}</b> <span class='muted'>({e(ref['root'])}, "
             f"{ref['size']:,} bytes)</span></p>",
             f"<p class='muted'>{len(data['members'])} other member{'' if len(data['members']) == 1 else 's'}; "
             f"method {e(data['method'])}, "
             f"threshold {data['threshold']:g}</p>"]
    for m in data["members"]:
        score = "–" if m["score"] is None else f"{m['score']:.2f}"
        state = "identical text" if m["identical"] else f"{len(m['changes'])} differing passages"
        missing = m["text_missing"] or ref["text_missing"]
        if missing:
            who = "it" if m["text_missing"] else "the reference"
            state = f"not compared: {who} has no text ({e(missing)})"
        elif not m["complete"]:
            state += " (partial: too large to compare in full in the time allowed)"
        parts.append(f"<div class='member'><h2>{e(m['path'])}</h2><p class='muted'>score {score} · "
                     f"{m['size']:,} bytes · {m['share_member_in_reference']:.0%} of it in the reference, "
                     f"{m['share_reference_in_member']:.0%} of the reference in it · {state}</p>")
        if m["changes"]:
            parts.append("<table><tr><th>what</th><th>reference</th><th>member</th></tr>")
            for c in m["changes"]:
                parts.append(f"<tr class='{c['kind']}'><td>{c['kind']}</td>"
                             f"<td><span class='muted'>{e(c['reference_place'])}</span><br>{e(c['reference_text'])}</td>"
                             f"<td><span class='muted'>{e(c['member_place'])}</span><br>{e(c['member_text'])}</td></tr>")
            parts.append("</table>")
        parts.append("</div>")
    return "\n".join(parts) + "\n"
