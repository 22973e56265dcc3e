"""The packages that import their public names on first use (ndd_desktop.lazy_names)."""

from __future__ import annotations

import importlib

import pytest
from fresh_python import fresh_python

LAZY_PACKAGES = ("ndd_desktop.store", "ndd_desktop.pipeline")


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_listed_name_is_found_where_the_package_says(package):
    pkg = importlib.import_module(package)
    assert pkg.__all__, package
    for name in pkg.__all__:
        value = getattr(pkg, name)
        home = importlib.import_module(pkg._HOME[name], package)
        assert value is getattr(home, name), name
        assert name in dir(pkg)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_an_unknown_name_is_an_attribute_error_naming_it(package):
    pkg = importlib.import_module(package)
    with pytest.raises(AttributeError, match="no_such_name"):
        pkg.no_such_name  # noqa: B018


def test_star_import_and_submodules_work_in_a_fresh_process():
    script = (
        "import sys\n"
        "import ndd_desktop.store.originals\n"
        "assert 'sqlalchemy' not in sys.modules, 'a small module of the store imported SQLAlchemy'\n"
        "import ndd_desktop.pipeline as p\n"
        "assert p.plan.make_plan and 'ndd_desktop.pipeline.plan' in sys.modules  # a submodule on first use\n"
        "from ndd_desktop.store import *\n"
        "from ndd_desktop.pipeline import *\n"
        "print(Store.__module__, ScanJob.__module__, Limits.__module__)\n"
    )
    assert fresh_python(script).split() == ["ndd_desktop.store.store", "ndd_desktop.pipeline.job", "ndd_desktop.ingest.limits"]
