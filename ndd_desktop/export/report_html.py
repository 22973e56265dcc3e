"""The HTML report: one self-contained file (inline CSS, no script, no outside resource).

It shows the summary, the closest pairs side by side with the differing passages marked,
and every group with its keeper and duplicates. Every piece of text that comes from the
collection (file names, document text, reviewer names) goes through ``html.escape``.
"""

from __future__ import annotations

import difflib
import html
import os
import re
from dataclasses import dataclass

from .report_data import ReportContext

REPORT_HTML = "report.html"
#: Words of each document compared in the side-by-side view (keeps difflib fast).
MAX_WORDS = 3000

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;
text-align:left;vertical-align:top}th{background:#f3f3f3}
.num{text-align:right;font-variant-numeric:tabular-nums}.path{word-break:break-all}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em;margin-bottom:2em}
.side{border:1px solid #ccc;padding:.5em;white-space:pre-wrap;word-wrap:break-word;
max-height:30em;overflow:auto;font-family:ui-monospace,monospace;font-size:12px}
mark.del{background:#fbd3d3}mark.ins{background:#cdf0cd}
.keeper{font-weight:bold}.duplicate{color:#777}.failed{color:#a00}
details{margin:.3em 0}summary{cursor:pointer}
"""


def e(value) -> str:
    """Escape anything for HTML text or a quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)


def fmt(value) -> str:
    """A score or containment with three decimals, or a dash."""
    return "&ndash;" if value is None else f"{float(value):.3f}"


@dataclass(frozen=True)
class PairView:
    """One of the closest pairs, with the texts to show side by side."""

    a: int
    b: int
    score: float
    cont_ab: float | None
    cont_ba: float | None
    verdict: str
    text_a: str | None
    text_b: str | None


def closest_pairs(store, ctx: ReportContext, limit: int) -> list[PairView]:
    """The ``limit`` highest-scoring pairs at or above the threshold, with their texts."""
    o = ctx.plan.options
    if limit <= 0:
        return []
    views = []
    for p in store.pairs(o.method, o.pairs_key, o.threshold, order="score", descending=True, limit=limit):
        views.append(PairView(
            p.a.id, p.b.id, float(p.score), _num(p.cont_ab), _num(p.cont_ba), p.verdict or "",
            store.document_text(p.a.id), store.document_text(p.b.id)))
    return views


def _num(x) -> float | None:
    return None if x is None or x != x else float(x)


def side_by_side(text_a: str | None, text_b: str | None) -> tuple[str, str]:
    """Both texts as escaped HTML, words found only on one side marked."""
    if text_a is None or text_b is None:
        return (_plain(text_a), _plain(text_b))
    pa = re.findall(r"\S+\s*", text_a)[:MAX_WORDS]
    pb = re.findall(r"\S+\s*", text_b)[:MAX_WORDS]
    matcher = difflib.SequenceMatcher(None, [p.strip() for p in pa], [p.strip() for p in pb], autojunk=False)
    out_a, out_b = [], []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        chunk_a, chunk_b = e("".join(pa[i1:i2])), e("".join(pb[j1:j2]))
        if op == "equal":
            out_a.append(chunk_a)
            out_b.append(chunk_b)
            continue
        if chunk_a:
            out_a.append(f'<mark class="del">{chunk_a}</mark>')
        if chunk_b:
            out_b.append(f'<mark class="ins">{chunk_b}</mark>')
    more_a = " &hellip;" if len(pa) == MAX_WORDS else ""
    more_b = " &hellip;" if len(pb) == MAX_WORDS else ""
    return "".join(out_a) + more_a, "".join(out_b) + more_b


def _plain(text: str | None) -> str:
    if text is None:
        return "<em>(no text was extracted)</em>"
    words = re.findall(r"\S+\s*", text)[:MAX_WORDS]
    return e("".join(words))


def render_html(ctx: ReportContext, pairs: list[PairView]) -> str:
    """The whole report as one string."""
    plan, s = ctx.plan, ctx.summary()
    out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Near-duplicate export report</title><style>{_CSS}</style></head><body>",
           "<h1>Near-duplicate export report</h1>"]
    out.append(_summary_table(s))
    out.append(_issues(ctx))
    out.append(_not_files(ctx))
    out.append(f"<h2>The {len(pairs)} closest pairs</h2>")
    if not pairs:
        out.append("<p>No pair reaches the threshold.</p>")
    for p in pairs:
        out.append(_pair_html(ctx, p))
    out.append(f"<h2>Groups ({len(plan.groups)})</h2>")
    if not plan.groups:
        out.append("<p>No duplicate groups at this threshold.</p>")
    for g in plan.groups:
        out.append(_group_html(ctx, g))
    out.append("</body></html>\n")
    return "\n".join(out)


