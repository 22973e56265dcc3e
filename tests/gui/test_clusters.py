"""Flow 7: the tree of groups and the keeper of each, by rule or by the reviewer."""

from __future__ import annotations

import os

from gui_helpers import make_collection, scan, wait_idle

from ndd_desktop.gui.cluster_tree import DOC_ROLE


def test_groups_tree_and_keepers(qtbot, window, tmp_path):
    folder = make_collection(tmp_path / "docs", families=3, copies=3, singles=2, broken=False)
    # distinct dates: the copies are newer than the originals
    for k, path in enumerate(sorted(folder.iterdir())):
        stamp = 1.0e9 + (0 if "original" in path.name else 1e7) + k * 1000
        os.utime(path, (stamp, stamp))
    window.open_folder(str(folder))
    scan(qtbot, window)
    tree = window.clusters
    groups = window.collection.grouping.groups
    assert tree.model.rowCount() == len(groups) >= 3
    model = tree.model
    head = model.index(0, 0)
    g = groups[0]
    assert model.rowCount(head) == len(g.members)
    members = [model.index(k, 0, head).data(DOC_ROLE) for k in range(model.rowCount(head))]
    assert members == list(g.members)
    assert model.index(0, 1, head).data() == "1.000"  # the principal, scored to itself
    roles = [model.index(k, 2, head).data() for k in range(model.rowCount(head))]
    assert "principal" in roles[0] and sum("★ keeper" in r for r in roles) == 1
    docs = window.collection.data.docs
    # rule: oldest -> the original; newest -> a copy
    tree.rule.setCurrentIndex(tree.rule.findData("oldest"))
    wait_idle(qtbot, window)
    keepers = {gr.group_id: gr.keeper for gr in window.collection.grouping.groups}
    assert all("original" in docs[k].relpath for k in keepers.values())
    tree.rule.setCurrentIndex(tree.rule.findData("newest"))
    wait_idle(qtbot, window)
    assert all("copy" in docs[gr.keeper].relpath for gr in window.collection.grouping.groups)
    # the reviewer's choice wins over the rule, and is saved at once
    group = window.collection.grouping.groups[0]
    choice = next(m for m in group.members if m != group.keeper)
    assert tree.select_document(choice)
    tree.keep_button.click()
    assert choice in window.collection.store.review.keepers()
    from ndd_desktop.gui.formatting import doc_label

    assert window.statusBar().currentMessage() == f"Made keeper: {doc_label(docs[choice])}  (U or Ctrl+Z to undo)"
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: window.collection.grouping.groups[0].keeper == choice, timeout=5000)
    qtbot.waitUntil(lambda: tree.fully_filled(), timeout=5000)
    head = model.index(0, 0)
    row = next(k for k in range(model.rowCount(head)) if model.index(k, 0, head).data(DOC_ROLE) == choice)
    assert "★ keeper" in model.index(row, 2, head).data()


def test_selecting_a_member_compares_it_with_the_principal(qtbot, scanned):
    tree = scanned.clusters
    scanned.tabs.setCurrentWidget(tree)
    group = scanned.collection.grouping.groups[0]
    member = group.members[1]
    with qtbot.waitSignal(scanned.compare.loaded, timeout=10000):
        tree.select_document(member)
    assert scanned.compare.header_a.doc.id == group.principal
    assert scanned.compare.header_b.doc.id == member


def _shown(window) -> tuple[int, int] | None:
    a, b = window.compare.header_a.doc, window.compare.header_b.doc
    return None if a is None or b is None else (a.id, b.id)


