"""The window and ``ndd`` ask the app layer for versions, folders and e-mail threads: on the
same collection file they show the same version order, folder pairs and threads, and a bulk
review of a group keeps the session's copy of the verdicts in step with the file."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest

import ndd_desktop.gui  # noqa: F401 - applies the PySide6 compatibility fix before Qt runs
from ndd_desktop.app.analyses import folder_source, lineage_job, threads_job
from ndd_desktop.app.group_review import group_view, review_group, undo_group_review
from ndd_desktop.app.session import Session
from ndd_desktop.cli import main
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.settings import Settings
from ndd_desktop.store import Store

WORDS = [f"w{k}" for k in range(500)]


def make_folder(root) -> None:
    """orig/ holds two families of an original and two edited versions (written in that
    order) and one loner; copy/ is a copy of orig/ with one file more; mail/ holds a message
    and its reply."""
    rng = random.Random(11)
    orig = root / "orig"
    orig.mkdir(parents=True)
    stamp = 1.0e9
    for fam in range(2):
        text = [rng.choice(WORDS) for _ in range(200)]
        for version in range(3):
            for _ in range(4):  # each version edits the one before
                text[rng.randrange(len(text))] = rng.choice(WORDS)
            path = orig / f"f{fam}_v{version}.txt"
            path.write_text(" ".join(text))
            stamp += 1.0e5
            os.utime(path, (stamp, stamp))
    (orig / "alone.txt").write_text(" ".join(rng.choice(WORDS) for _ in range(200)))
    shutil.copytree(orig, root / "copy")
    (root / "copy" / "extra.txt").write_text(" ".join(rng.choice(WORDS) for _ in range(200)))
    mail = root / "mail"
    mail.mkdir()
    (mail / "1.eml").write_text("From: a@example.org\nSubject: Budget\nMessage-ID: <m1@example.org>\n"
                                "Date: Mon, 03 Jan 2022 10:00:00 +0000\n\nThe council meets on Thursday.\n")
    (mail / "2.eml").write_text("From: b@example.org\nSubject: Re: Budget\nMessage-ID: <m2@example.org>\n"
                                "In-Reply-To: <m1@example.org>\nDate: Mon, 03 Jan 2022 12:00:00 +0000\n\n"
                                "Thursday suits me.\n\n> The council meets on Thursday.\n")


def run(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_window_and_ndd_show_the_same_versions_folders_and_threads(qtbot, capsys, tmp_path):
    make_folder(tmp_path / "docs")
    db = tmp_path / "c.ndd.sqlite"
    run(capsys, "scan", str(tmp_path / "docs"), "--db", str(db), "-q")
    cli_lineage = {tuple(g["order"]) for g in json.loads(run(capsys, "lineage", "--db", str(db)))}
    cli_folders = {(r["a"], r["b"], r["relation"])
                   for r in json.loads(run(capsys, "folders", "--db", str(db), "--format", "json"))}
    cli_threads = [[m["path"] for m in t["messages"]]
                   for t in json.loads(run(capsys, "threads", "--db", str(db), "--format", "json"))]
    # what was written: versions of one text in both folders, orig/ wholly in copy/, one thread
    assert {"orig/f0_v0.txt", "copy/f0_v0.txt"} <= {p for order in cli_lineage for p in order}
    assert (str(tmp_path / "docs" / "orig"), str(tmp_path / "docs" / "copy"), "a in b") in cli_folders or \
        (str(tmp_path / "docs" / "copy"), str(tmp_path / "docs" / "orig"), "b in a") in cli_folders
    assert cli_threads == [["mail/1.eml", "mail/2.eml"]]

    window = MainWindow(settings=Settings.at(str(tmp_path / "s.ini")), data_dir=tmp_path)
    qtbot.addWidget(window)
    window.show()
    c = window.collection if window.open_store(str(db)) else None
    qtbot.waitUntil(lambda: c.data is not None and not c.busy() and c.grouping is not None, timeout=30000)
    qtbot.waitUntil(lambda: bool(window.clusters.model.orders), timeout=30000)
    docs = c.data.docs
    shown = {tuple(docs[m].relpath for m in o.order) for o in window.clusters.model.orders.values()}
    assert shown == cli_lineage
    with qtbot.waitSignal(window.folders.computed, timeout=20000):
        window.tabs.setCurrentWidget(window.folders)
    view = window.folders
    assert {(view.proxy.index(r, 0).data(), view.proxy.index(r, 1).data(), view.proxy.index(r, 4).data())
            for r in range(view.proxy.rowCount())} == cli_folders
    with qtbot.waitSignal(window.threads_view.loaded, timeout=20000):
        window.tabs.setCurrentWidget(window.threads_view)
    assert [[m.relpath for m in t.messages] for t in window.threads_view.threads] == cli_threads


def test_a_session_analyses_what_it_shows_and_a_group_review_keeps_its_verdicts(tmp_path, capsys):
    make_folder(tmp_path / "docs")
    db = tmp_path / "c.ndd.sqlite"
    run(capsys, "scan", str(tmp_path / "docs"), "--db", str(db), "-q")
    with Store.open(db) as store:
        session = Session(store)
        assert lineage_job(session) is None and folder_source(session) is None  # nothing shown yet
        session.select(threshold=0.99)
        source = folder_source(session)
        assert (source.method, source.threshold) == (session.method, 0.99)
        session.select(threshold=0.3)
        assert folder_source(session).threshold == 0.3
        grouping = session.groups()
        job = lineage_job(session)
        for_grouping, orders = job()
        assert for_grouping is grouping and set(orders) == {g.group_id for g in grouping.groups}
        assert [[m.relpath for m in t.messages] for t in threads_job(session)()] == [["mail/1.eml", "mail/2.eml"]]

        data, t = session.read_pair_set(session.method, {}, session.pairs_key, 0.3)
        session.show(data, t)
        group = next(g for g in session.groups().groups if len(g.members) >= 3)
        view = group_view(session, group)
        assert view.reference == group.keeper
        others = [m for m in group.members if m != group.keeper]
        change = review_group(session, group.members, group.keeper, "duplicates")
        expected = {(min(m, group.keeper), max(m, group.keeper)): "duplicate" for m in others}
        assert {k: v for k, v in session.data.verdicts.items() if k in expected} == expected
        assert store.review.verdicts() == session.data.verdicts
        assert undo_group_review(session, change) == {} == session.data.verdicts
        assert group_view(session, group, others[0]).reference == others[0]


def test_a_version_order_stops_when_cancelled(tmp_path, capsys):
    from ndd_desktop.pipeline import CancelToken, ScanCancelled

    make_folder(tmp_path / "docs")
    db = tmp_path / "c.ndd.sqlite"
    run(capsys, "scan", str(tmp_path / "docs"), "--db", str(db), "-q")
    with Store.open(db) as store:
        session = Session(store)
        session.select(threshold=0.3)
        session.groups()
        token = CancelToken()
        token.cancel()  # a regroup replaced the groups before their order was found
        with pytest.raises(ScanCancelled):
            lineage_job(session)(token)
