"""A small in-memory stand-in for the store, for unit tests of plan details.

It exposes only the parts of the store contract the export reads. The integration tests
run through a real ``ScanJob``; this fake covers cases a scan cannot easily produce
(container members, decisions with chosen times).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

import numpy as np

from ndd_desktop.store.types import Decision, DocumentInfo, PairArrays, PairRow, PairSet, Root, ScanRun


def sha256_of(path: str) -> str:
    """Hex SHA-256 of a file."""
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


@dataclass
class FakeStore:
    """Documents, pairs and decisions held in lists."""

    root_list: list
    docs: list
    texts: dict
    pair_list: list  # (a, b, score, cont_ab, cont_ba)
    history: list
    method: str = "qgram"
    pairs_key: str = "k1"

    # builders ------------------------------------------------------------------------
    @classmethod
    def from_files(cls, roots: list[str], members: dict | None = None) -> "FakeStore":
        """One document per file under ``roots``; ``members`` maps (root, relpath) to a
        list of (member name, bytes) that become container members of that file."""
        docs, texts = [], {}
        members = members or {}
        for root in roots:
            for dirpath, _dirs, files in os.walk(root):
                for name in sorted(files):
                    abspath = os.path.join(dirpath, name)
                    rel = os.path.relpath(abspath, root).replace(os.sep, "/")
                    st = os.stat(abspath)
                    kids = members.get((root, rel))
                    if kids is None or kids[0] is not None:
                        did = len(docs) + 1
                        docs.append(DocumentInfo(did, root, rel, abspath, None, st.st_size, st.st_mtime_ns,
                                                 None, "txt", "x", sha256_of(abspath), st.st_size, "ok", "", False))
                        with open(abspath, "rb") as fh:
                            texts[did] = fh.read().decode("utf-8", "replace")
                    for kid_name, data in (kids or [])[1:]:
                        did = len(docs) + 1
                        docs.append(DocumentInfo(did, root, f"{rel}!{kid_name}", abspath, rel, len(data),
                                                 st.st_mtime_ns, None, "txt", "x",
                                                 hashlib.sha256(data).hexdigest(), len(data), "ok", "", False))
                        texts[did] = data.decode("utf-8")
        return cls([Root(r) for r in roots], docs, texts, [], [])

    def doc_id(self, relpath: str) -> int:
        """The id of the document at ``relpath``."""
        return next(d.id for d in self.docs if d.relpath == relpath)

    def add_pair(self, a: int, b: int, score: float, cont_ab: float = float("nan"), cont_ba: float = float("nan")):
        """Store a scored pair."""
        if a > b:
            a, b, cont_ab, cont_ba = b, a, cont_ba, cont_ab
        self.pair_list.append((a, b, score, cont_ab, cont_ba))

    def decide(self, kind: str, a: int, b: int | None, value: str, reviewer: str = "", time: float = 0.0):
        """Append a review decision."""
        if b is not None and a > b:
            a, b = b, a
        self.history.append(Decision(len(self.history) + 1, time, reviewer, kind, a, b, "", "", value))

    # the contract: the store's interfaces the export reads -------------------------------
    def __post_init__(self) -> None:
        self.documents = _FakeDocuments(self)
        self.pairs = _FakePairs(self)
        self.review = _FakeReview(self)
        self.scans = _FakeScans(self)
        self.settings = _FakeSettings()


class _FakeDocuments:
    def __init__(self, fake: FakeStore) -> None:
        self.fake = fake

    def roots(self):
        return list(self.fake.root_list)

    def all(self, ids=None, *, status="ok"):
        out = [d for d in self.fake.docs if status is None or d.status == status]
        if ids is not None:
            wanted = set(ids)
            out = [d for d in out if d.id in wanted]
        return out

    def text(self, doc_id):
        return self.fake.texts.get(doc_id)


class _FakeScans:
    def __init__(self, fake: FakeStore) -> None:
        self.fake = fake

    def last_method(self):
        return (self.fake.method, {"q": 3})

    def runs(self):
        f = self.fake
        return [ScanRun(1, 0.0, 1.0, "finished", f.method, {"q": 3}, f.pairs_key, 0.3,
                        len(f.docs), 0, 0, 0, 0, 0, len(f.pair_list), "")]


class _FakeSettings:
    def saved_threshold(self, method, pairs_key):
        return None  # no threshold saved: the method's default applies


class _FakePairs:
    def __init__(self, fake: FakeStore) -> None:
        self.fake = fake

    def sets(self):
        f = self.fake
        return [PairSet(f.method, {"q": 3}, f.pairs_key, 0.3, len(f.pair_list))]

    def arrays(self, method, pairs_key):
        if not self.fake.pair_list:
            return PairArrays.empty()
        a, b, s, cab, cba = (np.array(c) for c in zip(*self.fake.pair_list))
        return PairArrays(np.arange(len(a)), a.astype(np.int64), b.astype(np.int64), s.astype(float),
                          cab.astype(float), cba.astype(float), np.full(len(a), np.nan))

    def rows(self, method, pairs_key, threshold, *, order="score", descending=True, offset=0, limit=None,
             text_filter=None):
        by_id = {d.id: d for d in self.fake.docs}
        verdicts = self.fake.review.verdicts()
        rows = [PairRow(n, by_id[a], by_id[b], s, cab, cba, float("nan"), verdicts.get((a, b)))
                for n, (a, b, s, cab, cba) in enumerate(self.fake.pair_list) if s >= threshold]
        rows.sort(key=lambda r: r.score, reverse=descending)
        return rows[offset: None if limit is None else offset + limit]


class _FakeReview:
    def __init__(self, fake: FakeStore) -> None:
        self.fake = fake

    def verdicts(self):
        out = {}
        for d in self.fake.history:
            if d.kind == "verdict":
                if d.value:
                    out[(d.a, d.b)] = d.value
                else:
                    out.pop((d.a, d.b), None)
        return out

    def keepers(self):
        out = set()
        for d in self.fake.history:
            if d.kind == "keeper":
                (out.add if d.value else out.discard)(d.a)
        return out

    def history(self):
        return list(self.fake.history)

    def standing(self):
        """The newest decision per pair or document (the fake's documents never change)."""
        latest = {}
        for d in self.fake.history:
            latest[(d.kind, d.a, d.b)] = d
        return sorted(latest.values(), key=lambda d: d.id)
