"""The store owns the connection and offers one interface per concern; every write of every
interface goes through the store's guarded write transaction."""

from __future__ import annotations

import numpy as np
import pytest
from storehelp import doc

from ndd_desktop.store import (
    Documents, Emails, Facts, Pairs, Review, Root, Scans, Settings, Sketches, Store, StoreReadOnly,
)

CONNECTION = {"open", "close", "path", "read_only", "unread_changes", "schema_revision", "integrity_check"}
INTERFACES = {"documents": Documents, "pairs": Pairs, "sketches": Sketches, "scans": Scans, "review": Review,
              "settings": Settings, "emails": Emails, "facts": Facts}


def test_the_store_offers_its_connection_and_one_interface_per_concern(tmp_path):
    with Store.open(tmp_path / "c.ndd") as store:
        public = {name for name in dir(store) if not name.startswith("_")}
        assert public == CONNECTION | set(INTERFACES)  # no method of the old one class is left
        for name, cls in INTERFACES.items():
            assert type(getattr(store, name)) is cls


def test_every_write_of_every_interface_refuses_a_read_only_file(tmp_path):
    path = tmp_path / "c.ndd"
    with Store.open(path) as store:
        store.documents.set_roots([Root("/r")])
        (a, b) = store.scans.write_documents([doc("/r", "a.txt", "h1"), doc("/r", "b.txt", "h2")], "m", "k")
    writes = [
        lambda s: s.documents.set_roots([Root("/other")]),
        lambda s: s.scans.begin_run("m", {}, "pk", 0.3),
        lambda s: s.scans.end_run(1, "finished", {}),
        lambda s: s.scans.write_documents([doc("/r", "c.txt", "h3")], "m", "k"),
        lambda s: s.scans.touch_files([(1, 10, 2)]),
        lambda s: s.scans.remove_files([1]),
        lambda s: s.sketches.put("m", "k", [(a, b"x")]),
        lambda s: s.pairs.replace("m", "pk", "k", {}, 0.3, "in", {"a": np.array([a]), "b": np.array([b]),
                                                                  "score": np.array([0.9])}),
        lambda s: s.review.set_verdict(a, b, "duplicate"),
        lambda s: s.review.set_keeper(a, True),
        lambda s: s.review.reattach(),
        lambda s: s.review.import_dict(s.review.export_dict()),
        lambda s: s.settings.put("keeper_rule", "oldest"),
    ]
    with Store.open(path, read_only=True) as store:
        for write in writes:
            with pytest.raises(StoreReadOnly):
                write(store)
        # reads still work, and nothing was written
        assert [d.relpath for d in store.documents.all()] == ["a.txt", "b.txt"]
        assert store.scans.runs() == [] and store.pairs.sets() == [] and store.review.history() == []
        assert store.settings.all() == {} and store.documents.roots() == [Root("/r")]
