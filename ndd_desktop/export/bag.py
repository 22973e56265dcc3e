"""Writing the exported set as a BagIt bag (RFC 8493) with the bagit library, and checking it.

The payload is first exported into DEST as usual; ``bagit.make_bag`` then moves it into
``DEST/data`` and writes the SHA-256 (and optionally SHA-512) manifests and bag-info. The
reports are added afterwards as tag files under ``DEST/_ndd_reports`` and the tag
manifests are rewritten with ``Bag.save``. Finally the bag is checked with bagit's own
validator.

bagit changes the process's working directory while it works, so the GUI must not rely
on the working directory while an export with a bag runs (it should use absolute paths,
which it does anyway).
"""

from __future__ import annotations

import json
import os

import bagit

from .. import __version__
from .errors import ExportError
from .plan import ExportPlan

PAYLOAD_DIR = "data"


def bag_info(plan: ExportPlan) -> dict:
    """The bag-info.txt fields: source folders, method, parameters, threshold, counts."""
    o = plan.options
    return {
        "Bag-Software-Agent": f"ndd-desktop {__version__} (bagit.py {bagit.VERSION})",
        "External-Description": (
            "Deduplicated set exported by ndd-desktop: every document in no duplicate group "
            "plus the keeper of each group; reports in _ndd_reports/."),
        "Source-Folder": [r.path for r in plan.roots] or sorted({r.root for r in plan.rows}),
        "NDD-Method": o.method,
        "NDD-Parameters": json.dumps(plan.params, sort_keys=True),
        "NDD-Pairs-Key": o.pairs_key,
        "NDD-Threshold": f"{o.threshold:g}",
        "NDD-Measure": o.measure,
        "NDD-Keeper-Rule": o.keeper_rule,
        "NDD-Documents": str(len(plan.rows)),
        "NDD-Groups": str(len(plan.groups)),
        "NDD-Left-Out": str(len(plan.left_out)),
    }


def checksums(sha512: bool) -> list[str]:
    """The manifest algorithms: SHA-256 always, SHA-512 when asked."""
    return ["sha256", "sha512"] if sha512 else ["sha256"]


def check_can_bag(dest: str) -> None:
    """Refuse early what bagit would refuse half-way: a working directory inside ``dest``."""
    dest = os.path.realpath(dest)
    cwd = os.path.realpath(os.getcwd())
    if cwd == dest or cwd.startswith(dest.rstrip(os.sep) + os.sep):
        raise ExportError("cannot make the bag: the working directory lies inside the destination")


def make_payload_bag(dest: str, plan: ExportPlan) -> None:
    """Turn the exported folder ``dest`` (payload only) into a bag.

    Raises:
        ExportError: bagit refused (permissions, working directory inside ``dest``).
    """
    dest = os.path.abspath(dest)
    try:
        bagit.make_bag(dest, bag_info=bag_info(plan), checksums=checksums(plan.options.sha512))
    except Exception as exc:  # bagit raises whatever its helpers raise (BagError, OSError, UnicodeError)
        raise ExportError(f"cannot make the bag: {exc}") from None


def refresh_tag_manifests(dest: str) -> None:
    """Rewrite the tag manifests after the reports were added as tag files."""
    try:
        bagit.Bag(os.path.abspath(dest)).save(manifests=False)
    except (bagit.BagError, OSError) as exc:
        raise ExportError(f"cannot update the bag's tag manifests: {exc}") from None


def validate_bag(dest: str) -> tuple[bool, str]:
    """Check the bag with bagit's validator (every checksum); ``(valid, message)``."""
    try:
        bagit.Bag(os.path.abspath(dest)).validate(processes=1, fast=False)
    except bagit.BagValidationError as exc:
        details = "; ".join(str(d) for d in getattr(exc, "details", [])[:10])
        return False, f"{exc}{': ' + details if details else ''}"
    except bagit.BagError as exc:
        return False, str(exc)
    return True, "valid"
