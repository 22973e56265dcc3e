"""The compare view shows what the tab on screen has selected.

Four views choose two documents to compare: the pairs table, the group tree, the list of the
Methods tab (the pairs two methods agree or disagree on) and the folder pairs' side-by-side
list. Each reports its selection when it changes, also while its tab is hidden: the group
tree selects its document again after every regrouping (a new threshold, another method),
the pairs table its pair after a new threshold. The compare view used to show whichever
spoke last, so a pair of the Groups tab could stand under the highlighted row of the Pairs
tab. Now only the view that leads is heard: the one whose tab is on screen, else the pairs
table (the tabs that choose no documents, Errors and Threads, leave it to the pairs table,
whose new pair set shows its first pair as before). Turning to a tab that chooses documents
shows its selection (an empty compare view when it has none); turning to another changes
nothing. When a new pair set comes, the leading view's selection is shown again from the
new documents, or nothing when they are gone; so does another list of the Methods tab
(which has no row chosen yet).
"""

from __future__ import annotations

from typing import Any, Callable

DocPair = tuple[int, int]


def install_compare_follow(window: Any) -> None:
    """Wire the views that choose documents to ``window.compare`` through the rule above."""
    current: dict[Any, Callable[[], DocPair | None]] = {
        window.pairs: lambda: _pair_ids(window.pairs.current_pair()),
        window.clusters: window.clusters.current_pair,
        window.methods: window.methods.current_pair,
        window.folders: window.folders.current_documents,
    }
    shown: dict[str, Any] = {"data": None, "ids": None}  # what the compare view was given last

    def leader() -> Any:
        view = window.tabs.currentWidget()
        return view if view in current else window.pairs

    def show(view: Any, ids: DocPair | None) -> None:
        if view is not leader():
            return
        collection = window.collection
        data = collection.data if collection is not None else None
        docs = None if ids is None or data is None else _documents(collection, data, ids)
        if docs is None:
            window.compare.clear()
            shown.update(data=None, ids=None)
            return
        if shown["data"] is data and shown["ids"] == ids and window.compare.header_a.doc is not None:
            return  # turning back to a tab: not read and compared again
        store = collection.store
        window.compare.show_pair(*docs, store.documents.text, store.documents.text_missing)
        shown.update(data=data, ids=ids)

    def refresh() -> None:
        view = leader()
        show(view, current[view]())

    window.pairs.pairSelected.connect(lambda pair: show(window.pairs, _pair_ids(pair)))
    window.clusters.memberSelected.connect(lambda a, b: show(window.clusters, (a, b)))
    window.methods.pairChosen.connect(lambda a, b: show(window.methods, (a, b)))
    window.folders.documentsChosen.connect(lambda a, b: show(window.folders, (a, b)))
    window.tabs.currentChanged.connect(lambda _index: window.tabs.currentWidget() in current and refresh())
    window.pairs.model.modelReset.connect(refresh)  # a new pair set, or none
    window.methods.model.modelReset.connect(refresh)  # another list of the Methods tab: no row chosen


def _pair_ids(pair: Any) -> DocPair | None:
    return None if pair is None else (pair.a, pair.b)


def _documents(collection: Any, data: Any, ids: DocPair) -> tuple[Any, Any] | None:
    """The two documents: from the pair set's documents, else (a pair only another method
    found names documents the pair set does not) read from the store; None when one is gone."""
    found = {d: data.docs.get(d) for d in ids}
    missing = [d for d, doc in found.items() if doc is None]
    if missing:
        found.update({doc.id: doc for doc in collection.store.documents.all(missing)})
    a, b = (found.get(d) for d in ids)
    return None if a is None or b is None else (a, b)
