"""The pair set, threshold and grouping a command shows, from its options (``--method``,
``--set``, ``--threshold``, ``--keeper-rule``, ``--grouping``, ``--priority``), by the
application's one rule (``app.selection``), with its notes on stderr."""

from __future__ import annotations

import argparse
import sys

from ..core.methods import get_method
from ..store import Store
from . import CommandError, UsageError


def _method(name: str):
    try:
        return get_method(name)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None


def parse_settings(items: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` to a dict (values stay strings; the method converts them)."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--set expects KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out



def _selection_error(exc) -> Exception:
    """The app layer's SelectionError as the CLI's error (usage: exit 2, else 1)."""
    return UsageError(str(exc)) if exc.usage else CommandError(str(exc))


def select_pair_set(store: Store, args: argparse.Namespace, session=None):
    """(method, params object, pairs_key, threshold) from --method/--set/--threshold, by the
    application's one rule (``app.selection.select``), with its notes on stderr; a
    ``session`` given is set to show that pair set."""
    from ..app.selection import SelectionError, select

    settings = parse_settings(getattr(args, "set", []) or [])
    try:
        sel = select(store, args.method, settings, threshold=args.threshold)
    except SelectionError as exc:
        raise _selection_error(exc) from None
    for note in sel.notes():
        sys.stderr.write(f"ndd: note: {note}\n")
    if session is not None:
        session.use(sel)
    return sel.method, sel.params, sel.pairs_key, sel.threshold


def open_session(store: Store, args: argparse.Namespace, *, grouping: bool = True):
    """An ``app.session.Session`` over ``store`` showing what the options ask for: the pair
    set and threshold, and (``grouping``) the keeper rule, grouping and folder priority,
    for this command only (nothing is saved)."""
    from ..app.session import Session

    session = Session(store)
    if grouping:
        session.use_grouping(*grouping_options(store, args))
    select_pair_set(store, args, session)
    return session


def _check_keeper_rule(args: argparse.Namespace) -> None:
    from ..pipeline.group_rules import KEEPER_RULES

    if args.keeper_rule is not None and args.keeper_rule not in KEEPER_RULES:
        raise UsageError(f"unknown keeper rule {args.keeper_rule!r} (known: {', '.join(KEEPER_RULES)})")


def grouping_options(store: Store, args: argparse.Namespace) -> tuple[str, str, tuple[str, ...]]:
    """(keeper rule, grouping, folder priority) from --keeper-rule, --grouping and
    --priority by the application's one rule (``app.selection.choose_grouping``); a value
    saved with the collection is named on stderr."""
    from ..app.selection import SelectionError, choose_grouping

    try:
        choice = choose_grouping(store, args.keeper_rule, args.grouping, getattr(args, "priority", None))
    except SelectionError as exc:
        raise _selection_error(exc) from None
    if choice.saved:
        sys.stderr.write(f"ndd: note: {' and '.join(choice.saved)} saved with the collection "
                         "(--keeper-rule and --grouping override them)\n")
    return choice.keeper_rule, choice.grouping, choice.folder_priority


def note_unsure_latest(store: Store, session) -> None:
    """Under the keeper rule ``latest``, say on stderr in how many of the session's groups
    the version order is a guess (``ndd clusters``, ``ndd export``)."""
    if session.keeper_rule != "latest":
        return
    from ..app.analyses import unsure_latest_note

    grouping = session.grouping if session.grouping is not None else session.groups()  # formed once
    note = unsure_latest_note(store, grouping)
    if note:
        sys.stderr.write(f"ndd: note: {note}\n")
