"""What the window remembers between runs, kept in QSettings."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 10


class Settings:
    """A typed wrapper around QSettings: layout, last method and parameters, recent stores.

    Pass a QSettings (for example an INI file in a temporary folder) to keep tests away
    from the user's real settings.
    """

    def __init__(self, qsettings: QSettings | None = None):
        self._q = qsettings if qsettings is not None else QSettings("ndd-desktop", "ndd-desktop")

    @classmethod
    def at(cls, path: str) -> "Settings":
        """Settings kept in an INI file at ``path``."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    def sync(self) -> None:
        """Write pending changes to disk."""
        self._q.sync()

    # -- layout ---------------------------------------------------------------------------
    def state(self, key: str) -> QByteArray | None:
        """A saved geometry or splitter state, or None."""
        value = self._q.value(f"layout/{key}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_state(self, key: str, value: QByteArray) -> None:
        """Save a geometry or splitter state."""
        self._q.setValue(f"layout/{key}", value)

    # -- method ---------------------------------------------------------------------------
    def last_method(self) -> str | None:
        """The method chosen last time."""
        value = self._q.value("method/last")
        return str(value) if value else None

    def set_last_method(self, name: str) -> None:
        """Remember the chosen method."""
        self._q.setValue("method/last", name)

    def method_params(self, name: str) -> dict[str, Any]:
        """The parameters last used with ``name`` (empty when none)."""
        raw = self._q.value(f"method/params/{name}")
        try:
            value = json.loads(raw) if raw else {}
        except (TypeError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    def set_method_params(self, name: str, params: dict[str, Any]) -> None:
        """Remember the parameters used with ``name``."""
        self._q.setValue(f"method/params/{name}", json.dumps(params, sort_keys=True))

    # -- recent collections ---------------------------------------------------------------
    def recent(self) -> list[str]:
        """Recently opened store files, newest first."""
        raw = self._q.value("recent/stores")
        try:
            value = json.loads(raw) if raw else []
        except (TypeError, ValueError):
            return []
        return [str(v) for v in value if isinstance(v, str)]

    def add_recent(self, path: str) -> None:
        """Put ``path`` first in the recent list."""
        items = [p for p in self.recent() if p != path]
        items.insert(0, path)
        self._q.setValue("recent/stores", json.dumps(items[:MAX_RECENT]))

    def remove_recent(self, path: str) -> None:
        """Forget ``path`` (a store that no longer opens)."""
        self._q.setValue("recent/stores", json.dumps([p for p in self.recent() if p != path]))

    # -- misc -----------------------------------------------------------------------------
    def value(self, key: str, default: Any = None) -> Any:
        """Any other remembered value."""
        return self._q.value(key, default)

    def set_value(self, key: str, value: Any) -> None:
        """Remember any other value."""
        self._q.setValue(key, value)
