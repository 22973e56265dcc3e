"""Starting, stopping and following a scan from the window: the scan set-up's request, the
runner's outcome, what the window shows after it.

A mixin of :class:`~ndd_desktop.gui.main_window.MainWindow`, kept apart so the window
module holds layout and wiring only.
"""

from __future__ import annotations

from typing import Any

from ..app.elapsed import elapsed


class ScanEventsMixin:
    """The scan handling of the main window."""

    def start_scan(self, method: str | None = None, params: dict | None = None) -> bool:
        """Scan the listed folders with the chosen method on the worker thread."""
        if self.collection is None or self.scan.running():
            return False
        if self.collection.store.read_only:
            self._warn(f"{self.collection.store.path} is read-only: a scan writes to its collection file. "
                       "Copy it to a writable folder (Save as) to scan.")
            return False
        roots = self.setup.roots()
        if not roots:
            self._warn("Add at least one folder to scan.")
            return False
        if method and method != self.setup.method_name():
            self.setup.set_method(method, params or {})
        method = method or self.setup.method_name()
        params = self.setup.params() if params is None else params
        self.settings.set_last_method(method)
        self.settings.set_method_params(method, params)
        self.errors.clear()
        self.setup.set_busy(True)
        self.progress.start(f"Scanning with {method}…")
        self.statusBar().showMessage(f"Scanning {len(roots)} folder(s) with {method}…")
        return self.scan.start(self.collection.store, roots, method, params, html=self.setup.html_choice())

    def run_method(self, name: str) -> bool:
        """Scan the same folders with another method (its default parameters)."""
        return self.start_scan(name, {})

    def cancel_scan(self) -> None:
        """Stop the running scan (what was done is kept)."""
        if self.scan.running():
            self.progress._cancel()

    def _reload_errors(self) -> int:
        """Show every file the collection could not use, not only those of the last scan
        (an unchanged failed file is not read again, so the scan does not report it)."""
        self.errors.clear()
        if self.collection is not None:
            self.errors.add(self.collection.store.documents.errors(in_part=True))
        return self.errors.count()

    def _scan_finished(self, summary: Any) -> None:
        failed = self._reload_errors()
        if summary.documents == 0:
            # Nothing was read: say so, and where the files that were met went.
            where = "folder holds" if len(self.setup.roots()) == 1 else "folders hold"
            text = f"Done: the {where} no readable documents."
            if failed:
                text += (f" {failed:,} file{'s' if failed != 1 else ''} could not be read: "
                         "see the Errors tab.")
            self.progress.finish(text)
            self.statusBar().showMessage("Scan finished: " + text[len("Done: "):])
            if failed:
                from .main_window import TAB_ERRORS  # the tab order is the window's

                self.tabs.setCurrentIndex(TAB_ERRORS)
        else:
            unused = (f"; {failed:,} file{'s' if failed != 1 else ''} skipped or failed (Errors tab)"
                      if failed else "")
            note = ""
            if self.collection is not None:  # a collection of tables scanned with a passage search
                from ..pipeline.completeness import short_run_note

                note = short_run_note(self.collection.store, self.scan.method)
            changes = self.scan.changes
            lapsed = changes.lapsed_note() if changes is not None else ""
            notes = "".join(f". Note: {n}" for n in (note, lapsed) if n)
            self.progress.finish(f"Done: {summary.documents:,} documents, {summary.pairs:,} pairs "
                                 f"in {elapsed(summary.seconds)}{unused}{notes}" + ("." if notes else ""))
            self.statusBar().showMessage(
                f"Scan finished: {summary.documents:,} documents ({summary.new:,} new, {summary.changed:,} changed), "
                f"{summary.errors:,} errors, {summary.pairs:,} pairs.")
        warnings = self.scan.changes.emptied_warnings() if self.scan.changes is not None else []
        if warnings:  # a folder that emptied (a drive not mounted): every document of it went
            self._warn("\n".join(w[:1].upper() + w[1:] + "." for w in warnings))
        if self.collection is not None:
            s = self.scan
            self.collection.load_pair_set(s.method, s.params, s.pairs_key, s.floor)

    def _scan_cancelled(self) -> None:
        # the store's count, not the last progress report's: the writer keeps documents read
        # after that report (the line said "948 of 1,500" where 1,204 were kept)
        kept = self.collection.store.documents.count(status=None) if self.collection is not None else None
        if kept is None:
            self.progress.stopped("What was read is kept; scan again to continue.")
        else:
            self.progress.stopped(f"What was read is kept: the collection holds {kept:,} "
                                  f"document{'' if kept == 1 else 's'}; scan again to continue.", counted=False)
        self.statusBar().showMessage("Scan cancelled. Documents read so far are kept in the store.")

    def _scan_failed(self, message: str) -> None:
        message = message[:1].upper() + message[1:]  # a told stop's advice reads as a sentence here
        self.progress.stopped(message, "Failed")
        self._warn(f"The scan stopped: {message}")  # one line: the status bar shows all of it

    def _scan_done(self) -> None:
        self.setup.set_busy(False)
        if self.scan.outcome != "finished":
            self._reload_errors()  # a stopped scan still recorded what it read
        # After a finished scan its pair set is being loaded, and _pair_set_loaded updates the
        # comparison with it; here only for scans that stopped (their store may have changed).
        if self.collection is not None and self.scan.outcome != "finished":
            self.methods.set_store(self.collection.store, self.collection.data.docs if self.collection.data else {})
