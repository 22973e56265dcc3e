"""Build hook for setuptools: everything else is in pyproject.toml.

The top-level ``resources/`` folder (icons, demo collection, word lists) ships inside the
wheel as the data-only package ``ndd_desktop._resources``; ``ndd_desktop.resources`` finds
it there, beside the package in a checkout, or in a PyInstaller bundle.
"""

from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

RESOURCES = Path(__file__).resolve().parent / "resources"


def resource_packages() -> list[str]:
    """``ndd_desktop._resources`` and every sub-folder that setuptools would call a package.

    The files themselves come from the ``**/*`` package-data pattern of the top package;
    listing the sub-folders only tells setuptools that they are meant to be data.
    """
    names = ["ndd_desktop._resources"]
    for folder in sorted(p for p in RESOURCES.rglob("*") if p.is_dir()):
        parts = folder.relative_to(RESOURCES).parts
        if all(part.isidentifier() for part in parts):
            names.append(".".join(("ndd_desktop._resources", *parts)))
    return names


#: Folders of data files inside the package (no __init__.py): named as packages so that
#: setuptools ships them without its "package would be ignored" warning.
DATA_PACKAGES = ["ndd_desktop.export.templates"]

#: The scan's word-sketch and verification loops in C (``ndd_desktop/core/_native.c``).
#: Optional: where no C compiler is found the build goes on without it, and the numba
#: versions of the same loops serve (``core.minhash_kernel``, ``core.share_kernel``).
NATIVE = Extension("ndd_desktop.core._native", ["ndd_desktop/core/_native.c"], optional=True)


class BuildNative(build_ext):
    """Builds the loops at -O3 with GCC and Clang: it is what vectorises the sketch's
    minima (a distribution's Python may have been built with -O2); MSVC's /O2 does that."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type != "msvc":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, "-O3"]
        super().build_extensions()


setup(
    ext_modules=[NATIVE],
    cmdclass={"build_ext": BuildNative},
    packages=find_packages(include=["ndd_desktop", "ndd_desktop.*"]) + DATA_PACKAGES + resource_packages(),
    package_dir={"ndd_desktop._resources": "resources"},
)
