"""The HTML report: one self-contained file (inline CSS, no script, no outside resource).

It shows the summary, the closest pairs side by side with the differing passages marked,
and every group with its keeper and duplicates. The page is a Jinja2 template
(``templates/report.html.j2`` and its sections in ``report_parts.html.j2``, the style in
``report.css``) rendered with autoescaping: every piece of text that comes from the
collection (file names, document text, reviewer names) is escaped. Only the side-by-side
texts arrive as Markup, escaped here word by word as the differences are marked.
"""

from __future__ import annotations

import functools
import html
import os
from dataclasses import dataclass

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from ..core.text_diff import clean_text, diff_texts, first_words
from .report_data import ReportContext
from .roles import CHOSEN_KEEPER_NOTE

REPORT_HTML = "report.html"
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
#: Words of each document compared in the side-by-side view (keeps the diff fast).
MAX_WORDS = 3000


def e(value) -> str:
    """Escape anything for HTML text or a quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)


def fmt(value) -> str:
    """A score or containment with three decimals, or a dash (HTML)."""
    return Markup("&ndash;") if value is None else f"{float(value):.3f}"


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
    for p in store.pairs.rows(o.method, o.pairs_key, o.threshold, order="score", descending=True, limit=limit):
        views.append(PairView(
            p.a.id, p.b.id, float(p.score), _num(p.cont_ab), _num(p.cont_ba), p.verdict or "",
            store.documents.text(p.a.id), store.documents.text(p.b.id)))
    return views


def _num(x) -> float | None:
    return None if x is None or x != x else float(x)


def side_by_side(text_a: str | None, text_b: str | None) -> tuple[str, str]:
    """Both texts as escaped HTML, passages found only on one side marked: the rendering of
    ``core.text_diff`` (the compare view's diff; here a change of case counts)."""
    if text_a is None or text_b is None:
        return (_plain(text_a), _plain(text_b))
    diff = diff_texts(text_a, text_b, ignore_case=False, max_words=MAX_WORDS)
    out_a, out_b = [], []
    for a0, b0, a1, b1, kind in diff.blocks:
        chunk_a, chunk_b = e(diff.text_a[a0:a1]), e(diff.text_b[b0:b1])
        if kind == "equal":
            out_a.append(chunk_a)
            out_b.append(chunk_b)
            continue
        if chunk_a:
            out_a.append(f'<mark class="del">{chunk_a}</mark>')
        if chunk_b:
            out_b.append(f'<mark class="ins">{chunk_b}</mark>')
    more_a = " &hellip;" if diff.truncated_a else ""
    more_b = " &hellip;" if diff.truncated_b else ""
    return "".join(out_a) + more_a, "".join(out_b) + more_b


def _plain(text: str | None) -> str:
    if text is None:
        return "<em>(no text was extracted)</em>"
    return e(first_words(clean_text(text), MAX_WORDS)[0])


@functools.cache
def _environment() -> Environment:
    """The template environment: templates from the package, autoescaped; None shows as
    nothing; a name the template misspells is an error, not an empty cell."""
    env = Environment(
        # the folder beside this module: a checkout, the wheel (package data) and the
        # PyInstaller bundle (packaging/ndd-desktop.spec copies it) all have it there
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html", "html.j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=lambda value: "" if value is None else value,
    )
    env.filters["score"] = fmt
    return env


# markupsafe writes quotes as &#34; and &#39;, html.escape (the side-by-side texts, and the
# report before its templates) as &quot; and &#x27;: one spelling keeps reports comparable.
# A literal "&#34;" in a document cannot be mistaken: its "&" is escaped to "&amp;".
_QUOTES = (("&#34;", "&quot;"), ("&#39;", "&#x27;"))


def render_html(ctx: ReportContext, pairs: list[PairView]) -> str:
    """The whole report as one string."""
    plan, s = ctx.plan, ctx.summary()
    summary = [
        ("Documents", s["documents"]), ("Duplicate groups", s["groups"]),
        ("Left out (duplicates)", s["left_out"]), ("Files exported", s["files_exported"]),
        ("Files that failed", s["files_failed"]),
        ("Left out, but changed or gone since the scan (rescan first)", s["left_out_changed"]),
        ("Left out, but the document they duplicate was not exported", s["left_out_not_covered"]),
        ("Not regular files (links not followed, FIFOs, ...), not exported", s["not_regular_files"]),
        ("Method", s["method"]),
        ("Parameters", ", ".join(f"{k}={v}" for k, v in sorted(s["parameters"].items()))),
        ("Threshold", s["threshold"]), ("Measure", s["measure"]),
        ("Keeper rule", s["keeper_rule"]), ("Mode", s["mode"]),
        ("BagIt", "yes" if s["bagit"] else "no"), ("Generated", s["generated_at"]),
        ("Application", s["application"]),
    ]
    failed = [(t, st) for t, st in sorted(ctx.outcomes.items()) if st.startswith("failed")]
    failed += [(i.path, "failed: " + i.reason) for i in plan.issues]
    failed += [(plan.row(d).path, "failed: " + why) for d, why in sorted(ctx.left_out_problems.items())]
    page = _environment().get_template("report.html.j2").render(
        summary=summary, roots=s["roots"], failed=failed, skipped=plan.not_files,
        pairs=[_pair_view(ctx, p) for p in pairs], groups=[_group_view(ctx, g) for g in plan.groups])
    for ours, theirs in _QUOTES:
        page = page.replace(ours, theirs)
    return page


def _pair_view(ctx: ReportContext, p: PairView) -> dict:
    left, right = side_by_side(p.text_a, p.text_b)
    return {"score": p.score, "verdict": p.verdict, "cont_ab": p.cont_ab, "cont_ba": p.cont_ba,
            "row_a": ctx.plan.row(p.a), "row_b": ctx.plan.row(p.b),
            "left": Markup(left), "right": Markup(right)}  # escaped by side_by_side


def _group_view(ctx: ReportContext, g) -> dict:
    plan = ctx.plan
    members = sorted((plan.row(int(m)) for m in g.members), key=lambda r: (r.role != "keeper", r.path))
    return {"group": g, "keeper": plan.row(int(g.keeper)),
            # a left-out member whose kept document failed says so, and why, where it is listed
            "members": [(r, "; ".join(filter(None, (ctx.export_status(r), ctx.not_covered(r)))))
                        for r in members],
            # extra keepers the reviewer chose (the others: nothing kept duplicates them)
            "chosen": sum(1 for r in members if getattr(r, "note", "") == CHOSEN_KEEPER_NOTE)}


def write_html(ctx: ReportContext, pairs: list[PairView], folder: str, guard) -> str:
    """Write ``report.html`` into ``folder``; return its path."""
    path = os.path.join(folder, REPORT_HTML)
    with open(guard.check(path), "w", encoding="utf-8", errors="backslashreplace") as fh:
        fh.write(render_html(ctx, pairs))
    return path
