"""Parameter definitions for methods: the dataclass fields the window builds its form from.

A method's parameters are a frozen dataclass whose fields are declared with :func:`param`.
The metadata carries the range, the choices, the help text and whether a field changes the
sketch (so a change re-sketches) or only the comparison (so it does not).

Every method also has the shared parameter ``ignore`` (:func:`ignore_param`): links, e-mail
addresses and numbers to leave out of the text before it is sketched (``core.normalize``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from .normalize import IGNORABLE


def param(
    default: Any,
    *,
    help: str,
    label: str | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[Any, ...] | None = None,
    multiple: bool = False,
    affects_sketch: bool = True,
    keyed_at_default: bool = True,
) -> Any:
    """Declare one method parameter with its default, range and help text.

    ``multiple``: the value is any subset of ``choices``, written comma-separated
    ("urls,numbers"; "" for none) and kept in the order of ``choices``.
    ``keyed_at_default=False`` leaves the parameter out of the sketch and pairs keys while it
    has its default value: a parameter added in a later release then keeps the keys (the
    stored sketches, pair sets and saved thresholds) of collections scanned before it.
    """
    return field(
        default=default,
        metadata={
            "ndd": {
                "help": help,
                "label": label,
                "minimum": minimum,
                "maximum": maximum,
                "choices": choices,
                "multiple": multiple,
                "affects_sketch": affects_sketch,
                "keyed_at_default": keyed_at_default,
            }
        },
    )


@dataclass(frozen=True)
class ParamInfo:
    """Everything a form or a ``--help`` needs to know about one parameter."""

    name: str
    label: str
    type: type
    default: Any
    minimum: float | None
    maximum: float | None
    choices: tuple[Any, ...] | None
    help: str
    affects_sketch: bool
    multiple: bool = False  # any comma-separated subset of the choices
    keyed_at_default: bool = True  # part of the keys even at its default value


def describe_params(params_cls: type) -> list[ParamInfo]:
    """List the parameters of a method's parameter dataclass, in declaration order."""
    infos = []
    for f in dataclasses.fields(params_cls):
        meta = f.metadata.get("ndd", {})
        ftype = type(f.default)
        infos.append(
            ParamInfo(
                name=f.name,
                label=meta.get("label") or f.name.replace("_", " "),
                type=ftype,
                default=f.default,
                minimum=meta.get("minimum"),
                maximum=meta.get("maximum"),
                choices=meta.get("choices"),
                help=meta.get("help", ""),
                affects_sketch=meta.get("affects_sketch", True),
                multiple=meta.get("multiple", False),
                keyed_at_default=meta.get("keyed_at_default", True),
            )
        )
    return infos


def _subset(info: ParamInfo, value: Any) -> str:
    """A ``multiple`` parameter's value ("b, a" or ["b", "a"]) in canonical form ("a,b")."""
    items = value.split(",") if isinstance(value, str) else list(value or ())
    wanted = {str(item).strip().lower() for item in items} - {""}
    choices = tuple(str(c) for c in info.choices or ())
    unknown = sorted(wanted - set(choices))
    if unknown:
        raise ValueError(f"{info.name}: unknown item {unknown[0]!r} "
                         f"(choose any of {', '.join(choices)}, comma-separated)")
    return ",".join(c for c in choices if c in wanted)


def _convert(info: ParamInfo, value: Any) -> Any:
    if info.multiple:
        return _subset(info, value)
    if info.type is bool:
        if isinstance(value, str):
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"{info.name}: expected true or false, got {value!r}")
        return bool(value)
    try:
        converted = info.type(value)
    except (TypeError, ValueError):
        raise ValueError(f"{info.name}: expected {info.type.__name__}, got {value!r}") from None
    if info.type is int and isinstance(value, float) and value != int(value):
        raise ValueError(f"{info.name}: expected a whole number, got {value!r}")
    if info.choices is not None and converted not in info.choices:
        options = ", ".join(str(c) for c in info.choices)
        raise ValueError(f"{info.name}: {converted!r} is not one of {options}")
    if info.minimum is not None and converted < info.minimum:
        raise ValueError(f"{info.name}: {converted} is below the minimum {info.minimum}")
    if info.maximum is not None and converted > info.maximum:
        raise ValueError(f"{info.name}: {converted} is above the maximum {info.maximum}")
    return converted


def make_params(params_cls: type, values: Mapping[str, Any] | None = None) -> Any:
    """Build a parameter object from a mapping (strings allowed), checking names and ranges.

    Raises:
        ValueError: with a message naming the parameter, for an unknown name or a bad value.
    """
    values = dict(values or {})
    infos = {info.name: info for info in describe_params(params_cls)}
    unknown = sorted(set(values) - set(infos))
    if unknown:
        known = ", ".join(infos)
        raise ValueError(f"unknown parameter {unknown[0]!r} (known: {known})")
    kwargs = {name: _convert(infos[name], value) for name, value in values.items()}
    return params_cls(**kwargs)


def params_dict(params: Any) -> dict[str, Any]:
    """The parameters as a plain JSON-ready dict."""
    return dataclasses.asdict(params)


def params_hash(params: Any, *, sketch_only: bool = False) -> str:
    """A short stable hash of the parameters (or of the ones that change the sketch).

    A parameter declared with ``keyed_at_default=False`` counts only when it is not at its
    default."""
    values = params_dict(params)
    infos = describe_params(type(params))
    unkeyed = {i.name for i in infos if not i.keyed_at_default and values.get(i.name) == i.default}
    values = {k: v for k, v in values.items() if k not in unkeyed}
    if sketch_only:
        keep = {i.name for i in infos if i.affects_sketch}
        values = {k: v for k, v in values.items() if k in keep}
    blob = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def max_df_param(values: str) -> Any:
    """The candidate index's document-frequency cut of the set-overlap methods, declared as
    ``max_df: float = max_df_param("q-grams")`` (``values``: what the method's sets hold)."""
    return param(
        0.5,
        help=f"Leave {values} found in more than this share of documents out of the candidate "
        "index (collections of 50+ documents); scores stay exact, recall may drop.",
        label="max document frequency",
        minimum=0.01,
        maximum=1.0,
        affects_sketch=False,
    )


def ignore_param() -> Any:
    """The parameter every method declares last as ``ignore: str = ignore_param()``: what
    to leave out of the text before sketching (see ``core.normalize.remove_ignored``).

    It changes the sketch; at its default (nothing left out) it is not part of the keys, so
    collections scanned before it existed keep their sketches and pair sets.
    """
    return param(
        "",
        help="Leave these out of the text before comparing: urls (links), emails (e-mail "
        "addresses), numbers. The stored text is unchanged.",
        label="ignore",
        choices=IGNORABLE,
        multiple=True,
        keyed_at_default=False,
    )
