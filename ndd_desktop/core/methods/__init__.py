"""The registry of detection methods: name -> Method instance.

Adding a method means adding its module here and nowhere else. Importing the registry
imports no method and not numpy: the command line reads the default method's name before
it starts the scan's workers' server, and every 0.05 s there delays the scan's workers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the base class (with numpy) comes with the first method imported
    from ..method import Method

# name -> (module, class); modules are imported on first use so start-up stays quick.
_REGISTRY: dict[str, tuple[str, str]] = {
    "exact": ("exact", "ExactMethod"),
    "qgram": ("qgram", "QGramMethod"),
    "bottomk": ("bottomk", "BottomKMethod"),
    "fingerprint": ("fingerprint", "FingerprintMethod"),
    "hybrid": ("hybrid", "HybridMethod"),
    "minhash": ("minhash", "MinHashMethod"),
}

#: The method a scan uses when none is named (chosen from docs/quality.md).
DEFAULT_METHOD = "qgram"

_instances: dict[str, Method] = {}


def method_names() -> list[str]:
    """Names of all registered methods, in display order."""
    return list(_REGISTRY)


def get_method(name: str) -> Method:
    """The method registered under ``name``.

    Raises:
        KeyError: with the list of known names when ``name`` is unknown.
    """
    if name not in _REGISTRY:
        raise KeyError(f"unknown method {name!r} (known: {', '.join(_REGISTRY)})")
    if name not in _instances:
        module_name, class_name = _REGISTRY[name]
        module = importlib.import_module(f"{__name__}.{module_name}")
        _instances[name] = getattr(module, class_name)()
    return _instances[name]


def default_threshold(name: str, params: dict | None = None) -> float:
    """The default threshold of method ``name`` under the given parameter overrides."""
    method = get_method(name)
    return method.threshold_for(method.params(params or {}))
