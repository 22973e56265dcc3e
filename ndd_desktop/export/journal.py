"""The resume journal: ``DEST/.ndd-export.jsonl``, one JSON object per line.

The first line names the plan (its identity hash); each verified file adds a line; the
last line of a finished export says so. A rerun into the same destination with the same
plan skips every file the journal lists that is still there with its size and modification
time; any other non-empty destination is refused. Appending a line per file keeps a crash from costing
more than the file being copied, and a torn last line is ignored.
"""

from __future__ import annotations

import json
import os
import time

from .errors import DestinationRefused, ExportError
from .layout import JOURNAL_NAME

_KIND = "ndd-export"
_VERSION = 1
_SYNC_EVERY = 64


class Journal:
    """The journal of one export into one destination."""

    def __init__(self, dest: str, plan_id: str, guard):
        self.dest = dest
        self.path = os.path.join(dest, JOURNAL_NAME)
        self.plan_id = plan_id
        self.guard = guard
        self.done: dict[str, dict] = {}
        self.state = "new"
        self.resumed = False
        self._fh = None
        self._unsynced = 0
        self._lines: list[str] = []

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, dest: str, plan_id: str, guard) -> "Journal":
        """Start a journal in a new or empty ``dest``, or resume the one found there.

        Raises:
            ExportError: ``dest`` is not empty and holds no journal of this plan.
        """
        journal = cls(dest, plan_id, guard)
        if not os.path.exists(dest):
            try:
                os.makedirs(guard.check(dest))
            except OSError as exc:  # said "[Errno 2] No such file or directory" alone
                raise DestinationRefused(
                    f"cannot create the destination folder {dest!r}: {exc.strerror or exc}: choose a "
                    "folder on a disk you can write to") from None
        entries = os.listdir(dest)
        if JOURNAL_NAME in entries:
            if not journal._load():
                if entries != [JOURNAL_NAME]:
                    raise ExportError(f"{journal.path!r} is not an ndd export journal")
                # our own journal, torn before its first line was on disk (a full disk, a
                # kill): the export never began, so it starts again
                os.remove(journal.guard.check(journal.path))
        elif entries:
            if "bagit.txt" in entries or "data" in entries:  # bagit moves the payload into data/ first
                raise DestinationRefused(
                    f"the destination {dest!r} already holds a bag (or an export interrupted "
                    "while it was being bagged, which left its files in data/ and no journal): "
                    "choose a new or empty folder (the export's copies there can be deleted: "
                    "the originals are never in it)")
            raise DestinationRefused(f"the destination {dest!r} is not empty and holds no unfinished "
                              "export of this plan: choose a new or empty folder")
        journal._open_append()
        return journal

    def _load(self) -> bool:
        """Read the journal; False when it holds no complete line at all."""
        with open(self.path, "r", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
        records = []
        for line in lines:
            try:
                records.append(json.loads(line))
            except ValueError:
                continue  # a line torn by a crash
        if not records:
            return False
        if not isinstance(records[0], dict) or records[0].get("journal") != _KIND:
            raise ExportError(f"{self.path!r} is not an ndd export journal")
        if records[0].get("plan_id") != self.plan_id:
            raise ExportError(
                f"the destination {self.dest!r} holds an export of a different plan (the "
                "scan, the decisions or the options changed): choose a new or empty folder")
        self.resumed = True
        self.state = "copying"
        for rec in records[1:]:
            if "done" in rec:
                self.done[rec["done"]] = rec
            elif "state" in rec:
                self.state = rec["state"]
            elif "undone" in rec:
                self.done.pop(rec["undone"], None)
        return True

    def _open_append(self) -> None:
        fresh = not os.path.exists(self.path)
        try:
            self._fh = open(self.guard.check(self.path), "a", encoding="utf-8")
            if fresh:
                self._write({"journal": _KIND, "version": _VERSION, "plan_id": self.plan_id,
                             "created": time.time()}, sync=True)
        except OSError as exc:
            raise ExportError(f"cannot write the export's journal in {self.dest!r}: "
                              f"{exc.strerror or exc}") from None
        if fresh:
            self.state = "copying"

    # -- writing ------------------------------------------------------------------------
    def _write(self, record: dict, sync: bool = False) -> None:
        self._fh.write(json.dumps(record, ensure_ascii=True) + "\n")
        self._fh.flush()
        self._unsynced += 1
        if sync or self._unsynced >= _SYNC_EVERY:
            os.fsync(self._fh.fileno())
            self._unsynced = 0

    def record(self, target: str, sha256: str, size: int, how: str, mtime_ns: int | None = None) -> None:
        """Note a verified file (``target`` relative to the payload folder) with the
        modification time it has in DEST, which a rerun compares with its size."""
        rec = {"done": target, "sha256": sha256, "size": size, "how": how}
        if mtime_ns is not None:
            rec["mtime_ns"] = mtime_ns
        self.done[target] = rec
        self._write(rec)

    def forget(self, target: str) -> None:
        """Drop a file whose copy is gone or damaged, so it is copied again."""
        self.done.pop(target, None)
        self._write({"undone": target})

    def set_state(self, state: str) -> None:
        """Record the export's state ("copied", "complete", ...)."""
        self.state = state
        self._write({"state": state, "time": time.time()}, sync=True)

    def close(self) -> None:
        """Flush and close the journal file (closed even when the flush fails: a full disk)."""
        if self._fh is not None:
            fh, self._fh = self._fh, None
            try:
                fh.flush()
                os.fsync(fh.fileno())
            finally:
                fh.close()

    # -- stepping aside while a bag is made ----------------------------------------------
    def detach(self) -> None:
        """Close and remove the journal file (bagit moves everything in DEST into data/)."""
        self.close()
        with open(self.path, "r", encoding="utf-8") as fh:
            self._lines = fh.read().splitlines()
        os.remove(self.guard.check(self.path))

    def reattach(self) -> None:
        """Write the journal back after :meth:`detach` and reopen it for appending."""
        with open(self.guard.check(self.path), "w", encoding="utf-8") as fh:
            fh.write("".join(line + "\n" for line in self._lines))
        self._lines = []
        self._open_append()
