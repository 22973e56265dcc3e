"""The main window's menus and their keyboard shortcuts."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMessageBox

import ndd_desktop


def _add(menu: Any, window: Any, text: str, slot: Any, keys: Any = None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if keys is not None:
        action.setShortcuts([QKeySequence(k) for k in (keys if isinstance(keys, list) else [keys])])
    action.setToolTip(tip or text.replace("&", ""))
    action.setStatusTip(tip)
    action.triggered.connect(lambda _=False: slot())
    menu.addAction(action)
    window.addAction(action)
    return action


def build_menus(w: Any) -> dict[str, Any]:
    """File, View and Help menus of ``w`` (a MainWindow); returns the actions by name."""
    bar = w.menuBar()
    acts: dict[str, QAction] = {}
    f = bar.addMenu("&File")
    acts["open_folder"] = _add(f, w, "Open &folder…", w.choose_folder, QKeySequence.StandardKey.Open,
                               "Open a folder as a new collection")
    acts["open_collection"] = _add(f, w, "Open &collection…", w.choose_collection, "Ctrl+Shift+O",
                                   "Open a saved collection")
    acts["demo"] = _add(f, w, "Try the &demo collection", w.open_demo, None, "Open the demo collection")
    f.addSeparator()
    acts["scan"] = _add(f, w, "&Scan", w.start_scan, "Ctrl+R", "Scan the folders with the chosen method")
    acts["cancel"] = _add(f, w, "&Cancel scan", w.cancel_scan, "Esc", "Stop the running scan, keeping what was done")
    acts["export"] = _add(f, w, "&Export…", w.open_export, "Ctrl+E", "Export the deduplicated set and reports")
    acts["save_as"] = _add(f, w, "Save collection &as…", w.save_collection_as, None,
                           "Keep this collection's store at another place")
    f.addSeparator()
    acts["quit"] = _add(f, w, "&Quit", w.close, QKeySequence.StandardKey.Quit, "Close ndd-desktop")
    v = bar.addMenu("&View")
    acts["start"] = _add(v, w, "&Start page", lambda: w.stack.setCurrentIndex(0), "Ctrl+0", "Back to the start page")
    acts["workspace"] = _add(v, w, "&Workspace", lambda: w.collection and w.stack.setCurrentIndex(1), "Ctrl+9",
                             "The open collection")
    for n, name in enumerate(("Pairs", "Groups", "Methods", "Errors"), start=1):
        acts[f"tab{n}"] = _add(v, w, f"&{name}", lambda n=n: w.tabs.setCurrentIndex(n - 1), f"Ctrl+{n}",
                               f"Show the {name} tab")
    acts["filter"] = _add(v, w, "&Filter pairs", lambda: (w.tabs.setCurrentIndex(0), w.pairs.filter.setFocus()),
                          QKeySequence.StandardKey.Find, "Type to filter the pairs by path")
    acts["setup"] = _add(v, w, "Show scan set-&up", lambda: w.split.widget(0).setVisible(not w.split.widget(0).isVisible()),
                         "Ctrl+B", "Show or hide the folders and method panel")
    h = bar.addMenu("&Help")
    acts["help_menu"] = h
    acts["about"] = _add(h, w, "&About ndd-desktop", lambda: QMessageBox.about(
        w, "About ndd-desktop",
        f"<b>ndd-desktop {ndd_desktop.__version__}</b><p>Find near-duplicate documents in archival "
        "collections. The same scans are available on the command line: <tt>ndd scan FOLDER</tt>.</p>"),
        None, "Version and licence")
    return acts
