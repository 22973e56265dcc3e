"""``store.settings``: settings kept in the collection file, a key -> JSON value table.

What a reviewer settles on for a collection (the threshold of each pair set, the keeper
rule, the grouping) belongs to the collection, not to the application: a copy of the
file, or "Save as", takes it along, and the command line reads the same values. Each
write is synced to disk like a review decision.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import Store

#: The keeper rule the reviewer chose (a ``pipeline.grouping.KEEPER_RULES`` name).
KEEPER_RULE_KEY = "keeper_rule"
#: The grouping the reviewer chose (a ``pipeline.grouping.GROUPINGS`` name).
GROUPING_KEY = "grouping"


def threshold_key(method: str, pairs_key: str) -> str:
    """The key of the threshold settled on for one pair set (a method with its parameters):
    ``threshold/<method>/<pairs_key>``, so that it is never applied to another."""
    return f"threshold/{method}/{pairs_key}"


class Settings:
    """Settings of a :class:`~ndd_desktop.store.Store` (``store.settings``)."""

    def __init__(self, db: "Store") -> None:
        self._db = db

    def get(self, key: str, default: Any = None) -> Any:
        """The value stored under ``key`` (decoded from JSON), ``default`` when there is none."""
        with self._db._read() as conn:
            row = conn.exec_driver_sql("SELECT value FROM settings WHERE key = ?", (str(key),)).first()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:  # a value this code did not write: as if there were none
            return default

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` (anything JSON can encode) under ``key``, replacing the old one.

        Raises:
            ValueError: an empty key, or a value JSON cannot encode (NaN and infinity included).
        """
        key = str(key)
        if not key:
            raise ValueError("a setting needs a key")
        try:
            encoded = json.dumps(value, sort_keys=True, allow_nan=False, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"setting {key!r}: cannot store {value!r} ({exc})") from None
        with self._db._write(durable=True) as conn:
            conn.exec_driver_sql(
                "INSERT INTO settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, encoded),
            )

    def saved_threshold(self, method: str, pairs_key: str) -> float | None:
        """The threshold saved for the pair set of ``method`` and ``pairs_key``, None when
        there is none (or what is stored is not a score from 0 to 1)."""
        value = self.get(threshold_key(method, pairs_key))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return None
        return float(value) if 0.0 <= value <= 1.0 else None

    def all(self) -> dict[str, Any]:
        """Every stored setting, by key."""
        with self._db._read() as conn:
            rows = conn.exec_driver_sql("SELECT key, value FROM settings ORDER BY key").fetchall()
        out = {}
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except ValueError:
                continue
        return out
