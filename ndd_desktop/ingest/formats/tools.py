"""Outside programs some readers call (antiword, catppt, tesseract): found on PATH, run
with a time limit, a memory limit and their own process group, never through a shell.

A program that is not installed makes the file an error whose reason names the Debian
package to install (``needs antiword: ...``; the next scan reads such files again, see
``reasons.RETRIED_REASONS``); one that overruns its time is killed with its children,
so a pool worker's own time limit is not reached with a stray process left behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

from ndd_desktop.ingest.formats.base import Fail
from ndd_desktop.ingest.reasons import NEEDS_PROGRAM

#: Debian/Ubuntu package of each program.
PACKAGES = {"antiword": "antiword", "catppt": "catdoc", "tesseract": "tesseract-ocr"}
_MEMORY = 2048 * 1024 * 1024  # address space of one outside program (POSIX)


def find(program: str) -> str | None:
    """The program's path, or None when it is not installed."""
    return shutil.which(program)


def require(program: str, what: str) -> str:
    """The program's path; Fail("needs <program>: ...") when it is missing."""
    path = find(program)
    if path is None:
        package = PACKAGES.get(program, program)
        raise Fail(f"{NEEDS_PROGRAM}{program}: {what} (install the '{package}' package)")
    return path


def run(args: list[str], *, timeout: float, input: bytes | None = None) -> bytes:
    """Standard output of a program; Fail with its first error line on a non-zero exit
    and with "timed out" when it runs past ``timeout`` seconds."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LC_ALL="C.UTF-8")
    posix = sys.platform != "win32"
    try:
        proc = subprocess.Popen(
            args, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            start_new_session=posix, preexec_fn=_limit_memory if posix else None,
        )
    except OSError as exc:
        raise Fail(f"could not run {os.path.basename(args[0])}: {exc.strerror or exc}") from None
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        raise Fail(f"{os.path.basename(args[0])} timed out after {timeout:g} s") from None
    except BaseException:
        _kill(proc)
        raise
    if proc.returncode != 0:
        lines = [line.strip() for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        # the first line that says "error" (warnings often come first), else the first line
        first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")
        raise Fail(f"{os.path.basename(args[0])} failed (exit {proc.returncode}): {first[:160]}")
    return out


def _kill(proc: subprocess.Popen) -> None:
    try:
        if sys.platform != "win32":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        pass
    proc.communicate()


def _limit_memory() -> None:  # runs in the child between fork and exec
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))
    except (ImportError, ValueError, OSError):
        pass
