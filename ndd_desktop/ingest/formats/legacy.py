"""Legacy Word (.doc) and PowerPoint (.ppt) files through antiword and catppt (catdoc);
a .ppt in which catppt finds no text, or read where catppt is missing, by its own records
(:mod:`.ppt_text`).

Both programs read a file, so the bytes go to a private temporary file (never next to
the original) and the program runs with a time limit below the pool's. Without the
program the file is an error whose reason names the Debian package to install (read
again by the next scan).
"""

from __future__ import annotations

import os
import tempfile

from ndd_desktop.ingest.formats import tools
from ndd_desktop.ingest.formats.base import Context, Extraction, Fail, Skip

_ENCRYPTED = ("encrypt", "password")


def extract_doc(data: bytes, ctx: Context) -> Extraction:
    """Text of a Word 97-2003 document (antiword)."""
    program = tools.require("antiword", "legacy Word document (.doc)")
    # -w 0: one line per paragraph; -m UTF-8.txt: UTF-8 output
    return Extraction(text=_run([program, "-w", "0", "-m", "UTF-8.txt"], data, ctx, "DOC"))


def extract_ppt(data: bytes, ctx: Context) -> Extraction:
    """Text of a PowerPoint 97-2003 presentation: catppt's, or the text atoms of the file's
    records (:mod:`.ppt_text`) where those hold more than twice as much (a deck LibreOffice
    saved keeps its text in the shapes' text boxes, where catppt does not look) or catppt
    is not installed."""
    from ndd_desktop.ingest.formats.ppt_text import ppt_text

    try:
        program = tools.require("catppt", "legacy PowerPoint presentation (.ppt)")
    except Fail:
        own = ppt_text(data, ctx.limits.max_text_chars)
        if own is None:  # not readable here either: say which program reads such files
            raise
        return Extraction(text=own)
    text = _run([program, "-d", "utf-8"], data, ctx, "PPT")
    own = ppt_text(data, ctx.limits.max_text_chars) or ""
    # catppt reads the slide list (where PowerPoint puts the slides' text) and the masters'
    # prompts; a deck whose text is in its shapes' text boxes gives it little or nothing
    if len("".join(own.split())) > 2 * len("".join(text.split())):
        text = own
    return Extraction(text=text)


def _run(command: list[str], data: bytes, ctx: Context, what: str) -> str:
    with tempfile.TemporaryDirectory(prefix="ndd-") as folder:
        path = os.path.join(folder, f"document.{what.lower()}")
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            out = tools.run([*command, path], timeout=tool_timeout(ctx))
        except Fail as exc:
            message = str(exc).replace(path, ctx.name or "the file")  # no private temporary path
            if any(word in message.lower() for word in _ENCRYPTED):
                raise Skip("encrypted: no password") from None
            raise Fail(f"corrupt or unsupported {what}: {message}") from None
    text = out.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def tool_timeout(ctx: Context) -> float:
    """Seconds an outside program may run for one file: most of the pool's limit, so the
    program is stopped here (and its process killed) before the worker is."""
    return max(1.0, ctx.limits.timeout_s * 0.8)
