"""A package's public names imported on first use (PEP 562), not with the package.

A package whose ``__init__`` imports its modules makes anything that imports one small
module of it pay for all of them; the extraction workers, which need neither SQLAlchemy
nor the scan job, are forked from a server that would import both. A package lists where
each name lives and hands the list to :func:`lazy_names`.
"""

from __future__ import annotations

import importlib
import sys
from typing import Callable


def lazy_names(package: str, home: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """(``__getattr__``, ``__dir__``) for the package named ``package``: name ``n`` is
    imported from the module ``home[n]`` (relative to the package) when first asked for,
    and kept in the package from then on; any other name is the package's submodule of
    that name, imported then, or an AttributeError."""

    def __getattr__(name: str) -> object:
        module = home.get(name)
        if module is None:
            # a submodule not imported yet, as a package that imports its modules offers it
            try:
                return importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":  # the submodule is there but needs what is not
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *home})

    return __getattr__, __dir__
