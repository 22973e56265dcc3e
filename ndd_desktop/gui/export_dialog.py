"""The export dialog: where to, copy or hard link, BagIt, which reports; runs on a worker."""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..export import MODES, REPORT_FORMATS, ExportError, ExportOptions, plan_export, run_export
from . import compare_view
from .cluster_tree import RULE_LABELS
from .scan_progress import EXPORT_STAGE_NAMES, describe
from .worker import Worker

MODE_LABELS = {"copy": "Copy the files", "hardlink": "Hard-link the files (same disk, no extra space)"}


class ExportDialog(QDialog):
    """Export the deduplicated set of the open pair set at the current threshold."""

    exported = Signal(object)  # ExportResult

    def __init__(self, store: Any, choices: dict[str, Any], parent: QWidget | None = None):
        """``choices``: ``app.session.Session.export_choices()`` when the dialog opens (the
        pair set, threshold, keeper rule, grouping and folder priority shown then)."""
        super().__init__(parent)
        self.setWindowTitle("Export the deduplicated set")
        self.store = store
        self._base = dict(choices)
        self.worker: Worker | None = None
        self.result_value: Any = None
        self.dest = QLineEdit(self)
        self.dest.setObjectName("exportDest")
        self.dest.setPlaceholderText("A new or empty folder")
        self.dest.setToolTip("Where the deduplicated copies and the reports go (a new or empty folder, "
                             "outside the scanned folders)")
        browse = QPushButton("Browse…", self)
        browse.setToolTip("Choose the destination folder")
        browse.clicked.connect(self._browse)
        dest_row = QHBoxLayout()
        dest_row.addWidget(self.dest, 1)
        dest_row.addWidget(browse)
        self.mode = QComboBox(self)
        self.mode.setToolTip("Copies are independent; hard links save space but need the same disk")
        for m in MODES:
            self.mode.addItem(MODE_LABELS.get(m, m), m)
        self.bagit = QCheckBox("Package as a BagIt bag (RFC 8493)", self)
        self.bagit.setToolTip("Write the set with checksum manifests so its integrity can be verified later")
        self.covered = QCheckBox("Leave out folders covered by another", self)
        self.covered.setObjectName("exportCoveredFolders")
        self.covered.setToolTip("Leave out whole folders whose every document has a duplicate in another exported "
                                "folder (see the Folders tab); the reports name the covering folder")
        self.inclusive = QCheckBox("Only inclusive e-mails", self)
        self.inclusive.setObjectName("exportInclusiveEmails")
        self.inclusive.setToolTip("Leave out e-mails whose text a later message of their thread quotes, and their "
                                  "attachments exported elsewhere (see the Threads tab)")
        self.reports: dict[str, QCheckBox] = {}
        report_row = QHBoxLayout()
        for fmt in REPORT_FORMATS:
            box = QCheckBox(fmt.upper(), self)
            box.setChecked(True)
            box.setToolTip(f"Write a {fmt.upper()} report of the groups and the documents left out")
            self.reports[fmt] = box
            report_row.addWidget(box)
        report_row.addStretch(1)
        form = QFormLayout()
        dest_label = QLabel("&Destination:", self)
        dest_label.setBuddy(self.dest)
        mode_label = QLabel("&Mode:", self)
        mode_label.setBuddy(self.mode)
        form.addRow(dest_label, dest_row)
        form.addRow(mode_label, self.mode)
        form.addRow("", self.bagit)
        form.addRow("", self.covered)
        form.addRow("", self.inclusive)
        form.addRow("Reports:", report_row)
        self.summary = QLabel(
            f"Groups of <b>{choices['method']}</b> pairs at threshold <b>{choices['threshold']:.3f}</b>; "
            "keeper rule "
            f"<b>{RULE_LABELS.get(choices['keeper_rule'], choices['keeper_rule'])}</b> (a keeper you chose with <i>Make keeper</i> "
            "comes first). Each group's keeper is exported, and every member no kept document "
            "holds (a chain's far end, a reply with text of its own), with every unique one.", self)
        self.summary.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("exportProgress")
        self.progress.hide()
        self._finished = False  # whether the last export put every planned file in place
        self.status = QLabel(self)
        self.status.setObjectName("exportStatus")
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox(self)
        self.export_button = self.buttons.addButton("&Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setToolTip("Start the export (it runs in the background; you can cancel it)")
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setToolTip("Stop the export (verified copies stay; exporting again resumes) or close")
        self.open_button = self.buttons.addButton("Show folder", QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setToolTip("Open the destination folder")
        self.open_button.hide()
        self.export_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self._cancel)
        self.open_button.clicked.connect(lambda: compare_view.open_url(QUrl.fromLocalFile(self.dest.text())))
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addLayout(form)
        lay.addWidget(self.progress)
        lay.addWidget(self.status)
        lay.addWidget(self.buttons)
        self.resize(620, self.sizeHint().height())

    def _browse(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Export to folder", self.dest.text() or os.path.expanduser("~"))
        if path:
            self.dest.setText(path)

    def typed(self) -> dict[str, Any]:
        """What the user chose in the dialog (its fields), to show again when it opens next."""
        return {"dest": self.dest.text(), "mode": self.mode.currentData(), "bagit": self.bagit.isChecked(),
                "reports": [f for f, box in self.reports.items() if box.isChecked()],
                "covered": self.covered.isChecked(), "inclusive": self.inclusive.isChecked()}

    def restore(self, typed: dict[str, Any]) -> None:
        """Fill the fields with what :meth:`typed` gave (Esc lost a typed destination and
        the BagIt choice)."""
        self.dest.setText(typed.get("dest", ""))
        at = self.mode.findData(typed.get("mode"))
        if at >= 0:
            self.mode.setCurrentIndex(at)
        self.bagit.setChecked(bool(typed.get("bagit")))
        for fmt, box in self.reports.items():
            box.setChecked(fmt in typed.get("reports", REPORT_FORMATS))
        self.covered.setChecked(bool(typed.get("covered")))
        self.inclusive.setChecked(bool(typed.get("inclusive")))

    def options(self) -> ExportOptions:
        """The options as the dialog shows them (raises ExportError when incomplete)."""
        return ExportOptions(
            dest=self.dest.text().strip(),
            mode=self.mode.currentData(),
            bagit=self.bagit.isChecked(),
            reports=tuple(f for f, box in self.reports.items() if box.isChecked()),
            leave_out_covered_folders=self.covered.isChecked(),
            emails="inclusive" if self.inclusive.isChecked() else "all",
            **self._base,
        )

    def start(self) -> bool:
        """Check the options and run the export on a worker thread."""
        if self.worker is not None:
            return False
        try:
            options = self.options()
        except Exception as exc:  # ExportError: shown, not raised
            self.status.setText(f"<span style='color:#a33'>{exc}</span>")
            return False
        store = self.store

        def job(progress, cancel):
            plan = plan_export(store, options)
            return run_export(store, options, progress=progress, cancel=cancel, plan=plan)

        self.worker = Worker(job, name="export", told=(ExportError,), parent=self)
        self._finished = False
        self.worker.progress.connect(self._on_progress)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(lambda m: self.status.setText(f"<span style='color:#a33'>Export failed: {m}</span>"))
        self.worker.cancelled.connect(lambda: self.status.setText(
            "Export cancelled. The files copied so far are verified and kept; exporting again resumes."))
        self.worker.done.connect(self._on_done)
        self.export_button.setEnabled(False)
        self.cancel_button.setText("Cancel export")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText("Planning…")
        self.worker.start()
        return True

    def _on_progress(self, p: Any) -> None:
        if p.total:
            self.progress.setRange(0, int(p.total))
            self.progress.setValue(min(int(p.done), int(p.total)))
        else:
            self.progress.setRange(0, 0)
        self.status.setText(describe(p, EXPORT_STAGE_NAMES).replace("Done", "Finishing"))

    def _on_finished(self, result: Any) -> None:
        self.result_value = result
        self._finished = not result.failed
        done = result.copied + result.linked + result.skipped
        parts = [f"Exported {done:,} of {result.files_planned:,} files to {result.dest}",
                 f"({result.copied:,} copied, {result.linked:,} linked, {result.skipped:,} already there)"]
        if result.left_out:
            parts.append(f"· {result.left_out:,} document{'s' if result.left_out != 1 else ''} left out")
        if result.reports:
            parts.append("· reports: " + ", ".join(os.path.basename(r) for r in result.reports))
        if result.bag and result.already_complete:
            parts[0] = f"The bag in {result.dest} was already complete ({result.files_planned:,} files)"
            parts.pop(1)
        if result.bag:
            parts.append("· bag valid" if result.bag_valid else f"· bag: {result.bag_message}")
        if result.failed:
            parts.append(f"· <span style='color:#a33'>{len(result.failed)} files failed</span>")
        parts += [f"· <span style='color:#a60'>{s}</span>" for s in result.to_read_first()]
        self.status.setText(" ".join(parts))
        self.open_button.show()
        self.exported.emit(result)

    def _on_done(self) -> None:
        self.worker = None
        self.progress.setRange(0, 1)
        # full only for an export that put every planned file in place; a failed or
        # cancelled one leaves no bar that reads as done
        self.progress.setValue(1 if self._finished else 0)
        self.progress.setVisible(self._finished)
        self.export_button.setEnabled(True)
        self.cancel_button.setText("Close")

    def _cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
        else:
            self.reject()

    def done(self, code: int) -> None:  # noqa: D401 - Qt override
        """Close, but never while the export runs (cancel it first)."""
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait()
        super().done(code)
