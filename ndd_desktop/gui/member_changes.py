"""A member's differences to the group's reference, as the group view shows them: the
summary in the member table's Differences cell, and every change as HTML with its places
and both texts (``gui.group_view``)."""

from __future__ import annotations

import html
from typing import Any

from ..app.group_review import CONTAINED, MemberDiff
from .formatting import doc_date, doc_label, fmt_date, human_size

_KIND_COLOUR = {"removed": "#fbd5d2", "added": "#cdeed3", "changed": "#fff2c2"}


def summary(diff: MemberDiff) -> str:
    """A member's Differences cell: how many passages, and how it stands to the reference."""
    if diff.identical:
        return "identical text"
    n = len(diff.changes)
    text = f"{n} passage{'' if n == 1 else 's'} · {diff.share_member:.0%} in ref."
    if diff.share_member >= CONTAINED > diff.share_ref:
        text = f"{n} passage{'' if n == 1 else 's'} · inside the reference"
    elif diff.share_ref >= CONTAINED > diff.share_member:
        text = f"{n} passage{'' if n == 1 else 's'} · holds the reference"
    return text + (" · partial" if not diff.complete else "")


def changes_html(doc: Any, diff: MemberDiff) -> str:
    """The differences of one member as HTML: each change with its places and both texts."""
    e = html.escape
    head = (f"<p><b>{e(doc_label(doc))}</b> · {human_size(doc.size)} · dated {fmt_date(doc_date(doc))}<br>"
            f"{diff.share_member:.0%} of it is in the reference, {diff.share_ref:.0%} of the reference is in it</p>")
    if not diff.complete:
        head += "<p><b>Partial:</b> too large to compare in full in the time allowed; the differences found so far.</p>"
    if diff.identical:
        return head + "<p>Same text as the reference.</p>"
    rows = []
    for k, c in enumerate(diff.changes):
        colour = _KIND_COLOUR.get(c.kind, "#eee")
        rows.append(f"<tr style='background:{colour}'><td><a href='change:{k}'>{c.kind}</a></td>"
                    f"<td><i>{e(c.ref_place)}</i><br>{e(c.ref_text)}</td>"
                    f"<td><i>{e(c.member_place)}</i><br>{e(c.member_text)}</td></tr>")
    return (head + "<table cellpadding='4' width='100%'><tr><th>what</th><th>reference</th><th>this member</th></tr>"
            + "".join(rows) + "</table>")