def _summary_table(s: dict) -> str:
    rows = [
        ("Documents", s["documents"]), ("Duplicate groups", s["groups"]),
        ("Left out (duplicates)", s["left_out"]), ("Files exported", s["files_exported"]),
        ("Files that failed", s["files_failed"]),
        ("Not regular files (links not followed, FIFOs, ...), not exported", s["not_regular_files"]),
        ("Method", s["method"]),
        ("Parameters", ", ".join(f"{k}={v}" for k, v in sorted(s["parameters"].items()))),
        ("Threshold", s["threshold"]), ("Measure", s["measure"]),
        ("Keeper rule", s["keeper_rule"]), ("Mode", s["mode"]),
        ("BagIt", "yes" if s["bagit"] else "no"), ("Generated", s["generated_at"]),
        ("Application", s["application"]),
    ]
    body = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
    roots = "".join(
        f'<tr><td class="path">{e(r["path"])}</td><td>{e(r["name"])}</td>'
        f'<td>{"reference" if r["reference"] else ""}</td></tr>' for r in s["roots"])
    return (f"<h2>Summary</h2><table>{body}</table>"
            f"<h3>Source folders</h3><table><tr><th>Folder</th><th>Exported as</th><th></th></tr>{roots}</table>")


def _issues(ctx: ReportContext) -> str:
    failed = [(t, st) for t, st in sorted(ctx.outcomes.items()) if st.startswith("failed")]
    failed += [(i.path, "failed: " + i.reason) for i in ctx.plan.issues]
    if not failed:
        return ""
    rows = "".join(f'<tr><td class="path">{e(t)}</td><td class="failed">{e(st)}</td></tr>' for t, st in failed)
    return f"<h2>Files that were not exported ({len(failed)})</h2><table>{rows}</table>"


def _not_files(ctx: ReportContext) -> str:
    skipped = ctx.plan.not_files
    if not skipped:
        return ""
    rows = "".join(f'<tr><td class="path">{e(i.path)}</td><td>{e(i.reason)}</td></tr>' for i in skipped)
    return (f"<h2>Not regular files, not exported ({len(skipped)})</h2>"
            "<p>Symbolic links the scan did not follow, FIFOs, sockets, devices and folder aliases "
            "are not documents of the collection; the scan skipped them for the reason shown.</p>"
            f"<table>{rows}</table>")


def _pair_html(ctx: ReportContext, p: PairView) -> str:
    ra, rb = ctx.plan.row(p.a), ctx.plan.row(p.b)
    left, right = side_by_side(p.text_a, p.text_b)
    head = (f"<h3>Score {fmt(p.score)}{' &middot; verdict: ' + e(p.verdict) if p.verdict else ''}</h3>"
            f'<div class="pair"><div><div class="path"><b>{e(ra.path)}</b> ({e(ra.role)}; '
            f"share in the other: {fmt(p.cont_ab)})</div></div>"
            f'<div><div class="path"><b>{e(rb.path)}</b> ({e(rb.role)}; '
            f"share in the other: {fmt(p.cont_ba)})</div></div></div>")
    return head + f'<div class="pair"><div class="side">{left}</div><div class="side">{right}</div></div>'


def _group_html(ctx: ReportContext, g) -> str:
    plan = ctx.plan
    keeper = plan.row(int(g.keeper))
    rows = []
    members = sorted((plan.row(int(m)) for m in g.members), key=lambda r: (r.role != "keeper", r.path))
    for r in members:
        covered = (f'{e(r.duplicate_of)} ({fmt(r.duplicate_score)})' if r.duplicate_of else "")
        rows.append(
            f'<tr class="{e(r.role)}"><td>{e(r.role)}</td><td class="path">{e(r.path)}</td>'
            f'<td class="path">{covered}</td>'
            f'<td class="num">{fmt(r.score)}</td><td class="num">{fmt(r.containment)}</td>'
            f"<td>{e(r.verdict)}</td><td>{e(r.reviewer)}</td><td>{e(r.decided_at)}</td>"
            f"<td>{e(ctx.export_status(r))}</td></tr>")
    extra = len(g.keepers) - 1
    kept = f", and {extra} more kept (nothing kept duplicates them)" if extra > 0 else ""
    return (f"<details><summary>Group {int(g.group_id)}: {len(members)} documents, keeper "
            f'<span class="path">{e(keeper.path)}</span>{kept}</summary><table><tr><th>Role</th>'
            "<th>Path</th><th>Duplicate of (score)</th><th>Score</th><th>Containment</th><th>Verdict</th>"
            f"<th>Reviewer</th><th>Decided</th><th>Export</th></tr>{''.join(rows)}</table></details>")


def write_html(ctx: ReportContext, pairs: list[PairView], folder: str, guard) -> str:
    """Write ``report.html`` into ``folder``; return its path."""
    path = os.path.join(folder, REPORT_HTML)
    with open(guard.check(path), "w", encoding="utf-8", errors="backslashreplace") as fh:
        fh.write(render_html(ctx, pairs))
    return path
