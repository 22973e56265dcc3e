"""The compare view shows what the tab on screen has selected.

Three views choose two documents to compare: the pairs table, the group tree and the folder
pairs' side-by-side list. Each reports its selection when it changes, also while its tab is
hidden: the group tree selects its document again after every regrouping (a new threshold,
another method), the pairs table its pair after a new threshold. The compare view used to
show whichever spoke last, so a pair of the Groups tab could stand under the highlighted row
of the Pairs tab. Now only the view on screen is heard, and turning to a tab shows that
view's selection (an empty compare view when it has none). The tabs that choose no documents
(Methods, Errors, Threads) leave the compare view as it is.
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

    def show(view: Any, docs: DocPair | None) -> None:
        if window.tabs.currentWidget() is not view:
            return
        if docs is None:
            window.compare.clear()
        elif not _holds(window, docs):
            window._show_docs(*docs)

    window.pairs.pairSelected.connect(lambda pair: show(window.pairs, _pair_ids(pair)))
    window.clusters.memberSelected.connect(lambda a, b: show(window.clusters, (a, b)))
    window.folders.documentsChosen.connect(lambda a, b: show(window.folders, (a, b)))

    def turned(_index: int) -> None:
        view = window.tabs.currentWidget()
        if view in current:
            show(view, current[view]())

    window.tabs.currentChanged.connect(turned)


def _pair_ids(pair: Any) -> DocPair | None:
    return None if pair is None else (pair.a, pair.b)


def _holds(window: Any, docs: DocPair) -> bool:
    """Whether the compare view holds these two documents of the collection's current data
    already (turning back to a tab does not read and compare them again; after a rescan the
    data are new, and so is the comparison)."""
    data = window.collection.data if window.collection is not None else None
    if data is None:
        return False
    a, b = (data.docs.get(d) for d in docs)
    return a is not None and b is not None and window.compare.header_a.doc is a and window.compare.header_b.doc is b
