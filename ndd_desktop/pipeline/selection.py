"""The one policy for what a reader of the collection is shown: which pair set, which threshold,
which keeper rule and grouping.

The window, ``ndd`` and the export all resolve their choices here (``app.selection`` is the
entry point of the window and the CLI; ``export.options`` calls this module directly, since
export sits below ``app`` in the layers). It reads only the store and the method registry,
holds no state and writes nothing.

- **Pair set**: a pair-set key names it exactly; method parameters name the pair set of
  those parameters; a method name alone names the pair set of its newest finished scan
  whose pairs are stored (an unchanged rescan does not renew its pair set, so "newest pair
  set" could name an older choice), else its newest pair set. No method at all: the method
  of the newest finished scan.
- **Threshold**: the one given, else the one saved with the collection for that pair set
  (the reviewer's), else the method's default under the pair set's parameters.
- **Keeper rule and grouping**: the one given, else the one saved with the collection,
  else the first of the known choices (``reference-oldest``, ``components``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.methods import get_method
from ..store import Settings
from ..store.settings import GROUPING_KEY, KEEPER_RULE_KEY
from .group_rules import GROUPINGS, KEEPER_RULES


class SelectionError(Exception):
    """The collection cannot show what was asked.

    ``usage`` is true when the request itself is wrong (an unknown method, bad parameters,
    an unknown keeper rule), false when the collection lacks it (no scan, no such pairs).
    """

    def __init__(self, message: str, *, usage: bool = False):
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class PairSetChoice:
    """The pair set chosen: the method object, its parameters object, and the store's ``PairSet``."""

    method: Any
    params: Any
    pair_set: Any

    @property
    def name(self) -> str:
        """The method's name."""
        return self.method.name

    @property
    def pairs_key(self) -> str:
        """The pair set's key."""
        return self.pair_set.pairs_key


def _method(name: str):
    try:
        return get_method(name)
    except KeyError as exc:  # the message lists the known methods
        raise SelectionError(str(exc.args[0]), usage=True) from None


def choose_pair_set(store, method: str | None = None, settings: dict | None = None,
                    pairs_key: str | None = None) -> PairSetChoice:
    """The pair set to show; see the module docstring for the order of preference.

    Raises:
        SelectionError: no scan, an unknown method, bad parameters, or no such pairs.
    """
    if method is None:
        last = store.scans.last_method()
        if last is None:
            raise SelectionError("the collection has not been scanned yet (run 'ndd scan')")
        method = last[0]
    m = _method(method)
    stored = [ps for ps in store.pairs.sets() if ps.method == m.name]  # newest first
    by_key = {ps.pairs_key: ps for ps in stored}
    if pairs_key is not None:
        pset = by_key.get(pairs_key)
        if pset is None:
            raise SelectionError(f"no pairs of method {m.name!r} under parameters {pairs_key!r}")
        return PairSetChoice(m, _params(m, pset.params), pset)
    if settings:
        try:
            params = m.params(dict(settings))
        except ValueError as exc:
            raise SelectionError(f"{m.name}: {exc}", usage=True) from None
        pset = by_key.get(m.pairs_key(params))
        if pset is None:
            raise SelectionError(f"the collection has no pairs for {m.name} with these parameters (scan first)")
        return PairSetChoice(m, params, pset)
    for run in store.scans.runs():  # newest first
        if run.method != m.name or run.status != "finished":
            continue
        try:
            params = m.params(dict(run.params))
        except ValueError:  # parameters of an older version of the method
            continue
        pset = by_key.get(m.pairs_key(params))
        if pset is not None:
            return PairSetChoice(m, params, pset)
        if run.pairs_key in by_key:  # the run's own record of its pair set
            return PairSetChoice(m, params, by_key[run.pairs_key])
    if not stored:
        from .scan_lock import scan_running

        if scan_running(getattr(store, "path", "")):
            raise SelectionError(f"the collection has no pairs for method {m.name!r} yet: a scan of it is running, "
                                 "and its pairs are stored when it ends")
        raise SelectionError(f"the collection has no pairs for method {m.name!r} (scan with --method {m.name})")
    return PairSetChoice(m, _params(m, stored[0].params), stored[0])