def test_the_compare_view_shows_the_selection_of_the_tab_on_screen(qtbot, scanned):
    """A view's selection reaches the compare view only while its tab is shown, and turning
    to a tab shows that tab's selection: never a pair of the Groups tab under the highlighted
    row of the Pairs tab."""
    w = scanned
    assert w.tabs.currentWidget() is w.pairs
    row = min(2, w.pairs.model.total_rows() - 1)
    w.pairs.select_row(row)
    pair = w.pairs.model.pair(row)
    qtbot.waitUntil(lambda: _shown(w) == (pair.a, pair.b) and not w.compare.busy(), timeout=10000)

    # a member of a group that is not that pair, chosen in the Groups tab
    tree = w.clusters
    w.tabs.setCurrentWidget(tree)
    group = next(g for g in w.collection.grouping.groups if {pair.a, pair.b} != {g.principal, g.members[-1]})
    member = next(m for m in group.members if m != group.principal)
    tree.select_document(member)
    qtbot.waitUntil(lambda: _shown(w) == (group.principal, member), timeout=10000)

    # back on the Pairs tab: its own selection, not the group's
    w.tabs.setCurrentWidget(w.pairs)
    assert _shown(w) == (pair.a, pair.b)
    # the group tree selects its member again after a regrouping; on the Pairs tab that is
    # not heard (the pair stays, at a threshold that keeps it)
    w.threshold.set_threshold(max(w.collection.data.floor, 0.35))
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: tree.fully_filled(), timeout=10000)
    assert tree.current_pair() == (group.principal, member)
    assert w.pairs.current_pair() is not None and _shown(w) == (w.pairs.current_pair().a, w.pairs.current_pair().b)

    # a tab with nothing selected shows nothing; one that chooses no documents leaves it
    tree.view.setCurrentIndex(tree.model.index(-1, -1))
    w.tabs.setCurrentWidget(tree)
    assert _shown(w) is None
    w.tabs.setCurrentWidget(w.pairs)
    shown = _shown(w)
    assert shown == (w.pairs.current_pair().a, w.pairs.current_pair().b)
    w.tabs.setCurrentWidget(w.errors)
    assert _shown(w) == shown
    # there the pairs table leads: another method's pair set shows its own first pair
    first_method = w.collection.data.method
    other = "minhash" if first_method != "minhash" else "qgram"
    w.run_method(other)
    qtbot.waitUntil(lambda: w.collection.data is not None and w.collection.data.method == other, timeout=60000)
    wait_idle(qtbot, w)
    first = w.pairs.model.pair(0)
    assert w.pairs.current_row() == 0
    qtbot.waitUntil(lambda: _shown(w) == (first.a, first.b), timeout=10000)

    # the Methods tab's list of the two methods' pairs: a chosen row is compared
    w.tabs.setCurrentWidget(w.methods)
    assert _shown(w) is None  # no row chosen yet
    qtbot.waitUntil(lambda: not w.methods.busy() and w.methods.result is not None
                    and w.methods.model.rowCount() > 0, timeout=20000)
    last = w.methods.model.rowCount() - 1
    w.methods.view.setCurrentIndex(w.methods.model.index(last, 0))
    chosen = w.methods.current_pair()
    assert chosen is not None and _shown(w) == chosen
    # another list (its rows are other pairs): no row is chosen, nothing is compared
    w.methods.which.setCurrentIndex((w.methods.which.currentIndex() + 1) % w.methods.which.count())
    assert w.methods.current_pair() is None and _shown(w) is None
    w.methods.which.setCurrentIndex((w.methods.which.currentIndex() - 1) % w.methods.which.count())
    w.methods.view.setCurrentIndex(w.methods.model.index(last, 0))
    assert _shown(w) == w.methods.current_pair()
    w.tabs.setCurrentWidget(w.pairs)
    assert _shown(w) == (first.a, first.b)

    # a pair only another method found may name documents the pair set shown does not hold:
    # they are read from the store; a document that is gone shows nothing
    from types import SimpleNamespace

    from ndd_desktop.gui.compare_follow import _documents

    none_held = SimpleNamespace(docs={})
    a, b = _documents(w.collection, none_held, chosen)
    assert (a.id, b.id) == chosen and a.relpath and b.relpath
    assert _documents(w.collection, none_held, (chosen[0], 10**9)) is None


def test_grouping_mode_switches_and_chained_members_say_so(qtbot, window, tmp_path):
    from ndd_desktop.gui.cluster_tree import _score_text
    from ndd_desktop.pipeline.grouping import DocGroup

    folder = make_collection(tmp_path / "docs", families=2, copies=3, singles=1, broken=False)
    window.open_folder(str(folder))
    scan(qtbot, window)
    tree = window.clusters
    assert tree.mode.currentData() == "components" and window.collection.grouping_mode == "components"
    tree.mode.setCurrentIndex(tree.mode.findData("principal"))
    wait_idle(qtbot, window)
    assert window.collection.grouping_mode == "principal"
    assert all(g.linked(m) for g in window.collection.grouping.groups for m in g.members)
    g = DocGroup(1, 10, [10, 11, 12, 13], {10: 1.0, 11: 0.8, 12: 0.41, 13: None}, 10,
                 {10: True, 11: True, 12: False, 13: False})
    assert [_score_text(g, m) for m in g.members] == ["1.000", "0.800", "0.410 via others", "– via others"]


def test_documents_kept_apart_by_a_verdict_are_named_in_the_groups_tab(qtbot, window, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    text = "the parish council approved the repairs to the church roof and the new lych gate " * 15
    (folder / "minutes.txt").write_text(text)
    (folder / "minutes-copy.txt").write_text(text + " signed")
    window.open_folder(str(folder))
    scan(qtbot, window)
    tree = window.clusters
    assert len(window.collection.grouping.groups) == 1 and "kept apart" not in tree.summary.text()
    docs = window.collection.data.docs
    a, b = sorted(docs)
    window.collection.set_verdict(a, b, "not_duplicate")
    qtbot.waitUntil(lambda: not window.collection.grouping.groups, timeout=10000)
    wait_idle(qtbot, window)
    assert "0 groups" in tree.summary.text() and "2 kept apart by your verdicts" in tree.summary.text()
    assert "docs/minutes.txt" in tree.summary.toolTip() and "docs/minutes-copy.txt" in tree.summary.toolTip()
