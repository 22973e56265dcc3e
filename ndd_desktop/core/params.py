"""Parameter definitions for methods: the dataclass fields the window builds its form from.

A method's parameters are a frozen dataclass whose fields are declared with :func:`param`.
The metadata carries the range, the choices, the help text and whether a field changes the
sketch (so a change re-sketches) or only the comparison (so it does not).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping


def param(
    default: Any,
    *,
    help: str,
    label: str | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[Any, ...] | None = None,
    affects_sketch: bool = True,
) -> Any:
    """Declare one method parameter with its default, range and help text."""
    return field(
        default=default,
        metadata={
            "ndd": {
                "help": help,
                "label": label,
                "minimum": minimum,
                "maximum": maximum,
                "choices": choices,
                "affects_sketch": affects_sketch,
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
            )
        )
    return infos


def _convert(info: ParamInfo, value: Any) -> Any:
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
    """A short stable hash of the parameters (or of the ones that change the sketch)."""
    values = params_dict(params)
    if sketch_only:
        keep = {i.name for i in describe_params(type(params)) if i.affects_sketch}
        values = {k: v for k, v in values.items() if k in keep}
    blob = json.dumps(values, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]