def _params(method, params: dict):
    try:
        return method.params(dict(params))
    except ValueError:  # stored by an older version: the defaults stand in for the threshold
        return method.params()


def choose_threshold(settings: Settings, method: str, params, pairs_key: str, given: float | None = None) -> tuple[float, str]:
    """``(threshold, source)`` for the pair set of ``method`` (``params``: a dict or the
    method's parameters object) and ``pairs_key``: ``given`` ("option"), else the one saved
    for that pair set ("saved"), else the method's default for its parameters ("default")."""
    if given is not None:
        return float(given), "option"
    saved = settings.saved_threshold(method, pairs_key)
    if saved is not None:
        return saved, "saved"
    m = _method(method)
    if isinstance(params, dict) or params is None:
        params = _params(m, params or {})
    return float(m.threshold_for(params)), "default"


def setting_problems(settings: dict) -> list[str]:
    """What is wrong with settings about to be saved (a review file's): a keeper rule or
    grouping that does not exist, a threshold that is no number from 0 to 1. Keys this
    release does not know are left alone (a later release may)."""
    from .group_rules import GROUPINGS, KEEPER_RULES

    problems = []
    for key, value in settings.items():
        if key == KEEPER_RULE_KEY and value not in KEEPER_RULES:
            problems.append(f"{key}: {value!r} is no keeper rule ({', '.join(KEEPER_RULES)})")
        elif key == GROUPING_KEY and value not in GROUPINGS:
            problems.append(f"{key}: {value!r} is no grouping ({', '.join(GROUPINGS)})")
        elif key.startswith("threshold/") and not (
                isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= float(value) <= 1.0):
            problems.append(f"{key}: {value!r} is no threshold (a number from 0 to 1)")
    return problems


def saved_choice(settings: Settings, key: str, choices: tuple[str, ...]) -> str | None:
    """The choice saved under ``key`` when it is one of ``choices``, else None."""
    value = settings.get(key)
    return value if value in choices else None


@dataclass(frozen=True)
class GroupingChoice:
    """Keeper rule, grouping and folder priority, with which of the first two came from
    the collection's saved settings (``saved``: labels such as ``"keeper rule newest"``)."""

    keeper_rule: str
    grouping: str
    folder_priority: tuple[str, ...]
    saved: tuple[str, ...] = ()


def choose_grouping(store, keeper_rule: str | None = None, grouping: str | None = None,
                    folder_priority=None) -> GroupingChoice:
    """The keeper rule and grouping: given, else saved, else the first choice. The folder
    priority: given, else (for the folder-priority rule) the collection's folder order.

    Raises:
        SelectionError: an unknown keeper rule or grouping was given.
    """
    if keeper_rule is not None and keeper_rule not in KEEPER_RULES:
        raise SelectionError(f"unknown keeper rule {keeper_rule!r} (known: {', '.join(KEEPER_RULES)})", usage=True)
    if grouping is not None and grouping not in GROUPINGS:
        raise SelectionError(f"unknown grouping {grouping!r} (known: {', '.join(GROUPINGS)})", usage=True)
    saved: list[str] = []

    def pick(given, key: str, choices: tuple[str, ...], label: str) -> str:
        if given is not None:
            return given
        value = saved_choice(store.settings, key, choices)
        if value is None:
            return choices[0]
        saved.append(f"{label} {value}")
        return value

    rule = pick(keeper_rule, KEEPER_RULE_KEY, KEEPER_RULES, "keeper rule")
    mode = pick(grouping, GROUPING_KEY, GROUPINGS, "grouping")
    priority = tuple(folder_priority or ())
    if rule == "folder-priority" and not priority:
        priority = tuple(r.path for r in store.documents.roots())
    return GroupingChoice(rule, mode, priority, tuple(saved))
