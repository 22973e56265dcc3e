"""The HTML report's templates on a hand-made context: escaping, empty values, and the
columns that appear when the rows and groups carry them."""

from __future__ import annotations

from types import SimpleNamespace as NS

from ndd_desktop.export.report_html import PairView, render_html

HOSTILE = '<img src=x> & "q\'.txt'
ESCAPED = "&lt;img src=x&gt; &amp; &quot;q&#x27;.txt"  # as html.escape(quote=True) writes it


def context(rows: dict, group: NS) -> NS:
    summary = dict(documents=3, groups=1, left_out=2, files_exported=1, files_failed=1, not_regular_files=0,
                   left_out_changed=0, left_out_not_covered=0,
                   method="qgram", parameters={"q": 4}, threshold=0.3, measure="resemblance",
                   keeper_rule="reference-oldest", mode="copy", bagit=False, generated_at="now",
                   application="ndd-desktop", roots=[{"path": "/src/a", "name": "a", "reference": True}])
    plan = NS(groups=[group], issues=[NS(path="a/broken.pdf", reason="disk full")], not_files=[],
              row=lambda i: rows[i])
    return NS(plan=plan, summary=lambda: summary, outcomes={"a/x.txt": "copied"}, left_out_problems={},
              export_status=lambda r: "copied" if r.role == "keeper" else "not exported",
              not_covered=lambda r: "")


def row(i: int, role: str, score=None, **extra) -> NS:
    return NS(path=f"a/{i}{HOSTILE}", role=role, score=score, containment=None,
              verdict="duplicate" if i == 2 else "", reviewer=None, decided_at="", **extra)


def test_everything_from_the_collection_is_escaped_and_none_shows_nothing():
    rows = {1: row(1, "keeper", 1.0), 2: row(2, "duplicate", 0.5)}
    page = render_html(context(rows, NS(group_id=7, keeper=1, members=[2, 1])),
                       [PairView(1, 2, 0.5, None, 0.25, HOSTILE, "one <two> three", "one <TWO> three")])
    assert "<img" not in page and f"a/1{ESCAPED}" in page
    assert f"verdict: {ESCAPED}</h3>" in page
    assert '<mark class="del">&lt;two&gt; </mark>' in page  # the side-by-side Markup stays marked up
    assert "share in the other: &ndash;)" in page and "share in the other: 0.250)" in page
    assert ('<tr class="duplicate"><td>duplicate</td><td class="path">a/2' + ESCAPED + "</td>"
            '<td class="num">0.500</td><td class="num">&ndash;</td><td>duplicate</td><td></td><td></td>'
            "<td>not exported</td></tr>") in page  # reviewer None: an empty cell, not "None"
    assert "Group 7: 2 documents, keeper" in page and "more kept" not in page
    assert "Duplicate of" not in page  # rows without the field: no column
    assert '<h2>Files that were not exported (1)</h2><table><tr><td class="path">a/broken.pdf</td>' in page
    assert page.endswith("</body></html>\n")


def test_direct_duplicate_column_and_extra_keepers_where_the_plan_has_them():
    rows = {1: row(1, "keeper", 1.0, duplicate_of="", duplicate_score=None),
            2: row(2, "duplicate", 0.5, duplicate_of="a/1.txt", duplicate_score=0.5),
            3: row(3, "keeper", 0.4, duplicate_of="", duplicate_score=None)}
    page = render_html(context(rows, NS(group_id=7, keeper=1, keepers=[1, 3], members=[1, 2, 3])), [])
    assert "Group 7: 3 documents, keeper <span" in page
    assert "</span>, and 1 more kept (nothing kept duplicates them)</summary>" in page
    assert "<th>Path</th><th>Duplicate of (score)</th><th>Score</th>" in page
    assert '<td class="path">a/1.txt (0.500)</td><td class="num">0.500</td>' in page
    assert page.count('<td class="path"></td>') == 2  # the two keepers duplicate nothing
