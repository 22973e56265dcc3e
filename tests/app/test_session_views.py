"""The window and ``ndd`` are two views of one session: on the same collection file they show
the same groups, keepers and left-out duplicates, before and after a review in the window."""

from __future__ import annotations

import json
import os
import random

import pytest

import ndd_desktop.gui  # noqa: F401 - applies the PySide6 compatibility fix before Qt runs
from ndd_desktop.app.session import Session
from ndd_desktop.cli import main
from ndd_desktop.gui.cluster_tree import DOC_ROLE
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.settings import Settings
from ndd_desktop.store import Store


def make_folder(folder):
    """Three families of an original and two slightly edited copies, and two loners."""
    rng = random.Random(7)
    words = [f"w{k}" for k in range(400)]
    folder.mkdir()
    stamp = 1.0e9
    for fam in range(3):
        base = [rng.choice(words) for _ in range(120)]
        for copy in range(3):
            text = list(base)
            for _ in range(copy * 3):  # copies differ by a few words
                text[rng.randrange(len(text))] = rng.choice(words)
            path = folder / f"f{fam}_{copy}.txt"
            path.write_text(" ".join(text))
            stamp += 1.0e5
            os.utime(path, (stamp, stamp))
    for k in range(2):
        (folder / f"alone{k}.txt").write_text(" ".join(rng.choice(words) for _ in range(120)))


def cli_view(capsys, db) -> set:
    """What ``ndd clusters`` shows: per group (members, keepers, left out), as file names."""
    assert main(["clusters", "--db", str(db), "--format", "json"]) == 0
    out, _ = capsys.readouterr()
    shown = set()
    for g in json.loads(out):
        members = frozenset(m["path"] for m in g["members"])
        keepers = frozenset(m["path"] for m in g["members"] if m["keeper"])
        left_out = frozenset(m["path"] for m in g["members"] if m["duplicate_of"])
        shown.add((members, keepers, left_out))
    return shown


def window_view(window) -> set:
    """What the window's tree of groups shows, in the same terms."""
    model, docs = window.clusters.model, window.collection.data.docs
    shown = set()
    for row in range(model.rowCount()):
        head = model.index(row, 0)
        members, keepers, left_out = set(), set(), set()
        for k in range(model.rowCount(head)):
            name = docs[model.index(k, 0, head).data(DOC_ROLE)].relpath
            role = model.index(k, 2, head).data()
            members.add(name)
            if "★" in role:
                keepers.add(name)
            if "duplicate of" in role:
                left_out.add(name)
        shown.add((frozenset(members), frozenset(keepers), frozenset(left_out)))
    return shown


def wait_groups(qtbot, window) -> None:
    c = window.collection
    qtbot.waitUntil(lambda: c.data is not None and not c.busy() and c.grouping is not None, timeout=30000)
    qtbot.waitUntil(lambda: window.clusters.fully_filled(), timeout=10000)


@pytest.fixture
def db(tmp_path, capsys):
    make_folder(tmp_path / "docs")
    path = tmp_path / "c.ndd.sqlite"
    assert main(["scan", str(tmp_path / "docs"), "--db", str(path), "-q"]) == 0
    capsys.readouterr()
    return path


def test_the_window_and_ndd_show_the_same_groups_before_and_after_a_review(qtbot, capsys, tmp_path, db):
    first = cli_view(capsys, db)
    assert len(first) == 3 and all(len(m) == 3 and len(k) == 1 and len(lo) == 2 for m, k, lo in first)

    window = MainWindow(settings=Settings.at(str(tmp_path / "s.ini")), data_dir=tmp_path)
    qtbot.addWidget(window)
    window.show()
    assert window.open_store(str(db))
    wait_groups(qtbot, window)
    assert window_view(window) == first

    # a review in the window: another keeper in one group and the rule "newest" for all
    c = window.collection
    group = c.grouping.groups[0]
    choice = next(m for m in group.members if m not in group.keepers)
    c.set_keeper(choice, list(group.members))
    window.clusters.rule.setCurrentIndex(window.clusters.rule.findData("newest"))
    wait_groups(qtbot, window)
    qtbot.waitUntil(lambda: choice in c.grouping.groups[0].keepers, timeout=10000)
    wait_groups(qtbot, window)
    after = window_view(window)
    assert after != first
    assert cli_view(capsys, db) == after  # ndd reads the keeper and the saved rule

    # the session the window wraps plans the export of exactly what both show
    plan = c.session.plan_export(str(tmp_path / "out"))
    names = {d: doc.relpath for d, doc in c.data.docs.items()}
    assert {names[d] for d in plan.left_out} == set().union(*(lo for _, _, lo in after))
    # and a new session on the same file (what each ndd command opens) agrees
    with Store.open(db) as store:
        s = Session(store)
        s.select()
        grouping = s.groups()
        assert {frozenset(g.keepers) for g in grouping.groups} == {frozenset(k) for k in
                                                                    ({d for d in names if names[d] in keep}
                                                                     for _, keep, _ in after)}

    # undo in the window puts the rule's keeper back, for ndd too
    assert c.undo() == ("keeper", choice)
    qtbot.waitUntil(lambda: choice not in c.grouping.groups[0].keepers, timeout=10000)
    wait_groups(qtbot, window)
    assert window_view(window) == cli_view(capsys, db)
