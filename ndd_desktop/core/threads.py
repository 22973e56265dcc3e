"""E-mail threads: which messages belong together, and which of them are inclusive.

Pure functions over plain records (no file, no database).

**Threading** follows Jamie Zawinski's algorithm: a container per Message-ID, linked
parent to child along each message's References (then In-Reply-To), never making a loop;
empty containers are pruned; then the roots left are gathered by normalised subject
("Re:", "Fwd:", "AW:", list tags and case dropped). Within a subject group a message with
no reply headers is hung under the latest earlier message whose text it quotes, else
under the group's first message when its subject has a reply or forward prefix; with
neither, it is a thread of its own (a subject alone, "Question", joins nothing). Every
message ends in exactly one thread, whatever its
headers: missing, malformed, looping or repeated Message-IDs included.

**Quotes**: a message's own text and what it quotes (:func:`core.quotes.split_quoted`).

**Inclusive**: a message is inclusive unless its whole text, what it quotes or forwards
included, is contained in a later message of its thread: at least :data:`CONTAINED_SHARE`
of its word 3-grams appear in the later message. Later means one that answers it (a
descendant), or, for a message with no reply headers (whose place in the tree is a
guess), one dated after it; a sibling reply never saw it. The whole text, not only its
own part: a forward without a comment has no own text, but what it forwards may be in no
other message of the collection; an answer written inline below a quote header counts as
quoted; and a signature or disclaimer is most of a short reply's own text. A reply that
quotes only part of an earlier message leaves that message inclusive.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from .quotes import CONTAINED_SHARE, contained, grams, split_quoted, strip_preamble, words

#: How many earlier messages of a subject a message without reply headers is compared with.
QUOTE_SEARCH = 200

_SUBJECT_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|tr|rif|r)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]\s*|\[[^\]]{1,40}\]\s*)+",
    re.IGNORECASE)
_REPLY_PREFIX = re.compile(
    r"^\s*(?:\[[^\]]{1,40}\]\s*)*(?:re|fwd?|aw|wg|sv|vs|antw|tr|rif|r)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]", re.IGNORECASE)
_MSGID = re.compile(r"<([^<>\s]+)>")


@dataclass
class MailRecord:
    """One message as the thread builder needs it (``key``: the caller's id for it)."""

    key: int
    message_id: str = ""
    in_reply_to: str = ""
    references: str = ""
    subject: str = ""
    date: float | None = None
    text: str = ""


@dataclass
class ThreadMessage:
    """A message placed in a thread: its parent (a key, None at the top) and whether it is inclusive."""

    key: int
    parent: int | None
    depth: int
    inclusive: bool = True
    contained_in: int | None = None  # the later message that contains its text
    contained_share: float = 1.0  # ... and the share of its word 3-grams found there


@dataclass
class Thread:
    """A thread: its subject and its messages in tree order (each message after its parent)."""

    subject: str
    messages: list[ThreadMessage] = field(default_factory=list)


# -- headers ---------------------------------------------------------------------------------
def message_ids(value: str) -> list[str]:
    """The Message-IDs in a header value, in order (``<a@b>`` brackets dropped); a bare
    token without brackets counts as one id."""
    if not value:
        return []
    found = _MSGID.findall(value)
    if found:
        return found
    token = value.strip().split()
    return [token[0]] if token else []


def normalize_subject(subject: str) -> str:
    """A subject without reply and forward prefixes, list tags, case and extra spaces."""
    s = _SUBJECT_PREFIX.sub("", subject or "")
    return " ".join(s.split()).casefold()


def is_reply_subject(subject: str) -> bool:
    """True when the subject carries a reply or forward prefix (after any list tags)."""
    return bool(_REPLY_PREFIX.match(subject or ""))


# -- threading -------------------------------------------------------------------------------
class _Container:
    __slots__ = ("msg", "parent", "children", "mid")

    def __init__(self, mid: str):
        self.mid = mid
        self.msg: MailRecord | None = None
        self.parent: _Container | None = None
        self.children: list[_Container] = []

    def has_descendant(self, other: "_Container") -> bool:
        stack, seen = [self], set()
        while stack:
            c = stack.pop()
            if c is other:
                return True
            if id(c) in seen:
                continue
            seen.add(id(c))
            stack.extend(c.children)
        return False


def _link(parent: _Container, child: _Container) -> None:
    """Make ``child`` a child of ``parent`` unless that makes a loop."""
    if child is parent or child.has_descendant(parent):
        return
    if child.parent is not None:
        child.parent.children.remove(child)
    child.parent = parent
    parent.children.append(child)


def _containers(records: list[MailRecord]) -> dict[str, _Container]:
    table: dict[str, _Container] = {}
    for n, rec in enumerate(records):
        ids = message_ids(rec.message_id)
        mid = ids[0] if ids else ""
        if not mid or (mid in table and table[mid].msg is not None):
            mid = f"\x00no-id-{n}"  # missing or repeated Message-ID: a container of its own
        box = table.setdefault(mid, _Container(mid))
        box.msg = rec
        refs = message_ids(rec.references)
        for irt in message_ids(rec.in_reply_to)[:1]:
            if not refs or refs[-1] != irt:
                refs.append(irt)
        refs = [r for r in refs if r != mid]
        prev: _Container | None = None
        for ref in refs:
            node = table.setdefault(ref, _Container(ref))
            if prev is not None and node.parent is None:
                _link(prev, node)
            prev = node
        if prev is not None:
            _link(prev, box)
    return table


def _prune(table: dict[str, _Container]) -> list[_Container]:
    """Drop empty containers (their children take their place); return the roots left."""
    for c in list(table.values()):
        if c.msg is not None:
            continue
        parent = c.parent
        if parent is not None:
            parent.children.remove(c)
        for ch in c.children:
            ch.parent = parent
            if parent is not None:
                parent.children.append(ch)
        c.children, c.parent = [], None
    return [c for c in table.values() if c.msg is not None and c.parent is None]


class _Texts:
    """Each message's words, own and quoted, and its 3-grams, computed once."""

    def __init__(self, records: list[MailRecord]):
        self.own: dict[int, list[str]] = {}
        self.quoted: dict[int, list[str]] = {}
        self.full_grams: dict[int, set] = {}
        self.full_text: dict[int, str] = {}
        for rec in records:
            body = strip_preamble(rec.text)
            own, quoted = split_quoted(body)
            full = words(body)
            self.own[rec.key] = words(own)
            self.quoted[rec.key] = words(quoted)
            self.full_grams[rec.key] = grams(full)
            self.full_text[rec.key] = " " + " ".join(full) + " "

    def share_in(self, key: int, other: int) -> float:
        """The share of message ``key``'s word 3-grams found in message ``other`` (1 for a
        message of fewer than three words)."""
        mine = self.full_grams[key]
        return len(mine & self.full_grams[other]) / len(mine) if mine else 1.0

    def contained_in(self, key: int, other: int) -> bool:
        """True when message ``key``'s whole text lies in message ``other`` (quotes included)."""
        mine = self.full_grams[key]
        if not mine:  # fewer than three words: they appear in that order
            text = self.full_text[key]
            return text.strip() == "" or text in self.full_text[other]
        return len(mine & self.full_grams[other]) >= CONTAINED_SHARE * len(mine)


def build_threads(records: list[MailRecord]) -> list[Thread]:
    """Group ``records`` into threads and mark each message inclusive or not.

    Threads come oldest first (by their first message's date); messages in each are in
    tree order, replies after the message they answer, siblings by date.
    """
    texts = _Texts(records)
    table = _containers(records)
    roots = _prune(table)
    # gather the roots by subject
    groups: dict[str, list[_Container]] = {}
    alone: list[_Container] = []
    for c in roots:
        subject = normalize_subject(c.msg.subject)
        (groups.setdefault(subject, []) if subject else alone).append(c)
    trees: list[_Container] = list(alone)
    for members in groups.values():
        members.sort(key=lambda c: (_date_key(c.msg), c.msg.key))
        head = next((c for c in members if not is_reply_subject(c.msg.subject)), members[0])
        trees.append(head)
        # every message of the subject's trees, replies hung by their headers included: a
        # message without headers that quotes a reply belongs under that reply (it was
        # compared with the trees' roots alone and hung under the first message)
        placed = sorted((x for m in members for x in _subtree(m) if x.msg is not None),
                        key=lambda x: (_date_key(x.msg), x.msg.key))
        dates = [_date_key(x.msg) for x in placed]
        for c in members:
            if c is head:
                continue
            parent = None
            headers = bool(c.msg.in_reply_to or c.msg.references)
            quoted = texts.quoted[c.msg.key] if not headers else []
            if quoted:
                end = bisect.bisect_right(dates, _date_key(c.msg))
                earlier = [p for p in placed[max(0, end - QUOTE_SEARCH - 1):end] if p is not c]
                for p in reversed(earlier):  # the latest earlier message it quotes
                    own_p = texts.own[p.msg.key]
                    if own_p and contained(own_p, quoted) and not c.has_descendant(p):
                        parent = p
                        break
            if parent is None and not headers and not is_reply_subject(c.msg.subject):
                # nothing but the subject ("Question", "Minutes"): a message of its own, as
                # mail programs thread without a reply prefix (two mails a fortnight apart
                # from two people became one thread)
                trees.append(c)
                continue
            _link(parent or head, c)
    threads = [_thread(t, texts) for t in trees]
    threads.sort(key=lambda t: (min((_date_key(by_key) for by_key in t[1]), default=(1, 0.0)), t[0].messages[0].key))
    return [t for t, _ in threads]


def _subtree(root: _Container) -> list[_Container]:
    """``root`` and every container below it."""
    out, stack, seen = [], [root], set()
    while stack:
        c = stack.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        out.append(c)
        stack.extend(c.children)
    return out


def _date_key(rec: MailRecord) -> tuple[int, float]:
    return (0, rec.date) if rec.date is not None else (1, 0.0)


def _thread(root: _Container, texts: _Texts) -> tuple[Thread, list[MailRecord]]:
    messages: list[ThreadMessage] = []
    recs: list[MailRecord] = []
    stack: list[tuple[_Container, int | None, int]] = [(root, None, 0)]
    seen: set[int] = set()
    while stack:
        c, parent, depth = stack.pop()
        if id(c) in seen:
            continue
        seen.add(id(c))
        messages.append(ThreadMessage(c.msg.key, parent, depth))
        recs.append(c.msg)
        kids = sorted(c.children, key=lambda k: (_date_key(k.msg), k.msg.key), reverse=True)
        stack.extend((k, c.msg.key, depth + 1) for k in kids)
    thread = Thread(root.msg.subject, messages)
    mark_inclusive(thread, {r.key: r for r in recs}, texts)
    return thread, recs


def mark_inclusive(thread: Thread, records: dict[int, MailRecord], texts: _Texts | None = None) -> None:
    """Set ``inclusive`` on each message of ``thread`` (see the module docstring)."""
    texts = texts or _Texts(list(records.values()))
    parent_of = {m.key: m.parent for m in thread.messages}
    order = sorted(parent_of, key=lambda k: (_date_key(records[k]), k))
    rank = {k: n for n, k in enumerate(order)}
    # which messages hold each 3-gram: a message is compared only with those sharing enough of them
    holders: dict[tuple, list[int]] = {}
    for k in order:
        for g in texts.full_grams[k]:
            holders.setdefault(g, []).append(k)

    def is_later(k: int, than: int) -> bool:
        """k answers ``than`` or a copy of it (one Message-ID: a thread saved twice), directly
        or further down, or, with no reply headers of its own, is dated after it."""
        mid = records[than].message_id
        seen, p = set(), parent_of.get(k)
        while p is not None and p not in seen:
            if p == than or (mid and records[p].message_id == mid):
                return True
            seen.add(p)
            p = parent_of.get(p)
        if records[k].in_reply_to or records[k].references:
            return False  # it answers another message: it never saw this one
        dk, dt = records[k].date, records[than].date
        return dk is not None and dt is not None and dk > dt

    for m in thread.messages:
        mine = texts.full_grams[m.key]
        if mine:  # candidates: the messages holding enough of its 3-grams
            counts: dict[int, int] = {}
            for g in mine:
                for k in holders.get(g, ()):
                    counts[k] = counts.get(k, 0) + 1
            need = CONTAINED_SHARE * len(mine)
            candidates = [k for k, n in counts.items() if n >= need and k != m.key]
        else:
            candidates = [k for k in order if k != m.key]
        for k in sorted(candidates, key=rank.__getitem__):
            if is_later(k, m.key) and texts.contained_in(m.key, k):
                m.inclusive = False
                m.contained_in = k
                m.contained_share = texts.share_in(m.key, k)
                break
