"""The compare view shows what the tab on screen has selected.

Three views choose two documents to compare: the pairs table, the group tree and the folder
pairs' side-by-side list. Each reports its selection when it changes, also while its tab is
hidden: the group tree selects its document again after every regrouping (a new threshold,
another method), the pairs table its pair after a new threshold. The compare view used to
show whichever spoke last, so a pair of the Groups tab could stand under the highlighted row
of the Pairs tab. Now only the view that leads is heard: the Groups or Folders tab when it
is on screen, else the pairs table (the tabs that choose no documents, Methods, Errors and
Threads, leave it to the pairs table, whose new pair set shows its first pair as before).
Turning to the Pairs, Groups or Folders tab shows that tab's selection (an empty compare
view when it has none); turning to another tab changes nothing. When a new pair set comes,
the leading view's selection is shown again from the new documents, or nothing when its
documents are gone.
"""

from __future__ import annotations

from typing import Any, Callable

DocPair = tuple[int, int]


def install_compare_follow(window: Any) -> None:
    """Wire the pairs table, the group tree and the folder pairs to ``window.compare``
    through the rule above (``window._show_docs(a, b)`` shows two documents)."""
    current: dict[Any, Callable[[], DocPair | None]] = {
        window.pairs: lambda: _pair_ids(window.pairs.current_pair()),
        window.clusters: window.clusters.current_pair,
        window.folders: window.folders.current_documents,
    }

    def leader() -> Any:
        view = window.tabs.currentWidget()
        return view if view in current else window.pairs

    def show(view: Any, docs: DocPair | None) -> None:
        if view is not leader():
            return
        data = window.collection.data if window.collection is not None else None
        if docs is None or data is None or not all(d in data.docs for d in docs):
            window.compare.clear()
        elif not _holds(window, data.docs, docs):
            window._show_docs(*docs)

    def refresh() -> None:
        view = leader()
        show(view, current[view]())

    window.pairs.pairSelected.connect(lambda pair: show(window.pairs, _pair_ids(pair)))
    window.clusters.memberSelected.connect(lambda a, b: show(window.clusters, (a, b)))
    window.folders.documentsChosen.connect(lambda a, b: show(window.folders, (a, b)))
    window.tabs.currentChanged.connect(lambda _index: window.tabs.currentWidget() in current and refresh())
    window.pairs.model.modelReset.connect(refresh)  # a new pair set, or none


def _pair_ids(pair: Any) -> DocPair | None:
    return None if pair is None else (pair.a, pair.b)


def _holds(window: Any, docs: Any, ids: DocPair) -> bool:
    """Whether the compare view holds these two documents of the current data already
    (turning back to a tab does not read and compare them again; after a rescan the data
    are new, and so is the comparison)."""
    a, b = (docs.get(d) for d in ids)
    return window.compare.header_a.doc is a and window.compare.header_b.doc is b
