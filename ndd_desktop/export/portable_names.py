"""Exported names that Windows, or a FAT or exFAT drive, cannot hold.

An export keeps every name as the archive had it, so that its reports and its bag name the
originals. A set made on Linux or macOS may then be handed to a Windows machine or copied to
a USB drive, where a file named ``minutes: draft?.txt``, ``CON.txt`` or ``notes.`` cannot be
written, and ``Report.txt`` and ``report.txt`` in one folder become one file. The export
names such files (``DocumentRow.note``, and a sentence before the set is handed on) and
copies them as they are; renaming them is the archivist's choice.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Characters no Windows name may hold (besides the controls below 32).
FORBIDDEN = frozenset('<>:"|?*\\')
#: Names Windows gives to devices, with or without an extension.
RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{k}" for k in range(1, 10)),
                      *(f"LPT{k}" for k in range(1, 10))})


def name_problem(name: str) -> str:
    """Why Windows cannot hold this one name (a folder's or a file's), or ""."""
    bad = sorted({c for c in name if c in FORBIDDEN or ord(c) < 32})
    if bad:
        shown = ", ".join(repr(c) if c.isprintable() else f"U+{ord(c):04X}" for c in bad)
        return f"a character Windows does not allow in a name ({shown})"
    if name.endswith((".", " ")):
        return "a name ending in a dot or a space"
    if name.split(".")[0].rstrip(" ").upper() in RESERVED:
        return f"a name Windows keeps for a device ({name.split('.')[0]})"
    return ""


def windows_problems(targets: Iterable[str]) -> dict[str, str]:
    """The targets (POSIX paths in the payload) that cannot be written as they are on
    Windows or a FAT or exFAT drive, each with the reason: a name it does not allow, or a
    path that differs only in case from another target's (the first of them in order is
    not named: the others would take its place)."""
    problems: dict[str, str] = {}
    seen: dict[str, str] = {}
    for target in sorted(targets):
        for part in target.split("/"):
            why = name_problem(part)
            if why:
                problems[target] = why
                break
        else:
            other = seen.setdefault(target.casefold(), target)
            if other != target:
                problems[target] = f"differs only in case from {other}"
    return problems


def summary(count: int) -> str:
    """The sentence an export says about its files of such names ("" for none)."""
    if not count:
        return ""
    files = "file has a name" if count == 1 else "files have names"
    return (f"{count:,} exported {files} that Windows or a FAT/exFAT drive cannot hold (a character such as "
            "':' or '?', a name ending in a dot, a device name such as CON, or a path that differs from another "
            "only in case): documents.csv names each in its note column; rename them before the set is copied "
            "there, or they fail or overwrite each other")
