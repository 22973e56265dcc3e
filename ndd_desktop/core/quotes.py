"""The quoted part of an e-mail body, and whether one message's words are in another.

:func:`split_quoted` separates a message's own text from what it quotes: lines starting
with ``>``, an attribution line (``On ... wrote:``, also wrapped over two lines), and
everything from a reply or forward header block on: Outlook's ``From: ... Sent: ...``
block or ``-----Original Message-----``, ``---------- Forwarded message ---------``,
Thunderbird's ``-------- Original Message --------``, Apple Mail's ``Begin forwarded
message:``. :func:`contained` says whether a message's own words are held by another
(:data:`CONTAINED_SHARE` of their word 3-grams). :mod:`core.threads` uses both.
"""

from __future__ import annotations

import re

#: Share of a message's own word 3-grams a later message must hold to contain it.
CONTAINED_SHARE = 0.9
_WORD = re.compile(r"\w+", re.UNICODE)
_ATTRIBUTION = re.compile(r"^\s*(on|le|am|el|il|op)\b.*\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef)\s*:\s*$",
                          re.IGNORECASE)
_ATTRIBUTION_START = re.compile(r"^\s*(on|le|am|el|il|op)\s.+", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(r".*\b(wrote|a écrit|schrieb|escribió|ha scritto|schreef)\s*:\s*$", re.IGNORECASE)
_SEPARATORS = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|message d'origine|ursprüngliche nachricht|"
    r"weitergeleitete nachricht)\s*-{2,}|begin forwarded message:|_{10,})\s*$",
    re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\s*\*?(from|von|de|sent|gesendet|envoyé|date|to|an|à|cc|subject|betreff|objet)\*?\s*:",
                          re.IGNORECASE)
_PREAMBLE = re.compile(r"^(subject|from|date):", re.IGNORECASE)


def strip_preamble(text: str) -> str:
    """The body of a message text as the extractors write it (``Subject:``, ``From:``,
    ``Date:`` lines and a blank line before the body)."""
    lines = text.split("\n")
    k = 0
    while k < len(lines) and k < 3 and _PREAMBLE.match(lines[k]):
        k += 1
    if k and k < len(lines) and not lines[k].strip():
        k += 1
    return "\n".join(lines[k:]) if k else text


def _header_block_at(lines: list[str], i: int) -> bool:
    """True when lines[i] starts a reply header block (From: followed by Sent:/Date:/To:/Subject:)."""
    if not _HEADER_LINE.match(lines[i]) or not re.match(r"^\s*\*?(from|von|de)\*?\s*:", lines[i], re.I):
        return False
    following = [ln for ln in lines[i + 1:i + 5] if ln.strip()]
    return sum(1 for ln in following[:3] if _HEADER_LINE.match(ln)) >= 2


def split_quoted(body: str) -> tuple[str, str]:
    """(own text, quoted text) of a message body (see the module docstring)."""
    lines = body.replace("\r\n", "\n").split("\n")
    own: list[str] = []
    quoted: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if _SEPARATORS.match(line) or _header_block_at(lines, i):
            quoted.extend(lines[i:])  # the rest is the earlier message
            break
        if line.lstrip().startswith(">"):
            quoted.append(line)
        elif _ATTRIBUTION.match(line):
            quoted.append(line)
        elif (_ATTRIBUTION_START.match(line) and i + 1 < len(lines) and _ATTRIBUTION_END.match(lines[i + 1])
              and len(line) < 200):
            quoted.extend(lines[i:i + 2])  # "On Mon, ... at 10:00 Alice <a@x>\nwrote:"
            i += 1
        else:
            own.append(line)
        i += 1
    return "\n".join(own).strip(), "\n".join(quoted).strip()


def words(text: str) -> list[str]:
    """The words of a text, case-folded (quote markers and punctuation dropped)."""
    return [w.casefold() for w in _WORD.findall(text)]


def grams(tokens: list[str], n: int = 3) -> set[tuple[str, ...]]:
    """The distinct n-grams of a word list (the whole list when it is shorter)."""
    if len(tokens) < n:
        return {tuple(tokens)} if tokens else set()
    return {tuple(tokens[k:k + n]) for k in range(len(tokens) - n + 1)}


def contained(own: list[str], other: list[str]) -> bool:
    """True when the words ``own`` appear in ``other`` (at least CONTAINED_SHARE of their 3-grams)."""
    if not own:
        return True
    if len(own) < 3:
        text = " " + " ".join(other) + " "
        return (" " + " ".join(own) + " ") in text
    mine = grams(own)
    theirs = grams(other)
    return len(mine & theirs) >= CONTAINED_SHARE * len(mine)
